"""A reply drawn in place while it streams: the part of the room's log (RoomLog) that grows one row.

The worker appends to a :class:`StreamBuffer`; ten times a second (or at once after a
pause) the log drains it, renders only the reply's unsettled tail (keeltui/panes/chief/
room_stream.py), and refreshes only the lines that changed. A long piece of code is
rendered a slice at a time with the loop let through, so Escape is never held behind it.
At the end the stored row is drawn from the lines the stream rendered (a long reply is
not rendered again whole on the UI thread); a reply whose code block streamed in pieces
is rendered whole once more on a thread, for the colours a piece's edge cut.

A mixin of RoomLog, kept apart for its one job; it reads the log's window and drawing
state as RoomLog's own methods do.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style

from keeltui.chief.context import Row
from keeltui.chief.row_cache import Line
from keeltui.chief.streaming import StreamBuffer
from keeltui.chief.thinking import thinking_block
from keeltui.panes.chief.room_stream import LiveReply, StreamLines, finished_lines, stream_lines
from keeltui.panes.chief.row_render import block_lines, boxed, inner_width, row_lines, with_clock
from keeltui.panes.chief.whole_render import render_whole
from keeltui.panes.common.turn import speaker_header

if TYPE_CHECKING:
    from textual.message import Message
    from textual.scroll_view import ScrollView

    from keeltui.chief.room_window import RoomWindow
    from keeltui.panes.chief.room_log import RoomLog
    from keeltui.chief.row_cache import RowCache
    from keeltui.panes.chief.row_render import RowLook, RowShape

    class _Log(ScrollView):
        """What the mixin reads of RoomLog (its own state and methods)."""

        window: RoomWindow[Row]
        cache: RowCache
        lines_rendered: int
        _stream: LiveReply | None
        _width: int
        _restyled: int
        _plain: bool
        _thinking_open: set[int]
        Grew: type[Message]
        RenderedWhole: type[RoomLog.RenderedWhole]

        def look(self) -> RowLook: ...
        def update_rows(self, rows: list[Row]) -> None: ...
        def is_folded(self, row: Row) -> bool: ...
        def _anchor(self) -> tuple[int, int] | None: ...
        def _relayout(self, anchor: tuple[int, int] | None) -> None: ...
        def _row_height(self, index: int) -> int: ...
        def _estimate(self, row: Row) -> int: ...
        def _speaker(self, row: Row) -> str: ...
        def _shape(self, row: Row) -> RowShape: ...
        def _cache_key(self, row: Row) -> tuple: ...
        def _thinking_of(self, row: Row) -> tuple[str, float | None, bool]: ...
else:
    _Log = object

WHOLE_RENDER_AFTER = 0.25
"""Seconds between a reply's end (or stop) and its whole render on a thread, when its code
block streamed in pieces: the thread holds the interpreter a slice at a time, and started at
once it held back the frames that show the end (the stopped row, the status line, the
composer free again): Escape's stop came 5-30 ms later in the bench."""
FLUSH_SECS = 0.1
"""Ten redraws a second while a reply streams: smooth to the eye, light on an SSH link."""


