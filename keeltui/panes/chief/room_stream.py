"""A reply streaming into the room: its text so far and the lines it is drawn as.

The log (room_log.py) owns the view; this module owns what a streaming reply costs.
A flush renders only what changed: settled blocks once, and of the open block only its
newest lines (a long code block is rendered in pieces, once each); the text is read the
same way, only what came since the last flush (SettledSplit, FenceReader). When the reply
ends, the lines already rendered become the stored row's, so the end of a long reply
(or the owner's Escape) never re-renders all of it at once. Each line is made the form the
room's cache keeps (``box_line``) when it is rendered, not when the reply ends: at the end
of a 5 000-line block that made the Escape that stopped it wait some 60 ms.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Generator
from typing import Generic, TypeVar

from rich.console import Console
from rich.segment import Segment
from textual.timer import Timer

from keeltui.chief.context import Row
from keeltui.chief.row_cache import Line
from keeltui.chief.streaming import SettledSplit, StreamBuffer
from keeltui.panes.chief.row_render import RowLook, RowShape, blank_inner, box_line, boxed, inner_width, turn_head
from keeltui.text.textsafe import clean_text

FENCE_PIECE = 20
"""Complete lines of a code block rendered together, once: a long block streams at the
cost of its newest lines, not of all it holds so far. One render is what a key typed
meanwhile waits behind (~0.4 ms a line; 40 lines held keys ~20 ms); fewer lines a piece
would pay a render's fixed cost (~3 ms) more often and cut a multi-line string's colours
at more places."""

FENCES = ("```", "~~~")


FenceParts = tuple[list[str], str, list[str], list[str] | None]
L = TypeVar("L")
"""A drawn line: the room's are kept lines (``Line``), a test's may be strips."""


class FenceReader:
    """The first code block of a block that grows at its end (the tail of a streaming reply):
    while that code block is open, each call reads only the text that came since the last."""

    def __init__(self) -> None:
        self._block = ""
        self._parts: FenceParts | None = None

    def parts(self, block: str) -> FenceParts | None:
        """(the lines before the code block, its opening line, its code lines, the lines from
        its closing line on or None while it is open); None without one."""
        last = self._parts
        if last is not None and last[3] is None and last[2] and block.startswith(self._block):
            before, opener, code, _ = last
            more = block[len(self._block):].split("\n")
            # The last code line was still being written: what came first continues it.
            code = [*code[:-1], code[-1] + more[0], *more[1:]]
            parts: FenceParts | None = _closed(before, opener, code, len(last[2]) - 1)
        else:
            parts = _first_fence(block.split("\n"))
        self._block, self._parts = block, parts
        return parts


def _first_fence(lines: list[str]) -> FenceParts | None:
    for start, line in enumerate(lines):
        if line.lstrip().startswith(FENCES):
            return _closed(lines[:start], line, lines[start + 1:], 0)
    return None


def _closed(before: list[str], opener: str, code: list[str], start: int) -> FenceParts:
    """The parts, the closing line looked for from ``code[start]`` on."""
    mark = opener.lstrip()[:3]
    for end in range(start, len(code)):
        if code[end].strip().startswith(mark):
            return before, opener, code[:end], code[end:]
    return before, opener, code, None


def shows_text(block: str) -> bool:
    """Whether ``block`` draws anything. A block that starts with a code fence does (its
    opening line), which spares cleaning a long code block's text at every flush."""
    return block.lstrip().startswith(FENCES) or bool(clean_text(block).strip())


