"""The status line at the bottom: drift, focus, Quiet Mode, context, brain state."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from keeltui.statusfile import StatusState, render_status
from keeltui.textsafe import one_line


class StatusLine(Widget):
    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        background: $panel;
        color: $text;
        padding: 0 1;
    }
    """

    state: reactive[StatusState] = reactive(StatusState, always_update=True)
    message: reactive[str] = reactive("")
    """A one-line notice from the app (a worker failure, the brain going away)."""
    model: reactive[str] = reactive("")
    """The Chief room's chat model, shown at the end of the line (the model picker changes it)."""

    def render(self) -> Text:
        line = render_status(self.state)
        text = Text()
        if line.startswith("⚠"):
            text.append(line, style="bold yellow")
        elif line.startswith("◎"):
            text.append(line, style="bold cyan")
        else:
            text.append(line, style="dim" if line.startswith(("idle", "away", "ambient off", "◌ snoozed")) else "")
        extras = []
        if self.state.context_text and not self.state.quiet:
            extras.append(self.state.context_text)
        if self.state.judge and not self.state.quiet and "judge:" not in line:
            extras.append(f"judge: {self.state.judge}")
        if self.model:
            extras.append(f"model: {one_line(self.model, 60)}")
        if extras:
            text.append("  ·  " + "  ·  ".join(extras), style="dim")
        if self.message:
            text.append("  ·  " + one_line(self.message, 140), style="italic #ff9e64")
        return text
