"""A Chief turn end to end: write-ahead, stream, persist, compact.

Textual-free so that the app's worker and the ``keeltui chat`` doorway run the same
code. The user's turn is stored before the brain is called; the reply row is stored
when the stream starts and rewritten as it grows, so a crash or a dead endpoint loses
nothing the user typed and at most a second of the reply.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field, replace
from collections.abc import Callable

from keeltui.brain import (
    Brain, BrainError, BrainHTTPError, StreamDone, TextDelta, ThinkingDelta, Usage, estimate_tokens, is_context_overflow,
)
from keeltui.chief import context as chief_context
from keeltui.chief import controls
from keeltui.chief import failure_words as fw
from keeltui.chief.thinking import LiveThinking
from keeltui.chief.turn_kinds import NOTICE, SUMMARY, SUMMARY_SOURCE
from keeltui.config import Config
from keeltui.store import Row, Store, StoreWriteError
import contextlib

PERSIST_EVERY_SECS = 0.5
CONTEXT_ROWS = 400
"""The newest rows a turn reads for its context (after the latest summary): the window
bounds the context further; older rows reach the model through the summary."""
RETRY_SHARE = 0.5
"""After the endpoint said "context length exceeded", the retry (and the summary that
makes room for it) fills at most this share of what was refused: the server's real
window is smaller than ``brain.context_window`` says."""
MIN_WINDOW = 256
FOLD_STEPS = 6
"""At most this many summary calls for one fold (each step folds what fits one call)."""
FOLD_PAGE = 500
"""Rows a fold step reads, oldest first: a step folds what fits one call of them, so a
long backlog is folded a page at a time and never held whole."""


@dataclass(frozen=True)
class TurnResult:
    reply_id: int
    text: str
    usage: Usage | None
    error: str | None = None
    stopped: bool = False
    """The owner stopped the reply; its text so far is kept (status ``stopped``)."""
    needs_compaction: bool = False
    """The context reached ``chief.compact_at``: call :meth:`ChiefTurns.compact` next
    (after the reply is on screen, so the summary call never delays it)."""
    unsaved: dict | None = None
    """The reply could not be written (disk full): its error part. The text above is
    the whole of what was shown; :meth:`ChiefTurns.save_unsaved` stores it once it can."""
    thinking: dict = field(default_factory=dict)
    """An unsaved reply's thinking fields (``thinking``, ``thought_secs``): shown with it,
    stored with it by :meth:`ChiefTurns.save_unsaved`."""

    failure: tuple[str, list[dict]] | None = None
    """A failed reply's status and error parts, as stored: what :meth:`words` says."""

    def words(self, again: str = fw.APP_RETRY) -> str:
        """Why the reply failed, naming ``again`` as what asks again (F5 in the app)."""
        return fw.failure_words(*self.failure, again) if self.failure else (self.error or "")

    def as_shown(self, row: Row) -> Row:
        """``row`` (the reply as it started) as the screen holds an unsaved reply: all its
        text and thinking, cut off by the failed write."""
        return replace(row, content=self.text, status="partial", parts=[self.unsaved] if self.unsaved else [],
                       **self.thinking)


