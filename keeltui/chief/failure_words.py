"""Why a reply did not finish, in its own words. Pure.

A failed or cut reply keeps an ``error`` part: ``{"type": "error", "message": ...,
"kind": ...}`` plus what its words need (the URL, the HTTP status, the variable that
holds the key, the models the server offers, how many rows were folded, when to try
again). :func:`classify` decides the kind from what the brain said; :func:`failure_words`
is the one function every surface calls (the row's header, ``keeltui log``, ``export``,
the status line, ``keeltui chat``), so a failure reads the same everywhere.
"""

from __future__ import annotations

import re

from keeltui.text.textsafe import one_line

ERROR_PART = "error"

UNREACHABLE = "unreachable"
"""Nothing answers at the URL (no server, a wrong port, a dropped link before any text)."""
DROPPED = "dropped"
"""The connection broke after text had come."""
STALLED = "stalled"
"""The server stopped sending (or never started) within ``brain.timeout_secs``."""
BAD_KEY = "bad_key"
UNKNOWN_MODEL = "unknown_model"
CONTEXT_TOO_LONG = "context_too_long"
RATE_LIMITED = "rate_limited"
SERVER_ERROR = "server_error"
UNREADABLE = "unreadable"
"""A 200 whose body is no reply (a proxy's HTML page, an empty answer)."""
CLOSED = "closed"
"""keeltui itself ended (kill -9, a signal, the window closed) before the reply finished."""
UNSAVED = "unsaved"
"""The reply could not be written to the database (disk full): only the screen has it."""

KINDS = (UNREACHABLE, DROPPED, STALLED, BAD_KEY, UNKNOWN_MODEL, CONTEXT_TOO_LONG, RATE_LIMITED,
         SERVER_ERROR, UNREADABLE, CLOSED, UNSAVED)

_MODEL_WORDS = re.compile(r"model", re.IGNORECASE)


def classify(error_class: str, status: int | None = None, detail: str = "", *, context_overflow: bool = False,
             had_text: bool = False) -> str:
    """The kind of a brain failure, from the error's class name (brain.py's), its HTTP
    status and the server's own text."""
    if error_class == "BrainUnavailable":
        return DROPPED if had_text else UNREACHABLE
    if error_class == "BrainTimeout":
        return STALLED
    if error_class == "BrainReplyError":
        return UNREADABLE
    if status is None:
        return SERVER_ERROR
    if context_overflow:
        return CONTEXT_TOO_LONG
    if status in (401, 403):
        return BAD_KEY
    if status == 429:
        return RATE_LIMITED
    if status == 404 and (_MODEL_WORDS.search(detail) or not detail.strip()):
        return UNKNOWN_MODEL
    return SERVER_ERROR


def error_part(kind: str, message: str, **facts) -> dict:
    """The part stored with the row: the kind, the brain's own line, and the facts the words need."""
    part = {"type": ERROR_PART, "kind": kind, "message": message}
    part.update({key: value for key, value in facts.items() if value not in (None, "", [], ())})
    return part


def find_error(parts) -> dict | None:
    """The row's error part, if it has one."""
    for part in parts or ():
        if isinstance(part, dict) and part.get("type") == ERROR_PART:
            return part
    return None


APP_RETRY = "F5"
"""What asks again in the app (and what `log` and `export` name: the room's own key)."""
LINE_RETRY = "↑ and Enter"
"""What asks again in the line-mode chat: the history brings the message back to send."""
TURN_RETRY = "the same command"
"""What asks again after one ``keeltui chat TEXT`` turn."""


def _retry_when(seconds, again: str) -> str:
    if isinstance(seconds, (int, float)) and 0 < seconds < 24 * 3600:
        if seconds < 90:
            return f"{again} after {int(seconds + 0.999)}s"
        return f"{again} after {int(seconds // 60 + 1)} min"
    return f"{again} in a minute"


def _offered(models) -> str:
    names = [str(name) for name in models or () if str(name).strip()]
    if not names:
        return "it lists no models at /v1/models"
    shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
    return f"it offers {shown}"


