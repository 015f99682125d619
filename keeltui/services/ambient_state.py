"""Ambient and focus state shared through the store, so every process agrees.

``keeltui snooze`` and the banner write the same snooze; ``keeltui focus`` and the
app's focus key start and stop the same session; the settings screen and any other
process write the same live settings. One session at a time, checked inside one
write transaction so two processes cannot both start one.

The focus rules themselves (what a session is, its text, its time left, its report,
when a start is refused) live in :mod:`keeltui.ambient.focus`; this module only
stores them. Sessions are kept as plain dicts (:meth:`FocusSession.to_dict`).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from keeltui.ambient.focus import (
    FocusBusyError,
    FocusSession,
    begin_focus,
    focus_report_text,
    focus_status_text,
    is_over,
)
from keeltui.ambient.modes import parse_mode
from keeltui.chief.turn_kinds import FOCUS_SOURCE, NOTICE

log = logging.getLogger("keeltui.services.ambient_state")

SNOOZE_KEY = "ambient_snooze_until"
FOCUS_EVENT = "focus_session"
FOCUS_KEY = "focus_session"
SETTINGS_MODE_KEY = "settings.ambient_mode"
SETTINGS_CADENCE_KEY = "settings.ambient_cadence_secs"

# One refusal class for the CLI and the app: focus.py names the running session.
FocusBusy = FocusBusyError

_SELECT = "SELECT value FROM app_state WHERE key = ?"
_UPSERT = (
    "INSERT INTO app_state (key, value, updated_at) VALUES (?, ?, ?) "
    "ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at"
)


def _session(value: Any) -> FocusSession | None:
    """A stored value as a session; anything unreadable counts as no session."""
    if value is None:
        return None
    try:
        return FocusSession.from_dict(value)
    except ValueError as exc:
        log.warning("ignoring a stored focus session that is not one: %s", exc)
        return None


def _stored(conn) -> FocusSession | None:
    row = conn.execute(_SELECT, (FOCUS_KEY,)).fetchone()
    return _session(json.loads(row[0])) if row else None


def current_session(store) -> FocusSession | None:
    """The running (or timed-out but not yet reported) session."""
    return _session(store.get_state(FOCUS_KEY))


def current_focus(store) -> dict | None:
    """The running session as a dict (what the CLI prints from), or None."""
    session = current_session(store)
    return session.to_dict() if session is not None else None


def _report(store, session: FocusSession, ended_at: float) -> str:
    """Say in the Chief room, as a Notice (the app's own line, not a scheduled task), what the session was."""
    text = focus_report_text(session, ended_at)
    store.add_message(store.chief_id(), "assistant", text, source=FOCUS_SOURCE, turn_kind=NOTICE)
    # One record per session for `keeltui day` (the room's line is for reading).
    store.add_event(FOCUS_EVENT, {
        "start": session.started_at, "end": ended_at, "secs": round(max(0.0, ended_at - session.started_at), 1),
        "commitment": session.commitment, "minutes": session.minutes, "drifts": session.drifts,
    })
    return text


def busy_refusal(store, now: float) -> str:
    """The refusal a start would get now, naming the running session; "" if none.

    Asks :func:`begin_focus` itself (with a stand-in commitment) so the app can
    refuse before opening its prompt by the very rule a start applies.
    """
    try:
        begin_focus(current_session(store), "(check)", None, now)
    except FocusBusyError as exc:
        return str(exc)
    return ""


def start_focus(store, commitment: str, minutes: float | None, now: float) -> dict:
    """Start a session; :class:`FocusBusy` (naming it) while one runs, ValueError if empty.

    A timed session that ran out but was never reported (the app was closed) does
    not block: it is reported, then replaced.
    """
    expired: FocusSession | None = None
    with store.transaction() as conn:
        running = _stored(conn)
        session = begin_focus(running, commitment, minutes, now)
        if running is not None and is_over(running, now):
            expired = running
        conn.execute(_UPSERT, (FOCUS_KEY, json.dumps(session.to_dict()), now))
    if expired is not None:
        # Written after the transaction: add_message opens its own.
        _report(store, expired, expired.started_at + (expired.minutes or 0) * 60)
    return session.to_dict()


def stop_focus(store, now: float) -> str | None:
    """End the running session and report it into the Chief room; None if none runs."""
    with store.transaction() as conn:
        session = _stored(conn)
        conn.execute("DELETE FROM app_state WHERE key = ?", (FOCUS_KEY,))
    if session is None:
        return None
    # A timed session is reported as lasting its planned length at most.
    if session.minutes is not None:
        now = min(now, session.started_at + session.minutes * 60)
    return _report(store, session, now)


def update_focus(store, **changes: Any) -> None:
    """Merge ``changes`` (e.g. ``drifts``) into the stored session, if one runs."""
    with store.transaction() as conn:
        row = conn.execute(_SELECT, (FOCUS_KEY,)).fetchone()
        session = json.loads(row[0]) if row else None
        if isinstance(session, dict):
            session.update(changes)
            conn.execute("UPDATE app_state SET value = ? WHERE key = ?", (json.dumps(session), FOCUS_KEY))


def focus_status_line(session: dict | FocusSession, now: float, drift: str = "") -> str:
    """``◎ Focus: <commitment> · 23m left`` (see :func:`focus_status_text`)."""
    if isinstance(session, dict):
        session = FocusSession.from_dict(session)
    return focus_status_text(session, now, drift)


# --------------------------------------------------------------------- settings


def parse_settings(mode: object, cadence: object) -> tuple[str, int]:
    """Settings typed by a person: ValueError with a message they can act on.

    Stricter than the config's "non-positive → default": in a form, a typo should
    be refused, not silently replaced.
    """
    mode = parse_mode(mode)
    text = str(cadence).strip()
    try:
        secs = int(text)
    except ValueError:
        raise ValueError(f"cadence must be a whole number of seconds, got {text!r}") from None
    if secs <= 0:
        raise ValueError(f"cadence must be at least 1 second, got {secs}")
    return mode, secs


def load_settings(store, mode: str, cadence_secs: int) -> tuple[str, int, str]:
    """The live settings: the store's, where it has valid ones, else the given config.

    Returns ``(mode, cadence, problem)``; ``problem`` names a stored value that was
    ignored (another process wrote something unusable), else "".
    """
    stored_mode, stored_cadence, problem = stored_settings(store)
    return stored_mode or mode, stored_cadence or cadence_secs, problem


def save_settings(store, mode: str, cadence_secs: int) -> None:
    """Persist live settings, so they survive a restart and reach other processes."""
    store.set_state(SETTINGS_MODE_KEY, mode)
    store.set_state(SETTINGS_CADENCE_KEY, cadence_secs)


def stored_settings(store) -> tuple[str | None, int | None, str]:
    """The live settings F2 stored, each None when unset or unusable, and the problem."""
    problems = []
    mode = store.get_state(SETTINGS_MODE_KEY)
    if mode is not None:
        try:
            mode = parse_mode(mode)
        except ValueError as exc:
            problems.append(f"{SETTINGS_MODE_KEY}: {exc}")
            mode = None
    cadence = store.get_state(SETTINGS_CADENCE_KEY)
    if cadence is not None and not (isinstance(cadence, int) and not isinstance(cadence, bool) and cadence > 0):
        problems.append(f"{SETTINGS_CADENCE_KEY}: {cadence!r} is not a positive whole number")
        cadence = None
    return mode, cadence, "; ".join(problems)


def forget_settings(store) -> None:
    """Back to the file's values: the live settings are forgotten (the environment still wins)."""
    with store.transaction() as conn:
        conn.execute("DELETE FROM app_state WHERE key IN (?, ?)", (SETTINGS_MODE_KEY, SETTINGS_CADENCE_KEY))
