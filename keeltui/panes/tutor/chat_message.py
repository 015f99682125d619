"""A conversation turn as a widget (the tutor's talk): the speaker's name and a Markdown body.

Its pieces (the speaker's line, the body's blocks) are the Chief room's too:
keeltui/panes/common/turn.py.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.segment import Segment
from rich.text import Text
from textual.widgets import Static

from keeltui.chief.streaming import body_blocks
from keeltui.chief.thinking import thinking_block
from keeltui.panes.common.bindings import bind
from keeltui.panes.common.turn import block_renderable, copy_row_text, folded_line, speaker_header
from keeltui.text.markdown_look import trim_blank
from keeltui.text.textsafe import clean_text


class Trimmed:
    """A block drawn without the blank lines Rich's Markdown leaves around it: the turn
    puts exactly one between two blocks, as the Chief room does."""

    def __init__(self, renderable) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        new_line = Segment.line()
        for line in trim_blank(console.render_lines(self.renderable, options, pad=False)):
            yield from line
            yield new_line


def body_renderables(text: str) -> list:
    """The body's blocks, one blank line between each two."""
    parts: list = []
    for block in body_blocks(text):
        if parts:
            parts.append(Text(""))
        parts.append(Trimmed(block_renderable(block)))
    return parts


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