class StreamingReply(_Log):
    """RoomLog's streaming reply (see the module's docstring)."""


    def _stream_line(self, row: Row, stream: LiveReply, line: int) -> Line | None:
        head = stream.head or self._stream_head(row, stream)
        if line < len(head):
            return head[line]
        body = stream.lines.settled, stream.lines.tail
        line -= len(head)
        if line < len(body[0]):
            return body[0][line]
        line -= len(body[0])
        if line < len(body[1]):
            return body[1][line]
        return None

    def _stream_head(self, row: Row, stream: LiveReply) -> list[Line]:
        """The header and the thinking above a streaming reply's text, rebuilt when the
        thinking grew, its seconds ticked, it ended, or the owner (un)folded it."""
        text, secs, live = self._thinking_of(row)
        unfolded = row.id in self._thinking_open
        key = (self._width, len(text), round(secs or 0) if live else secs, live, unfolded, self._restyled)
        if key != stream.head_key or not stream.head:
            stream.head_key = key
            cells = inner_width(row, self._width or 80)
            parts = [with_clock(speaker_header(self._speaker(row), "streaming"), row)]
            block = thinking_block(text, secs, live=live, unfolded=unfolded)
            if block is not None:
                parts.append(block)
            stream.head = boxed(self.app.console, row, self.look(), parts, cells, Style())
        return stream.head

    def _stream_rows(self, stream: LiveReply) -> int:
        """The box's body rows: exactly its text. No rows are held to grow into: when a
        short reply ended they went, and every line above moved down under the reader.
        One line before the first words: they land in it, and the room stays put."""
        return max(1, len(stream.lines.settled) + len(stream.lines.tail))

    def _stream_lines(self, row: Row, text: str) -> tuple[StreamLines, tuple]:
        """The reply's lines for ``text`` at the log's width and theme (and what they were drawn for)."""
        lines = stream_lines(row, self._width or 80, self.look(), self._block_lines, self._count_rendered)
        lines.update(text)
        return lines, (self._width, self._restyled)

    def _block_lines(self, text: str, cells: int) -> list[list[Segment]]:
        """One block of a reply's body, ``cells`` wide: the stored row is drawn by the same."""
        return block_lines(self.app.console, text, cells, self.look())

    def _count_rendered(self, lines: int) -> None:
        self.lines_rendered += lines

    def _stream_fresh(self, stream: LiveReply) -> bool:
        """Render the reply's lines again if the width or the theme changed; whether they did."""
        if stream.drawn_for == (self._width, self._restyled):
            return False
        index = self.window.index_of(stream.row_id)
        if index is not None:
            stream.lines, stream.drawn_for = self._stream_lines(self.window.rows[index], stream.text)
        return True

    @property
    def streaming_row_id(self) -> int | None:
        return self._stream.row_id if self._stream is not None else None

    def begin_stream(self, row: Row, buffer: StreamBuffer) -> None:
        """Draw the reply ``row`` from what the worker puts in ``buffer``."""
        if self.window.index_of(row.id) is None:
            if not self.window.at_latest:
                return  # the owner paged far back: the reply is there when they come back
            self.update_rows([row])
        self._end_timer()
        lines, drawn_for = self._stream_lines(row, row.content)
        self._stream = stream = LiveReply(row.id, row.content, buffer, lines, drawn_for)
        index = self.window.index_of(row.id)
        anchor = self._anchor()
        if index is not None:
            self.window.update(index, row)
            self.window.set_height(index, self._row_height(index))
        self._relayout(anchor)
        stream.timer = self.set_interval(FLUSH_SECS, self._flush)
        loop = asyncio.get_running_loop()
        # The worker may append from another thread: the wake-up goes through the loop.
        buffer.set_waker(lambda: loop.call_soon_threadsafe(self._wake))
        self.call_after_refresh(self._wake)
        self.refresh()

    def _wake(self) -> None:
        """A piece landed after a pause: draw it now rather than at the next tick."""
        stream = self._stream
        if stream is not None and stream.timer is not None and time.monotonic() - stream.drawn_at >= FLUSH_SECS:
            stream.woken = asyncio.ensure_future(self._flush())
            stream.timer.reset()

    async def _flush(self) -> None:
        stream = self._stream
        if stream is None or stream.flushing:
            return
        stream.flushing = True
        try:
            await self._flush_stream(stream)
        finally:
            stream.flushing = False

    async def _flush_stream(self, stream: LiveReply) -> None:
        """Draw what the worker appended. A long piece is rendered a piece of code at a time,
        with the loop let through between them: a key typed meanwhile (Escape) is not held
        behind a burst of lines."""
        if stream.buffer.thinking.text and self._width > 0:
            self._flush_thinking(stream)
        restyled = self._width > 0 and self._stream_fresh(stream)
        before = stream.lines.settled_count, list(stream.lines.tail)
        stream.pending += stream.buffer.drain()
        if not stream.pending:
            if restyled:
                self.refresh()
            return
        steps = stream.lines.steps(stream.text + stream.pending)
        for _ in steps:
            await asyncio.sleep(0)
            if self._stream is not stream:  # ended meanwhile: its end drew the rest
                steps.close()
                return
        stream.text, stream.pending = stream.text + stream.pending, ""
        stream.drawn_at = time.monotonic()
        self.post_message(self.Grew())
        index = self.window.index_of(stream.row_id)
        if index is None or self._width <= 0:
            return
        old_height = self.window.heights[index]
        height = self._row_height(index)
        if restyled:  # every line of it drawn anew (a new width or theme)
            anchor = self._anchor()
            self.window.set_height(index, height)
            self._relayout(anchor)
            self.refresh()
            return
        if height != old_height:
            self._grow(index, height, stream, before)
            return
        self._refresh_changed(index, stream, before)

    def _grow(self, index: int, height: int, stream: LiveReply, before: tuple[int, list[Line]]) -> None:
        """The streaming box took more lines. If the view did not scroll (the room still
        fits, or the owner reads above), only the new text and what lies below it change."""
        anchor = self._anchor()
        y = round(self.scroll_y)
        self.window.set_height(index, height)
        self._relayout(anchor)
        if round(self.scroll_y) != y:
            self.refresh()
            return
        self._refresh_changed(index, stream, before)
        below = self.window.top(index) + height - 1
        self.refresh_lines(below, max(1, self.window.total - below))

    def _refresh_changed(self, index: int, stream: LiveReply, before: tuple[int, list[Line]]) -> None:
        """Refresh only the lines of the body that changed (the new words' lines)."""
        settled_before, tail_before = before
        old = tail_before
        first_line = self.window.top(index) + 1 + len(stream.head)  # the gap, the header and the thinking
        start = min(settled_before, stream.lines.settled_count)
        new_lines = stream.lines.settled[start:] + stream.lines.tail
        old_lines = stream.lines.settled[start:settled_before] + old
        for offset in range(max(len(new_lines), len(old_lines))):
            if offset < len(new_lines) and offset < len(old_lines) and (
                    new_lines[offset] is old_lines[offset] or new_lines[offset] == old_lines[offset]):
                continue
            self.refresh_lines(first_line + start + offset)

    def _flush_thinking(self, stream: LiveReply) -> None:
        """The live thinking block: redrawn as it grows and its seconds tick."""
        index = self.window.index_of(stream.row_id)
        if index is None:
            return
        row = self.window.rows[index]
        key, rows = stream.head_key, len(stream.head)
        head = self._stream_head(row, stream)
        if stream.head_key == key:
            return
        self.post_message(self.Grew())
        if len(head) != rows:
            anchor = self._anchor()
            self.window.set_height(index, self._row_height(index))
            self._relayout(anchor)
            self.refresh()
            return
        top = self.window.top(index) + 1
        for line in range(len(head)):
            self.refresh_lines(top + line)

    def _end_timer(self) -> None:
        stream = self._stream
        if stream is not None:
            if stream.timer is not None:
                stream.timer.stop()
            stream.buffer.set_waker(None)

    def end_stream(self, row: Row) -> None:
        """The reply ended: drawn from the stored row from now on."""
        stream = self._stream
        self._end_timer()
        self._stream = None
        adopted = False
        if stream is not None and stream.row_id == row.id:
            adopted = self._adopt(stream, row)
        elif stream is not None:
            stream.buffer.drain()
        index = self.window.index_of(row.id)
        if index is None:
            self.update_rows([row])
            return
        anchor = self._anchor()
        if adopted:  # its lines are kept: its height is known (estimating it read all its text)
            self.window.update(index, row)
            self.window.set_height(index, self._row_height(index))
        else:
            self.window.update(index, row, self._estimate(row))
        self._relayout(anchor)
        self.refresh()

    def _adopt(self, stream: LiveReply, row: Row) -> bool:
        """The stored row is drawn from the lines its stream rendered, when they show its text
        (a long reply is not rendered again whole at its end, nor when the owner stops it);
        whether it is."""
        stream.catch_up()
        if stream.text != row.content or self._plain or self._width <= 0 or self.is_folded(row):
            return False
        if stream.drawn_for != (self._width, self._restyled):
            return False  # drawn for another width or theme: the row is rendered anew
        # Kept as they were streamed (each line boxed, the kept form, when it was rendered).
        key = self._cache_key(row)
        finished = finished_lines(
            self.app.console, row, self._speaker(row), self._width, self.look(), self._shape(row), stream)
        self.cache.put_as_is(key, finished)  # not copied: the very lines the stream made
        if stream.lines.pieced:  # its pieces were coloured each on its own: rendered whole, off this thread
            args = row, self._speaker(row), self._width, self.look(), self._shape(row)
            self.set_timer(WHOLE_RENDER_AFTER, lambda: render_whole(
                lambda console: row_lines(*args, console), self.app.console, finished,
                lambda lines: self.post_message(self.RenderedWhole(key, row.id, lines))))
        return True

    def on_room_log_rendered_whole(self, message: RoomLog.RenderedWhole) -> None:
        """The row's lines as a whole render colours them; drawn if it still shows as it did."""
        message.stop()
        index = self.window.index_of(message.row_id)
        if index is not None and self._cache_key(self.window.rows[index]) != message.key:
            return  # changed since (edited, a new width or theme): drawn anew from the row
        # As they are, like the streamed lines they replace: packing a 5 000-line block here,
        # on the UI thread, held the keys 30-80 ms on a busy machine.
        self.cache.put_as_is(message.key, message.lines)
        if index is None:
            return  # paged away: its lines are in the cache for when it shows again
        anchor = self._anchor()
        height = self._row_height(index)
        if height != self.window.heights[index]:
            self.window.set_height(index, height)
            self._relayout(anchor)
        self.refresh()

    def stream_text(self) -> str | None:
        return self._stream.text if self._stream is not None else None
