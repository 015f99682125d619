"""A conversation turn: the speaker's name and a Markdown body.

History rows are single ``Static`` widgets (cheap to mount by the hundred). A
streaming reply collects pieces and redraws at most ~20 times a second.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from keeltui.chief.streaming import StreamBuffer, split_settled
from keeltui.panes.versions import folded_line, status_mark

from keeltui.safe_markdown import safe_markdown
from keeltui.textsafe import clean_text, looks_like_markdown

# Ten redraws a second while text streams: smooth to the eye, light on an SSH link. The
# end of a reply does not wait for the timer: the finished row is drawn at once.
FLUSH_SECS = 0.1


def speaker_header(speaker: str, status: str) -> Text:
    """The first line of a turn: who speaks, and whether the reply is still coming or was cut."""
    header = Text(speaker, style="bold")
    if status == "streaming":
        header.append("  …", style="dim")
    elif status in ("partial", "error"):
        header.append("  (cut off: the brain stopped answering)", style="bold red")
    else:
        header.append_text(status_mark(status))
    return header


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
        Binding("c", "copy", "Copy", id="copy_message"),
        Binding("enter", "toggle_version", "Show/hide", id="toggle_version"),
    ]

    unfolded = False
    """An earlier version (status ``superseded``) is drawn folded until Enter unfolds it."""

    def __init__(self, row_id: int, role: str, speaker: str, content: str, status: str = "complete",
                 *, plain_first: bool = False, id: str | None = None) -> None:
        """``plain_first``: draw the text as it is for the first frame, Markdown right after."""
        self.row_id = row_id
        self.role = role
        self.speaker = speaker
        self.row_text = content
        self.status = status
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
        header = speaker_header(self.speaker, self.status)
        body = clean_text(self.row_text)
        if not body:
            return header
        if self.status == "superseded" and not self.unfolded:
            return folded_line(header, body)
        if self._plain or not looks_like_markdown(body):
            # Plain prose needs no Markdown parser (~40 ms of imports before a first frame).
            return Group(header, Text(body))
        return Group(header, safe_markdown(body))

    def set_content(self, content: str, status: str | None = None) -> None:
        self.row_text = content
        if status is not None:
            self.status = status
        self.set_class(self.status == "superseded" and not self.unfolded, "-folded")
        self.update(self._renderable())

    def action_copy(self) -> None:
        copy_row_text(self, self.row_text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.status == "superseded" if action == "toggle_version" else True

    def action_toggle_version(self) -> None:
        self.unfolded = not self.unfolded
        self.set_class(not self.unfolded, "-folded")
        self.update(self._renderable())


class StreamingReply(Widget, can_focus=True):
    """A reply being streamed, drawn line by line (Textual's line API).

    While it streams it is a box one screen tall that fills like a pager: when the
    text reaches the bottom, the box turns the page (the last few lines stay on top).
    Nothing around it moves, so the pinned room never scrolls during a stream, and a
    flush repaints only the lines that changed. Settled blocks (followed by a blank
    line) are rendered once; only the tail is re-rendered. Over SSH every repainted
    line costs bytes.
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

    BINDINGS = [Binding("c", "copy", "Copy", id="copy_message")]

    MIN_BOX = 8
    KEEP_ON_PAGE_TURN = 3

    def __init__(self, row_id: int, role: str, speaker: str, content: str, status: str = "streaming",
                 *, buffer: StreamBuffer | None = None, id: str | None = None) -> None:
        super().__init__(id=id, classes=f"-{role}")
        self.row_id = row_id
        self.role = role
        self.speaker = speaker
        self.row_text = content
        self.status = status
        self.buffer = buffer or StreamBuffer()
        self._width = 0
        self._settled_blocks = 0
        self._settled: list[Strip] = []
        self._tail: list[Strip] = []
        self._box = self.MIN_BOX
        self._top = 0
        """Index of the first body line shown while streaming (the page)."""

    def on_mount(self) -> None:
        self._timer = self.set_interval(FLUSH_SECS, self._flush)

    # -- rendering ------------------------------------------------------------------

    def _header(self) -> Strip:
        return self._lines(speaker_header(self.speaker, self.status))[0]

    def _lines(self, renderable) -> list[Strip]:
        console = self.app.console
        options = console.options.update(width=max(1, self._width), highlight=False)
        return [Strip(line) for line in console.render_lines(renderable, options, pad=False)]

    def _markdown(self, text: str) -> list[Strip]:
        body = clean_text(text)
        return self._lines(safe_markdown(body)) if body.strip() else []

    def _rebuild(self, full: bool) -> None:
        """Bring the cached strips up to date with ``row_text``."""
        blocks, tail = split_settled(self.row_text)
        if full:
            self._settled, self._settled_blocks = [], 0
        for block in blocks[self._settled_blocks:]:
            if self._settled:
                self._settled.append(Strip.blank(self._width))
            self._settled.extend(self._markdown(block))
        self._settled_blocks = len(blocks)
        tail_strips = self._markdown(tail)
        if tail_strips and self._settled:
            tail_strips.insert(0, Strip.blank(self._width))
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

    def _page_top(self) -> int:
        """Where the page starts so that the newest line is on it."""
        room = self._box - 1  # the header takes the first line
        if self._body_lines - self._top <= room:
            return self._top
        return max(0, self._body_lines - self.KEEP_ON_PAGE_TURN)

    def get_content_height(self, container, viewport, width: int) -> int:
        if width != self._width:
            self._width = width
            self._rebuild(full=True)
        if self.status == "streaming":
            self._box = max(self.MIN_BOX, viewport.height - 2)
            self._top = self._page_top()
            return self._box
        return 1 + self._body_lines

    def render_line(self, y: int) -> Strip:
        if self._width <= 0:
            return Strip.blank(self.size.width)
        if y == 0:
            return self._header()
        top = self._top if self.status == "streaming" else 0
        return self._body(top + y - 1)

    # -- streaming ------------------------------------------------------------------

    def append(self, text: str) -> None:
        self.buffer.append(text)

    def _flush(self) -> None:
        piece = self.buffer.drain()
        if not piece or self._width <= 0:
            if piece:
                self.row_text += piece
            return
        before = [self._body(self._top + i) for i in range(self._box - 1)]
        self.row_text += piece
        self._rebuild(full=False)
        top = self._page_top()
        if top != self._top:
            self._top = top
            self.refresh()  # a page turn: the one time the whole box is repainted
            return
        changed = [i for i in range(self._box - 1) if self._body(self._top + i) != before[i]]
        if changed:
            self.refresh(Region(0, 1 + changed[0], self.size.width + self.styles.gutter.width,
                                changed[-1] - changed[0] + 1))

    def finish(self, content: str, status: str) -> None:
        self._timer.stop()
        self.buffer.drain()
        self.row_text = content
        self.status = status
        self._rebuild(full=True)
        self.refresh(layout=True)

    def set_content(self, content: str, status: str | None = None) -> None:
        self.finish(content, status or self.status)

    def action_copy(self) -> None:
        copy_row_text(self, self.row_text)
