"""A Chief turn end to end: write-ahead, stream, persist, compact.

Textual-free so that the app's worker and the ``keeltui chat`` doorway run the same
code. The user's turn is stored before the brain is called; the reply row is stored
when the stream starts and rewritten as it grows, so a crash or a dead endpoint loses
nothing the user typed and at most a second of the reply.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Callable

from keeltui.brain import Brain, BrainError, StreamDone, TextDelta, ThinkingDelta, Usage, estimate_tokens, is_context_overflow
from keeltui.chief import context as chief_context
from keeltui.chief import controls
from keeltui.chief.thinking import LiveThinking
from keeltui.chief.turn_kinds import SUMMARY, SUMMARY_SOURCE
from keeltui.config import Config
from keeltui.store import Row, Store

PERSIST_EVERY_SECS = 0.5
CONTEXT_ROWS_WITHOUT_SUMMARY = 400
RETRY_SHARE = 0.5
"""After the endpoint said "context length exceeded", the retry (and the summary that
makes room for it) fills at most this share of what was refused: the server's real
window is smaller than ``brain.context_window`` says."""
MIN_WINDOW = 256


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


class ChiefTurns:
    def __init__(self, store: Store, brain: Brain, config: Config, clock=time.monotonic) -> None:
        self.store = store
        self.brain = brain
        self.config = config
        self._clock = clock

    @property
    def room_id(self) -> int:
        return self.store.chief_id()

    def add_user_turn(self, text: str) -> int:
        return self.store.add_message(self.room_id, "user", text)

    def context_rows(self) -> tuple[list[Row], Row | None]:
        summary = self.store.latest_summary(self.room_id)
        if summary is not None:
            rows = self.store.after(self.room_id, chief_context.summary_covers(summary))
        else:
            rows = self.store.tail(self.room_id, CONTEXT_ROWS_WITHOUT_SUMMARY)
        return rows, summary

    def context(self, window_tokens: int | None = None) -> list[dict]:
        """The messages for the next call, bounded by the chief model's window."""
        rows, summary = self.context_rows()
        return chief_context.build_context(
            self.config.chief.system_prompt, rows, summary, window_tokens or self.brain.window_for("chief"),
        ).messages

    async def _compacted_before_call(self, messages: list[dict]) -> list[dict]:
        """The context, compacted first if it would reach ``chief.compact_at`` (not only after a turn)."""
        window = self.brain.window_for("chief")
        if chief_context.needs_compaction(chief_context.estimate_fraction(messages, window),
                                          self.config.chief.compact_at):
            if await self.compact() is not None:
                messages = self.context()
        return messages

    async def reply(
        self,
        user_id: int,
        on_delta: Callable[[str], None] | None = None,
        on_start: Callable[[int], None] | None = None,
        stop: asyncio.Event | None = None,
        on_thinking: Callable[[str], None] | None = None,
    ) -> TurnResult:
        """Stream the companion's reply to ``user_id`` into a new row.

        Never raises for brain failures: the partial reply is kept (status
        ``partial``) and the error is returned in one line. Setting ``stop`` ends the
        stream at once (even before its first chunk); the text so far is kept as
        ``stopped``. A reasoning model's thinking goes to ``on_thinking`` and is stored
        with the row, apart from its text (never sent back as context).
        """
        if stop is not None:
            return await self._reply_until_stopped(user_id, on_delta, on_start, stop, on_thinking)
        return await self._reply(user_id, on_delta, on_start, None, on_thinking)

    async def _reply(self, user_id, on_delta, on_start, stop: asyncio.Event | None, on_thinking=None) -> TurnResult:
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
                                self.store.update_message(reply_id, content="".join(pieces), **_thought_fields(thought))
                                last_persist = now
                        elif isinstance(event, StreamDone):
                            usage = event.completion.usage
                    break
                except BrainError as exc:
                    if retried or pieces or not is_context_overflow(exc):
                        error = exc
                        break
                    # The endpoint's window is smaller than the prompt: fold older turns into a
                    # summary (keeping only the turn being answered) and try once more, tighter.
                    retried = True
                    tight = max(MIN_WINDOW, int(estimate_tokens(messages) * RETRY_SHARE))
                    window = min(self.brain.window_for("chief"), tight)
                    await self.compact(keep_recent=1, window_tokens=window)
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
                self._settle_cut_off(reply_id, text, "stopped before the reply was complete")
            raise
        thought.end()
        if error is not None:
            text = "".join(pieces)
            self.store.update_message(
                reply_id, content=text, status="partial" if text else "error",
                parts=[{"type": "error", "message": str(error)}], **_thought_fields(thought),
            )
            return TurnResult(reply_id, text, None, error=str(error))
        text = "".join(pieces)
        if not text.strip():
            # A 200 with no usable stream (a proxy's HTML page, an empty answer) is a failure too.
            problem = f"the brain at {self.brain.base_url} sent an empty or unreadable reply"
            self.store.update_message(reply_id, status="error", parts=[{"type": "error", "message": problem}],
                                      **_thought_fields(thought))
            return TurnResult(reply_id, "", None, error=problem)
        self.store.update_message(
            reply_id, content=text, status="complete", usage=usage.as_dict() if usage else None, **_thought_fields(thought)
        )
        compact = usage is not None and chief_context.needs_compaction(usage.fraction, self.config.chief.compact_at)
        return TurnResult(reply_id, text, usage, needs_compaction=compact)

    def _settle_cut_off(self, reply_id: int, text: str, why: str) -> None:
        try:
            self.store.update_message(
                reply_id, content=text, status="partial" if text else "error",
                parts=[{"type": "error", "message": why}],
            )
        except Exception:  # already leaving; what was persisted while streaming stays
            pass

    async def compact(self, keep_recent: int | None = None, window_tokens: int | None = None) -> int | None:
        """Fold older turns into a summary row; the latest turns stay verbatim."""
        rows, previous = self.context_rows()
        covers = chief_context.summary_covers(previous) if previous else None
        keep = keep_recent if keep_recent is not None else self.config.chief.keep_recent
        cut = chief_context.compaction_cut(rows, covers, keep)
        if cut is None:
            return None
        request = chief_context.summary_request(
            rows, previous, cut, window_tokens or self.brain.window_for("chief")
        )
        try:
            completion = await self.brain.complete("chief", request)
        except BrainError:
            return None  # the next turn tries again; nothing is lost
        text = completion.text.strip()
        if not text:
            return None
        return self.store.add_message(
            self.room_id, "assistant", text, source=SUMMARY_SOURCE, turn_kind=SUMMARY,
            parts=chief_context.summary_parts(cut),
        )

    async def _reply_until_stopped(self, user_id, on_delta, on_start, stop: asyncio.Event, on_thinking=None) -> TurnResult:
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

        streaming = asyncio.ensure_future(self._reply(user_id, delta, started, stop, on_thinking))
        stopping = asyncio.ensure_future(stop.wait())
        await asyncio.wait({streaming, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if streaming.done():
            return streaming.result()
        streaming.cancel()
        try:
            await streaming
        except asyncio.CancelledError:
            pass
        if not reply_id:
            # Stopped before the reply row existed: there is nothing to keep.
            return TurnResult(0, "", None, stopped=True)
        # The stream settled its row as stopped when it was cancelled (one write).
        return TurnResult(reply_id[0], "".join(shown), None, stopped=True)

    # -- the owner's controls: retry, regenerate, edit (decided in chief/controls.py) ----

    def last_exchange(self):
        """``(user row, reply row)`` of the newest turn (either may be None)."""
        return controls.last_exchange(self.store.tail(self.room_id, CONTEXT_ROWS_WITHOUT_SUMMARY))

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



def _thought_fields(thought: LiveThinking) -> dict:
    """What ``update_message`` stores of a reply's thinking (nothing for a model that did not think)."""
    text = thought.text
    return {"thinking": text, "thought_secs": thought.seconds()} if text else {}
