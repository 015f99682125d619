"""A conversation turn: the speaker's name and a Markdown body.

History rows are single ``Static`` widgets (cheap to mount by the hundred). A
streaming reply collects pieces and redraws at most ten times a second. Both draw the
body block by block with :func:`block_renderable`, so a reply looks the same while
it streams and after a restart.
"""

from __future__ import annotations

import asyncio
import time

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import Reactive
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

from keeltui.chief.failure_words import failure_words
from keeltui.chief.streaming import StreamBuffer, body_blocks, changed_span, reserved_rows, split_settled
from keeltui.chief.thinking import thinking_block
from keeltui.panes.bindings import bind
from keeltui.panes.versions import folded_line, status_mark

from keeltui.safe_markdown import safe_markdown
from keeltui.textsafe import clean_text, looks_like_markdown

# Ten redraws a second while text streams: smooth to the eye, light on an SSH link. The
# end of a reply does not wait for the timer: the finished row is drawn at once.
FLUSH_SECS = 0.1

GAP = Strip([], 0)
"""The blank line between two blocks: no cells of its own (the box's padding fills the
row), so the flush that adds it repaints only the bar, not a row of spaces."""


def speaker_header(speaker: str, status: str, parts=None) -> Text:
    """The first line of a turn: who speaks, and whether the reply is still coming, or
    why it did not finish (the words stored with the row: chief/failure_words.py)."""
    header = Text(speaker, style="bold")
    if status == "streaming":
        header.append("  …", style="dim")
    elif status in ("partial", "error"):
        header.append(f"  ({clean_text(failure_words(status, parts))})", style="bold red")
    else:
        header.append_text(status_mark(status))
    return header


def block_renderable(block: str):
    """One block of a reply: Markdown if it uses any, else the text as written
    (plain prose needs no Markdown parser, and keeps its line breaks)."""
    body = clean_text(block)
    if not looks_like_markdown(body):
        return Text(body)
    return safe_markdown(body)  # links show their target and are http(s) only


def body_renderables(text: str) -> list:
    """The body's blocks, a blank line between each two."""
    parts: list = []
    for block in body_blocks(text):
        if parts:
            parts.append(Text(""))
        parts.append(block_renderable(block))
    return parts


def copy_row_text(widget: Widget, text: str) -> None:
    """Copy a row through OSC 52, which works over SSH (tmux: `set -g set-clipboard on`).

    Only the visible text: hidden escape sequences in a stored row (CSI, OSC 52, a
    bracketed-paste end ``ESC[201~``) would otherwise replay wherever it is pasted.
    """
    widget.app.copy_to_clipboard(clean_text(text))
    widget.app.notify("Copied to the clipboard.", timeout=2)