class StreamLines(Generic[L]):
    """A streaming reply's body lines: settled blocks rendered once, the tail each time.

    ``render(text)`` is handed a block's text and returns its inner lines; a flush costs
    the tail's rendering, not the whole reply's. A code block is the one tail that grows
    without bound: once it holds :data:`FENCE_PIECE` complete lines they are rendered as
    one piece, once (a code block rendered in pieces is the block rendered whole, less
    the padding between the pieces), so a flush renders only the lines that came since.
    The same holds once the block is closed and text follows it in the same block: the
    text after it is rendered on its own, below a blank line, as Markdown draws it.
    """

    def __init__(self, render: Callable[[str], list[L]], gap: L) -> None:
        self._render = render
        self._gap = gap
        """The blank line between two blocks."""
        self.settled: list[L] = []
        self._settled_blocks = 0
        self.tail: list[L] = []
        self._fence: tuple[int, str, str] | None = None
        """The code block whose pieces are kept: (settled blocks before it, the text
        before it in its block, its opening line)."""
        self._before: list[L] = []
        self._fence_lines: list[L] = []
        self._fence_done = 0
        self._pad = gap
        """The code block's padding row below its last line."""
        self._split = SettledSplit()
        self._fences = FenceReader()
        self.pieced = False
        """Whether a code block was rendered in pieces: each piece is highlighted on its own,
        so a multi-line string or comment across a piece's edge is coloured wrong after it
        until the row is rendered whole (room_log.py does that off the UI thread at the end)."""

    @property
    def settled_count(self) -> int:
        return len(self.settled)

    def update(self, text: str) -> None:
        for _ in self.steps(text):
            pass

    def steps(self, text: str) -> Generator[None, None, None]:
        """Bring the lines up to ``text``, pausing (a ``yield``) after each piece rendered,
        so the caller can let a key through between pieces. The lines shown change at the
        end only, all at once; a caller that stops early leaves them as they were."""
        blocks, tail = self._split.split(text)
        settled = self.settled
        if len(blocks) > self._settled_blocks:
            settled = list(settled)
            for index in range(self._settled_blocks, len(blocks)):
                block = blocks[index]
                lines = (yield from self._block_lines(block, index)) if shows_text(block) else []
                if settled and lines:
                    settled.append(self._gap)
                settled.extend(lines)
        tail_lines = (yield from self._block_lines(tail, len(blocks))) if shows_text(tail) else []
        if tail_lines and settled:
            tail_lines.insert(0, self._gap)
        self.settled, self._settled_blocks, self.tail = settled, len(blocks), tail_lines

    def _block_lines(self, block: str, index: int) -> Generator[None, None, list[L]]:
        """Block ``index``'s lines; a code block's from its pieces (the block that settles is
        the tail that was rendered in pieces: they are kept, not rendered again whole)."""
        parts = self._fences.parts(block)
        if parts is None:
            return self._render(block)
        before, opener, code, after = parts
        key = (index, "\n".join(before), opener)
        if self._fence != key:
            self._fence, self._fence_lines, self._fence_done = key, [], 0
            self._before = [*self._render(key[1]), self._gap] if clean_text(key[1]).strip() else []
        complete = len(code) if after is not None else len(code) - 1  # an open block's last line is still being written
        # A piece never ends on blank lines: a block drops its trailing ones, and these
        # are not trailing if code follows them.
        end = complete
        while end > self._fence_done and not code[end - 1].strip():
            end -= 1
        while end - self._fence_done >= FENCE_PIECE:
            stop = self._fence_done + FENCE_PIECE
            while stop > self._fence_done + 1 and not code[stop - 1].strip():
                stop -= 1
            lines = self._render("\n".join([opener, *code[self._fence_done:stop], opener.lstrip()[:3]]))
            self._pad = lines[-1]
            lines = lines[:-1] if self._fence_done == 0 else lines[1:-1]  # no padding between pieces
            self._fence_lines.extend(lines)
            self._fence_done = stop
            self.pieced = True
            yield
        if not self._fence_done:
            return self._render(block)
        rest_code = code[self._fence_done:]
        if any(line.strip() for line in rest_code):
            rest = self._render("\n".join([opener, *rest_code, *(after or [])[:1]]))[1:]
        else:
            rest = [self._pad]  # nothing but blank lines yet: the block ends below its pieces
        if after is not None and clean_text("\n".join(after[1:])).strip():
            rest += [self._gap, *self._render("\n".join(after[1:]))]
        return self._before + self._fence_lines + rest


class LiveReply:
    """The reply this process streams into: its text so far and its rendered lines."""

    def __init__(self, row_id: int, text: str, buffer: StreamBuffer, lines: StreamLines[Line], drawn_for: tuple) -> None:
        self.row_id = row_id
        self.text = text
        self.buffer = buffer
        self.lines = lines
        self.reserved = 0
        self.timer: Timer | None = None
        self.drawn_at = 0.0
        self.head: list[Line] = []
        """The header and the thinking block above the text (their box lines)."""
        self.head_key: tuple | None = None
        self.drawn_for = drawn_for
        """The (width, theme) ``lines`` were rendered for."""
        self.pending = ""
        """Text a flush under way is drawing (``text`` is what is drawn)."""
        self.flushing = False
        """A flush is under way (it lets the loop through between pieces)."""
        self.woken: asyncio.Future | None = None
        """The flush a piece that came after a pause started (kept while it runs)."""

    def catch_up(self) -> str:
        """Take what the worker appended since the last flush (and what a flush cut short
        was drawing); returns it."""
        piece = self.pending + self.buffer.drain()
        self.pending = ""
        if piece:
            self.text += piece
            self.lines.update(self.text)
        return piece


def stream_lines(row: Row, width: int, look: RowLook, render_block: Callable[[str, int], list[list[Segment]]],
                 counted: Callable[[int], None] | None = None) -> StreamLines[Line]:
    """The box lines of a reply streaming into a log ``width`` wide (``render_block(text, cells)``:
    one block's inner lines, the same function the stored row is drawn with). Each line
    is boxed (the bar, the padding: ``box_line``, the form the room keeps) once, when it is
    rendered, not at every draw nor when the reply ends; ``counted(n)`` hears how many lines each render made."""
    cells = inner_width(row, width)

    def render(text: str) -> list[Line]:
        lines = [box_line(row, look, line) for line in render_block(text, cells)]
        if counted is not None:
            counted(len(lines))
        return lines

    return StreamLines(render, box_line(row, look, blank_inner(cells)))


def finished_lines(console: Console, row: Row, speaker: str, width: int, look: RowLook, shape: RowShape,
                   reply: LiveReply) -> list[Line]:
    """The box lines of the stored ``row`` the reply became, as the room keeps them, from the
    lines it streamed (its header rendered anew: the row's status and failure words are the
    stored ones)."""
    head = boxed(console, row, look, turn_head(row, speaker, shape), inner_width(row, width), look.text)
    return head + reply.lines.settled + reply.lines.tail  # the tail starts with its gap


__all__ = ["FENCE_PIECE", "FenceReader", "LiveReply", "StreamLines", "finished_lines", "stream_lines"]