class ChiefTurns:
    def __init__(self, store: Store, brain: Brain, config: Config, clock=time.monotonic) -> None:
        self.store = store
        self.brain = brain
        self.config = config
        self._clock = clock
        self._learned_window: int | None = None
        """The window the endpoint really has, learned from a "context length exceeded":
        later turns fit it at once instead of each paying one refused call first."""

    def _window(self) -> int:
        configured = self.brain.window_for("chief")
        return min(configured, self._learned_window) if self._learned_window else configured

    @property
    def room_id(self) -> int:
        return self.store.chief_id()

    def add_user_turn(self, text: str) -> int:
        return self.store.add_message(self.room_id, "user", text)

    def context_rows(self) -> tuple[list[Row], Row | None]:
        """The newest rows the context can hold (after the latest summary, if any) and
        that summary. At most :data:`CONTEXT_ROWS` rows: after a long quiet stretch of
        reports, a turn must not hold the whole backlog (the fold reads it in pages)."""
        summary = self.store.latest_summary(self.room_id)
        covers = chief_context.summary_covers(summary) if summary is not None else 0
        return self.store.tail(self.room_id, CONTEXT_ROWS, after_id=covers), summary

    def _backlog(self, rows: list[Row], summary: Row | None) -> bool:
        """Rows after the summary that the context cannot hold: they must be folded
        (a context that simply left them out would drop them unsummarised)."""
        return summary is not None and len(rows) >= CONTEXT_ROWS

    def context(self, window_tokens: int | None = None) -> list[dict]:
        """The messages for the next call, bounded by the chief model's window."""
        rows, summary = self.context_rows()
        return chief_context.build_context(
            self.config.chief.system_prompt, rows, summary, window_tokens or self._window(),
        ).messages

    async def _compacted_before_call(self, messages: list[dict]) -> list[dict]:
        """The context, compacted first if it would reach ``chief.compact_at`` (not only after a turn)."""
        window = self._window()
        # Measured before the window bounds it: a bounded context has already dropped its
        # oldest rows, and rows must reach a summary before they leave the context.
        rows, summary = self.context_rows()
        whole = chief_context.build_context(self.config.chief.system_prompt, rows, summary).messages
        needed = self._backlog(rows, summary) or chief_context.needs_compaction(
            chief_context.estimate_fraction(whole, window), self.config.chief.compact_at)
        if needed and await self.compact() is not None:
            messages = self.context()
        return messages

    async def reply(
        self,
        user_id: int,
        on_delta: Callable[[str], None] | None = None,
        on_start: Callable[[int], None] | None = None,
        stop: asyncio.Event | None = None,
        on_unsaved: Callable[[str], None] | None = None,
        on_thinking: Callable[[str], None] | None = None,
    ) -> TurnResult:
        """Stream the companion's reply to ``user_id`` into a new row.

        Never raises for brain failures: the partial reply is kept (status
        ``partial``) and the error is returned in one line. Setting ``stop`` ends the
        stream at once (even before its first chunk); the text so far is kept as
        ``stopped``. A reasoning model's thinking goes to ``on_thinking`` and is stored
        with the row, apart from its text (never sent back as context).

        ``on_unsaved`` hears, once, that the reply can no longer be written (disk full)
        while it goes on streaming to the screen.
        """
        if stop is not None:
            return await self._reply_until_stopped(user_id, on_delta, on_start, stop, on_unsaved, on_thinking)
        return await self._reply(user_id, on_delta, on_start, None, on_unsaved, on_thinking)

    async def _reply(self, user_id, on_delta, on_start, stop: asyncio.Event | None, on_unsaved=None,
                     on_thinking=None) -> TurnResult:
        """The reply itself; ``stop`` only says whether a cancellation is the owner's stop."""
        messages = self.context()
        messages = await self._compacted_before_call(messages)
        reply_id = self.store.add_message(
            self.room_id, "assistant", "", status="streaming", reply_to=user_id
        )
        if on_start is not None:
            on_start(reply_id)
        pieces: list[str] = []
        thought = LiveThinking(self._clock)
        last_persist = self._clock()
        usage: Usage | None = None
        retried = False
        error: BrainError | None = None
        folded: int | None = None
        unsaved_said = False
        try:
            while True:
                try:
                    async for event in self.brain.stream("chief", messages):
                        if isinstance(event, (TextDelta, ThinkingDelta)):
                            if isinstance(event, ThinkingDelta):
                                thought.append(event.text)
                                if on_thinking is not None:
                                    on_thinking(event.text)
                            else:
                                thought.end()
                                pieces.append(event.text)
                                if on_delta is not None:
                                    on_delta(event.text)
                            now = self._clock()
                            if now - last_persist >= PERSIST_EVERY_SECS:
                                last_persist = now
                                try:
                                    self.store.update_message(reply_id, content="".join(pieces), **_thought_fields(thought))
                                except StoreWriteError as exc:
                                    # The disk is full: the text goes on to the screen, which says so.
                                    if on_unsaved is not None and not unsaved_said:
                                        unsaved_said = True
                                        on_unsaved(str(exc))
                        elif isinstance(event, StreamDone):
                            usage = event.completion.usage
                    break
                except BrainError as exc:
                    if retried or pieces or not is_context_overflow(exc):
                        error = exc
                        break
                    # The endpoint's window is smaller than the prompt: fold older turns into a
                    # summary (keeping only the turn being answered) and try once more, tighter.
                    # Nothing leaves the context unless a summary holds it: when the fold
                    # fails, the turn fails saying so rather than dropping rows silently.
                    retried = True
                    tight = max(MIN_WINDOW, int(estimate_tokens(messages) * RETRY_SHARE))
                    window = min(self._window(), tight)
                    folded = await self._fold_for_retry(window)
                    if folded is None:
                        error = exc
                        break
                    self._learned_window = window
                    messages = self.context(window)
        except asyncio.CancelledError:
            # Never leave the row "streaming" for good, and settle it in one write: the
            # owner's stop keeps the text as stopped; anything else (the app closing on
            # a signal) marks it cut off with everything received.
            text = "".join(pieces)
            thought.end()
            if stop is not None and stop.is_set():
                self.store.update_message(reply_id, content=text, status=controls.STOPPED, **_thought_fields(thought))
            else:
                self._settle_cut_off(reply_id, text, "keeltui closed before the reply was complete")
            raise
        thought.end()
        thinking = _thought_fields(thought)
        text = "".join(pieces)
        if error is not None:
            part = await self._failure_part(error, bool(text), folded)
            status = "partial" if text else "error"
            if (unsaved := self._write_or_unsaved(reply_id, text, status, [part], thinking=thinking)) is not None:
                return unsaved
            return TurnResult(reply_id, text, None, error=fw.failure_words(status, [part]), failure=(status, [part]))
        if not text.strip():
            # A 200 with no usable stream (a proxy's HTML page, an empty answer) is a failure too.
            problem = f"the brain at {self.brain.base_url} sent an empty or unreadable reply"
            part = fw.error_part(fw.UNREADABLE, problem, url=self.brain.base_url)
            if (unsaved := self._write_or_unsaved(reply_id, "", "error", [part], thinking=thinking)) is not None:
                return unsaved
            return TurnResult(reply_id, "", None, error=fw.failure_words("error", [part]), failure=("error", [part]))
        if (unsaved := self._write_or_unsaved(reply_id, text, "complete", None, usage, thinking=thinking)) is not None:
            return unsaved
        compact = usage is not None and chief_context.needs_compaction(usage.fraction, self.config.chief.compact_at)
        return TurnResult(reply_id, text, usage, needs_compaction=compact)

    def _write_or_unsaved(self, reply_id: int, text: str, status: str, parts: list | None,
                          usage: Usage | None = None, *, thinking: dict | None = None) -> TurnResult | None:
        """Settle the reply row (``thinking``: its thinking's fields); when the write fails
        (disk full), a result that says the text is on screen only (the row stays as last
        written until :meth:`save_unsaved`)."""
        try:
            self.store.update_message(reply_id, content=text, status=status, parts=parts,
                                      usage=usage.as_dict() if usage else None, **(thinking or {}))
            return None
        except StoreWriteError as exc:
            part = fw.error_part(fw.UNSAVED, str(exc), detail=_why_unsaved(str(exc)))
            return TurnResult(reply_id, text, None, error=fw.failure_words("partial", [part]), unsaved=part,
                              thinking=thinking or {}, failure=("partial", [part]))

    def save_unsaved(self, result: TurnResult) -> None:
        """Store a reply that was shown but not saved, as cut off by the failed write
        (so F5 may ask again); StoreWriteError while the disk is still full."""
        assert result.unsaved is not None
        self.store.update_message(result.reply_id, content=result.text, status="partial", parts=[result.unsaved],
                                  **result.thinking)

    async def _failure_part(self, error: BrainError, had_text: bool, folded: int | None) -> dict:
        """The error part stored with a failed reply: its kind and the facts its words need."""
        status = error.status if isinstance(error, BrainHTTPError) else None
        detail = error.detail if isinstance(error, BrainHTTPError) else ""
        kind = fw.classify(type(error).__name__, status, detail, context_overflow=is_context_overflow(error),
                           had_text=had_text)
        facts: dict = {"url": self.brain.base_url, "status": status}
        if kind == fw.BAD_KEY:
            facts["variable"] = self.config.brain.api_key_env
        elif kind == fw.UNKNOWN_MODEL:
            facts["model"] = self.brain.model_for("chief")
            facts["models"] = await self._models_offered()
        elif kind == fw.CONTEXT_TOO_LONG:
            facts["folded"] = -1 if folded is None else folded  # -1: there was more, but no summary of it
        elif kind == fw.RATE_LIMITED and isinstance(error, BrainHTTPError):
            facts["retry_after"] = error.retry_after
        elif kind == fw.STALLED:
            facts["timeout_secs"] = self.config.brain.timeout_secs
        elif kind == fw.UNREADABLE:
            facts["detail"] = str(error)[:200]  # the brain's own line: what it could not read
        elif kind == fw.SERVER_ERROR and isinstance(error, BrainHTTPError):
            facts["detail"] = error.said[:160]
        return fw.error_part(kind, str(error), **facts)

    async def _models_offered(self) -> list[str]:
        """What ``/v1/models`` lists, for the words of an unknown model ([] if it cannot say)."""
        try:
            return (await asyncio.wait_for(self.brain.list_models(), timeout=5))[:20]
        except (TimeoutError, BrainError):
            return []

    async def _fold_for_retry(self, window: int) -> int | None:
        """Fold all but the turn being answered into a summary; how many rows it took in.

        0 when there was nothing older to fold (the turn alone is cut to fit, with a marker
        saying so); None when there was, but no summary could be written.
        """
        rows, previous = self.context_rows()
        covers = chief_context.summary_covers(previous) if previous else 0
        cut = chief_context.compaction_cut(rows, covers or None, 1)
        if cut is None:
            return 0
        newest = await self.compact(keep_recent=1, window_tokens=window)
        if newest is None:
            return None
        summary = self.store.message(newest)
        reached = chief_context.summary_covers(summary) if summary is not None else cut
        if reached < cut:
            return None  # not all of it could be folded: nothing is dropped unsummarised
        # What the model saw of them: turns and reports (not the app's own notices).
        return sum(1 for row in rows if covers < row.id <= cut and row.turn_kind not in (SUMMARY, NOTICE)
                   and row.status != "superseded")

    def _settle_cut_off(self, reply_id: int, text: str, why: str) -> None:
        with contextlib.suppress(Exception):  # already leaving; what was persisted while streaming stays
            self.store.update_message(
                reply_id, content=text, status="partial" if text else "error",
                parts=[fw.error_part(fw.CLOSED, why)],
            )

    async def compact(self, keep_recent: int | None = None, window_tokens: int | None = None) -> int | None:
        """Fold older turns into a summary row; the latest turns stay verbatim.

        When the rows to fold do not fit one summary call, they are folded in steps
        (each summary takes in the one before it): a request cut to fit would leave its
        oldest rows out of every summary. Returns the newest summary's id.
        """
        keep = keep_recent if keep_recent is not None else self.config.chief.keep_recent
        window = window_tokens or self._window()
        newest: int | None = None
        for _ in range(FOLD_STEPS):
            recent, previous = self.context_rows()
            covers = chief_context.summary_covers(previous) if previous else None
            # The oldest rows not yet folded, a page of them (without a summary, the fold
            # starts where the context does), beside the newest, which say what stays verbatim.
            start = covers if covers is not None else (recent[0].id - 1 if recent else 0)
            page = self.store.after(self.room_id, start, FOLD_PAGE)
            rows = sorted({row.id: row for row in (*page, *recent)}.values(), key=lambda row: row.id)
            cut = chief_context.compaction_cut(rows, covers, keep)
            if cut is None or not page:
                return newest
            cut = min(cut, page[-1].id)  # a step folds rows of the page only: none between unread
            step = chief_context.fitting_cut(page, previous, cut, window)
            request = chief_context.summary_request(page, previous, step, window)
            try:
                completion = await self.brain.complete("chief", request)
            except BrainError:
                return newest  # the next turn tries again; nothing is lost
            text = completion.text.strip()
            if not text:
                return newest
            newest = self.store.add_message(
                self.room_id, "assistant", text, source=SUMMARY_SOURCE, turn_kind=SUMMARY,
                parts=chief_context.summary_parts(step),
            )
            if step == cut:
                return newest
        return newest

    async def _reply_until_stopped(self, user_id, on_delta, on_start, stop: asyncio.Event, on_unsaved=None,
                                   on_thinking=None) -> TurnResult:
        reply_id: list[int] = []
        shown: list[str] = []

        def started(row_id: int) -> None:
            reply_id.append(row_id)
            if on_start is not None:
                on_start(row_id)

        def delta(piece: str) -> None:
            shown.append(piece)
            if on_delta is not None:
                on_delta(piece)

        streaming = asyncio.ensure_future(self._reply(user_id, delta, started, stop, on_unsaved, on_thinking))
        stopping = asyncio.ensure_future(stop.wait())
        await asyncio.wait({streaming, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if streaming.done():
            return streaming.result()
        streaming.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await streaming
        if not reply_id:
            # Stopped before the reply row existed: there is nothing to keep.
            return TurnResult(0, "", None, stopped=True)
        # The stream settled its row as stopped when it was cancelled (one write).
        return TurnResult(reply_id[0], "".join(shown), None, stopped=True)

    # -- the owner's controls: retry, regenerate, edit (decided in chief/controls.py) ----

    def last_exchange(self):
        """``(user row, reply row)`` of the newest turn (either may be None)."""
        return controls.last_exchange(self.store.tail(self.room_id, CONTEXT_ROWS))

    def supersede(self, *row_ids: int) -> None:
        """Keep rows as earlier versions: shown folded, never sent to the model again."""
        for row_id in row_ids:
            self.store.update_message(row_id, status=controls.SUPERSEDED)

    def prepare_again(self, *, only_unfinished: bool) -> int | None:
        """The user turn to answer again (retry or regenerate), its old answer kept folded.

        ``only_unfinished`` (retry): only when the last answer failed, was cut or
        stopped. None when there is nothing to do.
        """
        user, reply = self.last_exchange()
        allowed = controls.can_retry(user, reply) if only_unfinished else controls.can_regenerate(user, reply)
        if not allowed:
            return None
        if reply is not None:
            self.supersede(reply.id)
        return user.id

    def resend_edited(self, user_id: int, text: str) -> int | None:
        """The owner's edit of their last turn: the old turn and its answer kept folded.

        Returns the new user row's id; None when ``user_id`` is no longer the last turn.
        """
        user, reply = self.last_exchange()
        if user is None or user.id != user_id or not controls.can_edit(user, reply):
            return None
        self.supersede(user.id, *([reply.id] if reply is not None else []))
        return self.add_user_turn(text)


def _why_unsaved(line: str) -> str:
    """The short cause of a failed write, for the row's words (the whole line names the file)."""
    lowered = line.lower()
    if "full" in lowered or "no space" in lowered:
        return "the disk is full"
    if "read-only" in lowered or "readonly" in lowered:
        return "the database is read-only"
    return "the database could not be written"


def _thought_fields(thought: LiveThinking) -> dict:
    """What ``update_message`` stores of a reply's thinking (nothing for a model that did not think)."""
    text = thought.text
    return {"thinking": text, "thought_secs": thought.seconds()} if text else {}