class ChatMessage(Static, can_focus=True):
    DEFAULT_CSS = """
    ChatMessage {
        height: auto;
        margin: 1 1 0 1;
        padding: 0 1;
    }
    ChatMessage.-user {
        border-left: thick $primary;
    }
    ChatMessage.-assistant {
        border-left: thick $success;
    }
    ChatMessage:focus {
        background: $boost;
    }
    """

    BINDINGS = [
        bind("copy_message", "copy", "Copy"),
        bind("toggle_version", "toggle_version", "Show/hide"),
        bind("toggle_thinking", "toggle_thinking", "Thinking"),
    ]

    unfolded = False
    """An earlier version (status ``superseded``) is drawn folded until Enter unfolds it."""

    def __init__(self, row_id: int, role: str, speaker: str, content: str, status: str = "complete",
                 *, plain_first: bool = False, parts: list | None = None, id: str | None = None, thinking: str = "",
                 thought_secs: float | None = None) -> None:
        """``plain_first``: draw the text as it is for the first frame, Markdown right after.
        ``thinking``: a reasoning model's thinking, drawn dim and folded above the text."""
        self.thinking = thinking
        self.thought_secs = thought_secs
        self.thinking_unfolded = False
        self.row_id = row_id
        self.role = role
        self.speaker = speaker
        self.row_text = content
        self.status = status
        self.parts = parts or []
        """The row's parts: a failed reply's error part gives its header its words."""
        self._plain = plain_first
        folded = " -folded" if status == "superseded" else ""  # an earlier version: one line
        super().__init__(self._renderable(), id=id, classes=f"-{role}{folded}")

    def on_mount(self) -> None:
        if self._plain:
            self.call_after_refresh(self._format)

    def _format(self) -> None:
        self._plain = False
        self.update(self._renderable())

    def _renderable(self):
        header = speaker_header(self.speaker, self.status, self.parts)
        body = clean_text(self.row_text)
        if not body.strip():
            return header
        if self.status == "superseded" and not self.unfolded:
            return folded_line(header, body)
        block = thinking_block(self.thinking, self.thought_secs, live=False, unfolded=self.thinking_unfolded)
        head = [header, block] if block is not None else [header]
        if self._plain:
            # No Markdown parser before the first frame (~40 ms of imports).
            return Group(*head, Text(body))
        return Group(*head, *body_renderables(self.row_text))

    def set_content(self, content: str, status: str | None = None, parts: list | None = None) -> None:
        self.row_text = content
        if status is not None:
            self.status = status
        if parts is not None:
            self.parts = parts
        self.set_class(self.status == "superseded" and not self.unfolded, "-folded")
        self.update(self._renderable())

    def action_copy(self) -> None:
        copy_row_text(self, self.row_text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_thinking":
            return bool(self.thinking.strip())
        return self.status == "superseded" if action == "toggle_version" else True

    def action_toggle_thinking(self) -> None:
        self.thinking_unfolded = not self.thinking_unfolded
        self.update(self._renderable())

    def set_thinking(self, thinking: str, thought_secs: float | None) -> None:
        if (thinking, thought_secs) != (self.thinking, self.thought_secs):
            self.thinking, self.thought_secs = thinking, thought_secs
            self.update(self._renderable())

    def action_toggle_version(self) -> None:
        self.unfolded = not self.unfolded
        self.set_class(not self.unfolded, "-folded")
        self.update(self._renderable())


class StreamingReply(Widget, can_focus=True):
    """A reply being streamed, drawn line by line (Textual's line API).

    It grows in place: the header and the first chunk show at once, and the box holds
    a few blank rows below the text (:func:`reserved_rows`) so the room, which follows
    the bottom, scrolls about once per screen rather than at every line; those rows are
    drawn as empty room, not as part of the barred box. A flush repaints only the cells
    that changed. Settled blocks (followed by a blank line) are
    rendered once; only the tail is re-rendered. Over SSH every repainted line costs
    bytes. Once finished the box is exactly its text, drawn as a :class:`ChatMessage`
    draws the same row.
    """

    DEFAULT_CSS = """
    StreamingReply {
        height: auto;
        margin: 1 1 0 1;
        padding: 0 1;
        border-left: thick $success;
    }
    StreamingReply:focus { background: $boost; }
    """

    BINDINGS = [bind("copy_message", "copy", "Copy"), bind("toggle_thinking", "toggle_thinking", "Thinking")]

    # Set by the layout pass that measured the box; Textual's default reactive then asks
    # for a second layout, which repainted the whole room a second time at every growth.
    virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)

    class Grew(Message):
        """New text was drawn (the room shows "new text below" if the owner scrolled up)."""

    def __init__(self, row_id: int, role: str, speaker: str, content: str, status: str = "streaming",
                 *, buffer: StreamBuffer | None = None, parts: list | None = None, id: str | None = None) -> None:
        super().__init__(id=id, classes=f"-{role}")
        self.row_id = row_id
        self.role = role
        self.speaker = speaker
        self.row_text = content
        self.status = status
        self.parts = parts or []
        self._head: list[Strip] = []
        """The header's lines: one while streaming; a failure's words may wrap."""
        self.buffer = buffer or StreamBuffer()
        self._live = buffer is not None
        """Fed by this process's worker (a row another process streams is re-read instead)."""
        self._width = 0
        self._viewport_rows = 24
        self._settled_blocks = 0
        self._settled: list[Strip] = []
        self._tail: list[Strip] = []
        self._reserved = 0
        self._timer: Timer | None = None
        self._drawn_at = 0.0
        self.thinking = ""
        """The stored thinking (a row drawn from the store); live, it comes from ``buffer.thinking``."""
        self.thought_secs: float | None = None
        self.thinking_unfolded = False
        self._head_key: tuple | None = None

    def on_mount(self) -> None:
        if self._live:
            self._start_flushing()

    def _start_flushing(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_interval(FLUSH_SECS, self._flush)
        loop = asyncio.get_running_loop()
        # The worker may append from another thread: the wake-up goes through the loop.
        self.buffer.set_waker(lambda: loop.call_soon_threadsafe(self._wake))
        # Pieces that came before the widget was laid out: drawn with its first frame.
        self.call_after_refresh(self._wake)

    def _wake(self) -> None:
        """A piece landed after a pause: draw it now rather than at the next tick."""
        if self._timer is not None and time.monotonic() - self._drawn_at >= FLUSH_SECS:
            self._flush()
            self._timer.reset()

    def stream_from(self, buffer: StreamBuffer, content: str) -> None:
        """Draw what ``buffer`` receives from now on, after ``content`` (the row at its start).

        The room hands an already mounted row its stream instead of replacing the
        widget: a replacement would carry the same id while the old one is removed.
        """
        self.buffer = buffer
        self._live = True
        self.status = "streaming"
        self._head = []
        self.row_text = content
        if self._width > 0:
            self._rebuild(full=True)
        self._start_flushing()
        self.refresh(layout=True)

    # -- rendering ------------------------------------------------------------------

    def _header_lines(self) -> list[Strip]:
        return self._lines(speaker_header(self.speaker, self.status, self.parts)) or [GAP]

    def _thinking_now(self) -> tuple[str, float | None, bool]:
        """(text, seconds, still thinking) of the thinking drawn above the answer."""
        live = self.buffer.thinking
        if self._live and live.text:
            return live.text, live.seconds(), self.status == "streaming" and not live.ended
        return self.thinking, self.thought_secs, False

    def _head_rows(self) -> int:
        """The header and the thinking block above the text, rebuilt when either changed."""
        text, secs, thinking = self._thinking_now()
        key = (self._width, self.status, len(text), round(secs or 0) if thinking else secs, thinking,
               self.thinking_unfolded, len(self.parts))
        if key != self._head_key or not self._head:
            self._head_key = key
            block = thinking_block(text, secs, live=thinking, unfolded=self.thinking_unfolded)
            self._head = self._header_lines() + (self._lines(block) if block is not None else [])
        return len(self._head)

    def _lines(self, renderable) -> list[Strip]:
        console = self.app.console
        options = console.options.update(width=max(1, self._width), highlight=False)
        return [Strip(line) for line in console.render_lines(renderable, options, pad=False)]

    def _block(self, text: str) -> list[Strip]:
        return self._lines(block_renderable(text)) if clean_text(text).strip() else []

    def _rebuild(self, full: bool) -> None:
        """Bring the cached strips up to date with ``row_text``."""
        blocks, tail = split_settled(self.row_text)
        self._head_key = None  # the header (its status, a failure's words) may have changed
        self._head_rows()
        if full:
            self._settled, self._settled_blocks = [], 0
        for block in blocks[self._settled_blocks:]:
            lines = self._block(block)
            if self._settled and lines:
                self._settled.append(GAP)
            self._settled.extend(lines)
        self._settled_blocks = len(blocks)
        tail_strips = self._block(tail)
        if tail_strips and self._settled:
            tail_strips.insert(0, GAP)
        self._tail = tail_strips

    @property
    def _body_lines(self) -> int:
        return len(self._settled) + len(self._tail)

    def _body(self, index: int) -> Strip:
        if index < len(self._settled):
            return self._settled[index]
        index -= len(self._settled)
        if index < len(self._tail):
            return self._tail[index]
        return Strip.blank(self._width)

    def _box_rows(self) -> int:
        if self._live and self.status == "streaming":
            self._reserved = reserved_rows(self._body_lines, self._reserved, self._viewport_rows)
            return self._reserved
        return self._body_lines

    def get_content_height(self, container, viewport, width: int) -> int:
        # The room's visible height (``viewport`` is the whole screen's).
        self._viewport_rows = min(container.height, viewport.height) or viewport.height
        if width != self._width:
            self._width = width
            self._rebuild(full=True)
        return self._head_rows() + self._box_rows()

    def on_resize(self) -> None:
        # The layout that resized the box painted all of it, yet Textual also marks the
        # box dirty, and the next flush would send its rows a second time. A repaint
        # asked for since the layout (``_repaint_required``) is kept.
        if not self._repaint_required:
            self._exchange_repaint_regions()

    def render_lines(self, crop: Region) -> list[Strip]:
        # The reserved rows below the text are empty room (no bar, no background): only
        # rows that hold text belong to the barred box.
        head = self._head_rows()  # brought up to date before its lines are drawn
        strips = super().render_lines(crop)
        text_rows = self.styles.gutter.top + head + self._body_lines
        last = self.outer_size.height - self.styles.gutter.bottom
        if crop.bottom <= text_rows or not (self._live and self.status == "streaming"):
            return strips
        room = Strip.blank(crop.width, Style(bgcolor=self.background_colors[0].rich_color))
        return [room if text_rows <= y < last else strip for y, strip in zip(range(crop.y, crop.bottom), strips)]

    def render_line(self, y: int) -> Strip:
        if self._width <= 0:
            return Strip.blank(self.size.width)
        head = len(self._head)  # built by the layout (get_content_height) and the flush
        line = self._head[y] if y < head else self._body(y - head)
        # The box's colours under the text, as a ChatMessage (a Static) draws the same row.
        return line.apply_style(self.rich_style)

    # -- streaming ------------------------------------------------------------------

    def append(self, text: str) -> None:
        self.buffer.append(text)

    def _flush(self) -> None:
        if self._width > 0 and self.buffer.thinking.text:
            rows = len(self._head)
            key = self._head_key
            if self._head_rows() != rows:
                self.post_message(self.Grew())
                self.refresh(layout=True)
            elif self._head_key != key:
                self.refresh(Region(0, 0, self.size.width, rows))
        piece = self.buffer.drain()
        if not piece or self._width <= 0:
            if piece:
                self.row_text += piece
                self.refresh(layout=True)  # not laid out yet: the first layout draws it
            return
        self._drawn_at = time.monotonic()
        before_rows = self._body_lines
        before = [self._body(i) for i in range(before_rows)]
        self.row_text += piece
        self._rebuild(full=False)
        self.post_message(self.Grew())
        if self._body_lines > self._reserved:
            self.refresh(layout=True)  # the box grows: the one time the room scrolls
            return
        regions = self._changed_regions(before)
        if regions:
            self.refresh(*regions)

    def _changed_regions(self, before: list[Strip]) -> list[Region]:
        """The cells a flush changed, in content coordinates: the new words, and the bar
        and words of a reserved row that became a text row (not the line across the pane)."""
        bar = self.styles.gutter.left
        top = len(self._head)
        regions = []
        for i in range(self._body_lines):
            new = self._body(i)
            if i >= len(before):
                # On focus the whole text row takes the box's background, not only its words.
                width = self.outer_size.width if self.has_focus else bar + max(1, new.cell_length)
                regions.append(Region(-bar, top + i, width, 1))
            elif new is before[i] or new == before[i]:
                continue  # settled lines keep their strips: no cell by cell look
            elif (span := changed_span(before[i], new)) is not None:
                regions.append(Region(span[0], top + i, span[1] - span[0], 1))
        if len(before) > self._body_lines:
            # The tail now takes fewer lines (plain lines became Markdown, whose soft breaks
            # join them): the rows it gave up are the box's reserve again, drawn blank.
            gave_up = len(before) - self._body_lines
            regions.append(Region(-bar, top + self._body_lines, self.outer_size.width, gave_up))
        return regions

    def finish(self, content: str, status: str, parts: list | None = None) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.buffer.set_waker(None)
        self.buffer.drain()
        self.row_text = content
        self.status = status
        if parts is not None:
            self.parts = parts
        self._head = []
        self._live = False
        self._reserved = 0
        if self._width > 0:
            self._rebuild(full=True)
        self.refresh(layout=True)

    def set_content(self, content: str, status: str | None = None, parts: list | None = None) -> None:
        self.finish(content, status or self.status, parts)

    def action_copy(self) -> None:
        copy_row_text(self, self.row_text)

    def set_thinking(self, thinking: str, thought_secs: float | None) -> None:
        """The stored thinking (at the end of the stream: the exact seconds)."""
        self.thinking, self.thought_secs = thinking, thought_secs
        self.refresh(layout=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_thinking":
            return bool(self._thinking_now()[0].strip())
        return True

    def action_toggle_thinking(self) -> None:
        self.thinking_unfolded = not self.thinking_unfolded
        self.refresh(layout=True)
