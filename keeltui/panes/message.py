"""A conversation turn: the speaker's name and a Markdown body.

History rows are single ``Static`` widgets (cheap to mount by the hundred). A
streaming reply collects pieces and redraws at most ~20 times a second.
"""

from __future__ import annotations

from rich.console import Group
from rich.markdown import Markdown
from rich.text import Text
from textual.binding import Binding
from textual.widgets import Static

from keeltui.textsafe import clean_text

FLUSH_SECS = 0.05


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

    BINDINGS = [Binding("c", "copy", "Copy", show=False, id="copy_message")]

    def __init__(self, row_id: int, role: str, speaker: str, content: str, status: str = "complete", *, id: str | None = None) -> None:
        self.row_id = row_id
        self.role = role
        self.speaker = speaker
        self.row_text = content
        self.status = status
        super().__init__(self._renderable(), id=id, classes=f"-{role}")

    def _renderable(self):
        header = Text(self.speaker, style="bold")
        if self.status == "streaming":
            header.append("  …", style="dim")
        elif self.status in ("partial", "error"):
            header.append("  (cut off: the brain stopped answering)", style="bold red")
        body = clean_text(self.row_text)
        if not body:
            return header
        return Group(header, Markdown(body))

    def set_content(self, content: str, status: str | None = None) -> None:
        self.row_text = content
        if status is not None:
            self.status = status
        self.update(self._renderable())

    def action_copy(self) -> None:
        # OSC 52: works over SSH (tmux needs `set -g set-clipboard on`).
        self.app.copy_to_clipboard(self.row_text)
        self.app.notify("Copied to the clipboard.", timeout=2)


class StreamingReply(ChatMessage):
    """A reply being streamed: pieces are appended, the screen catches up in batches."""

    def on_mount(self) -> None:
        self._pieces: list[str] = [self.row_text] if self.row_text else []
        self._dirty = False
        self._timer = self.set_interval(FLUSH_SECS, self._flush)

    def append(self, text: str) -> None:
        self._pieces.append(text)
        self._dirty = True

    def _flush(self) -> None:
        if self._dirty:
            self._dirty = False
            self.set_content("".join(self._pieces))

    def finish(self, content: str, status: str) -> None:
        self._timer.stop()
        self._dirty = False
        self.set_content(content, status)
