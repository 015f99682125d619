"""The Chief's reply on its way: sent, streamed, stopped, asked again, settled.

The room owns one :class:`Replies`. What to do is decided in keeltui/chief/controls.py;
the turn itself is the ``ChiefTurns`` service's. The worker runs on the room and posts
messages; it never touches a widget.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from keeltui.chief import controls as chief_controls
from keeltui.chief.failure_words import BRAIN_GONE, reply_failure_kind
from keeltui.chief.streaming import StreamBuffer
from keeltui.panes.common.events import (
    BrainAnswered, ChiefFirstChunk, ChiefReplyFinished, ChiefReplyStarted, SendFailed, StatusMessage, StoreWritten,
)
from keeltui.panes.common.landed_signal import TurnLanded
from keeltui.panes.chief.room_controls import REPLY_IDLE, REPLY_STREAMING, REPLY_WAITING
from keeltui.values import StoreError

if TYPE_CHECKING:
    from keeltui.chief_view import ChiefRoom
    from keeltui.services.chief_turns import TurnResult

log = logging.getLogger("keeltui.chief")

STOPPED_LINE = "Reply stopped; F5 asks again."


class Replies:
    def __init__(self, room: ChiefRoom) -> None:
        self.room = room
        self._stop: asyncio.Event | None = None  # how to stop the reply on its way (not its state)
        self._unsaved: TurnResult | None = None
        """A reply shown but not written (disk full): stored by F5 (or the next turn) once it can be."""
        self._started_at = 0.0  # monotonic: how long the owner waited (the landed signal)

    def send(self, text: str) -> bool:
        """Store the owner's ``text`` and ask for the reply; False (said) when it could not be stored."""
        room = self.room
        try:
            user_id = room.edit.resend(text) if room.edit.open else None
            if user_id is None:
                user_id = room.turns.add_user_turn(text)  # write-ahead
        except StoreError as exc:
            room.post_message(SendFailed(str(exc)))
            return False
        room.post_message(SendFailed(None))
        self.start(user_id)
        return True

    def save_unsaved(self) -> bool:
        """Store the reply the screen holds but the disk refused; False (said on the status
        line) while it still cannot be written."""
        if self._unsaved is None:
            return True
        try:
            self.room.turns.save_unsaved(self._unsaved)
        except StoreError as exc:
            self.room.post_message(StatusMessage(f"the reply on screen is still not saved: {exc}"))
            return False
        self._unsaved = None
        return True

    def start(self, user_id: int) -> None:
        room = self.room
        self.save_unsaved()  # the new turn is stored, so the disk has room again
        room.refresh_from_store()
        # About the stopped reply: a new turn makes it untrue.
        room.post_message(StatusMessage("", replaces=STOPPED_LINE))
        room.reply_phase = REPLY_WAITING
        room.retry_ready = False
        self._started_at = time.monotonic()
        self._stop = asyncio.Event()
        room.run_worker(self._reply(user_id, self._stop), name="chief-reply", group="chief", exit_on_error=False)

    async def _reply(self, user_id: int, stop: asyncio.Event) -> None:
        room, turns = self.room, self.room.turns
        buffer = StreamBuffer()
        first: list[bool] = []
        started: list = []
        shown: list[str] = []

        def on_start(reply_id: int) -> None:
            started.append(room.rows.message(reply_id))
            room.post_message(ChiefReplyStarted(started[0], buffer))

        def first_chunk() -> None:
            if not first:
                first.append(True)
                room.post_message(ChiefFirstChunk())

        def on_delta(piece: str) -> None:
            buffer.thinking.end()  # the answer began: the thinking's time stops
            shown.append(piece)
            buffer.append(piece)
            first_chunk()

        def on_unsaved(line: str) -> None:
            room.post_message(StatusMessage(f"the reply is not being saved: {line}"))

        def on_thinking(piece: str) -> None:
            buffer.thinking.append(piece)  # drawn by the reply's widget on its timer
            first_chunk()

        try:
            result = await turns.reply(user_id, on_delta, on_start, stop=stop, on_unsaved=on_unsaved, on_thinking=on_thinking)
        except StoreError as exc:
            # The reply could not be stored (the disk filled mid-stream): what was shown
            # stays, marked cut off; the row settles as cut off at the next start.
            row = replace(started[0], content="".join(shown), status="partial") if started else None
            room.post_message(ChiefReplyFinished(row, None))  # the composer is free again either way
            room.post_message(StatusMessage(str(exc)))
            return
        if result.unsaved is not None:
            # The row on disk is behind the screen: the screen shows all that came, as not saved.
            self._unsaved = result
            on_screen = result.as_shown(started[0])
            room.post_message(ChiefReplyFinished(on_screen, result.error))
            room.post_message(StatusMessage(result.unsaved["message"]))
            return
        room.post_message(ChiefReplyFinished(room.rows.message(result.reply_id), result.error))
        if result.needs_compaction and await turns.compact() is not None:
            room.post_message(StoreWritten())

    def started(self, message: ChiefReplyStarted) -> None:
        self.room.cursor = max(self.room.cursor, message.row.id)
        self.room.begin_stream(message.row, message.buffer)

    def first_chunk(self) -> None:
        if self.room.reply_phase == REPLY_WAITING:
            self.room.reply_phase = REPLY_STREAMING

    def finished(self, message: ChiefReplyFinished) -> None:
        room, row = self.room, message.row
        self.settled(row)
        if row is not None and row.status == chief_controls.STOPPED:
            # Straight to the app, which shows it: bubbled up through the room, the container
            # and the screen, it reached the status line a frame after the stopped row.
            room.app.post_message(StatusMessage(STOPPED_LINE))
        if row is not None:
            room.end_stream(row)
            if row.status != chief_controls.STOPPED:  # stopped: the owner was there
                room.post_message(TurnLanded("the Chief's reply", time.monotonic() - self._started_at))
        room.refresh_from_store()
        if message.error:
            room.post_message(StatusMessage(message.error))
            if reply_failure_kind(row) in BRAIN_GONE:
                room.post_message(BrainAnswered(message.error))
        else:
            room.post_message(BrainAnswered(None))

    def settled(self, row) -> None:
        self._stop = None
        self.room.reply_phase = REPLY_IDLE
        self.room.retry_ready = row is None or row.status in chief_controls.UNFINISHED

    def failed(self, name: str, error: BaseException | None) -> None:
        """The reply's worker raised: said in one line, and the room is free again."""
        log.error("worker %s failed: %r", name, error)
        self.room.post_message(StatusMessage(str(error) if isinstance(error, StoreError)
                                             else f"{name} failed: {type(error).__name__}: {error}"))
        self.settled(None)

    def stop(self) -> None:
        if self.room.reply_phase != REPLY_IDLE and self._stop is not None:
            self._stop.set()

    def again(self, *, only_unfinished: bool) -> None:
        """F5 (``only_unfinished``) or Ctrl+R: ask for the last answer again."""
        room = self.room
        if room.quiet or room.reply_phase != REPLY_IDLE:
            room.app.bell()
            return
        if not self.save_unsaved():
            return
        turns = room.turns
        _, old_reply = turns.last_exchange()
        user_id = turns.prepare_again(only_unfinished=only_unfinished)
        if user_id is None:
            room.post_message(StatusMessage(
                "Nothing to retry: the last reply finished." if only_unfinished else "No reply to regenerate yet."))
            return
        if old_reply is not None:
            room.redraw_rows([room.rows.message(old_reply.id)])
        room.post_message(StatusMessage(""))
        self.start(user_id)