def words_for(part: dict, again: str = APP_RETRY) -> str:
    """One line for one error part: what happened and what to do (``again``: what asks
    again where the words are read, e.g. F5 in the app)."""
    kind = part.get("kind")
    url = part.get("url") or "the configured URL"
    code = part.get("status")
    http = f" (HTTP {code})" if code else ""
    if kind == UNREACHABLE:
        return f"no model server answers at {url}: start it (e.g. `ollama serve`) or fix brain.base_url, then {again} retries"
    if kind == DROPPED:
        return f"the connection to {url} broke mid-reply: {again} retries"
    if kind == STALLED:
        secs = part.get("timeout_secs")
        waited = f" for {secs:g}s" if isinstance(secs, (int, float)) else ""
        return f"the brain stopped sending{waited}: {again} retries"
    if kind == BAD_KEY:
        variable = part.get("variable")
        if variable:
            return f"the model server at {url} refused the API key{http}: check ${variable}, then {again}"
        return (f"the model server at {url} wants an API key{http}: name the variable that holds it "
                f"in brain.api_key_env, then {again}")
    if kind == UNKNOWN_MODEL:
        model = part.get("model") or "?"
        return f"the model server has no model {model!r}{http}; {_offered(part.get('models'))}: set brain.model"
    if kind == CONTEXT_TOO_LONG:
        folded = part.get("folded")
        if folded == -1:
            summary = "and no summary could be written to make room (nothing was dropped)"
        elif isinstance(folded, int) and folded > 0:
            summary = f"even after folding {folded} older rows into a summary"
        else:
            summary = "and nothing older was left to fold into a summary"
        return f"the conversation did not fit the model's window{http}, {summary}: {again} retries"
    if kind == RATE_LIMITED:
        return f"the model server is rate-limiting{http}: {_retry_when(part.get('retry_after'), again)}"
    if kind == SERVER_ERROR:
        detail = part.get("detail") or ""
        said = f": {detail}" if detail else ""
        return f"the model server at {url} failed{http}{said}; {again} retries"
    if kind == UNREADABLE:
        if part.get("detail"):
            return f"{part['detail']}: {again} retries"
        return f"the brain at {url} sent an empty or unreadable reply: {again} retries"
    if kind == CLOSED:
        return f"keeltui was closed before the reply finished: {again} asks again"
    if kind == UNSAVED:
        why = part.get("detail") or "the database could not be written"
        if again != APP_RETRY:  # only the app holds the text to store later
            return f"not saved ({why}): this text was printed only; {again} asks again once there is room"
        return f"not saved ({why}): this text was on screen only; F5 stores it and asks again once there is room"
    message = str(part.get("message") or "").strip()
    return message or f"the reply did not finish: {again} retries"


def failure_words(status: str, parts, again: str = APP_RETRY) -> str:
    """What a row's header says after the speaker; "" for a row that did not fail.

    ``stopped`` is the owner's own act; ``partial`` and ``error`` say why in the
    words of their error part (a row from before the kinds shows its stored line).
    """
    if status == "stopped":
        return "stopped by you"
    if status not in ("partial", "error"):
        return ""
    part = find_error(parts)
    why = words_for(part, again) if part is not None else f"the reply did not finish: {again} retries"
    # The facts came from a server (its error text, its model names): one clean line.
    return one_line(f"cut off: {why}" if status == "partial" else f"no reply: {why}", 400)


BRAIN_GONE = (UNREACHABLE, DROPPED, STALLED, SERVER_ERROR)
"""Failures after which the brain is taken as offline (the app says so and probes it again,
as start-up's check does); a refused key, an unknown model or a 429 come from a server
that is there and needs something else, said in the row's own words."""


def reply_failure_kind(row) -> str | None:
    """The kind of a settled reply's failure, if it failed."""
    part = find_error(getattr(row, "parts", None)) if row is not None else None
    return part.get("kind") if part is not None else None
