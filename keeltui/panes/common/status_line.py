"""The status line at the bottom: drift, focus, Quiet Mode, context, brain state."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from keeltui.panes.common.theme_styles import themed
from keeltui.status.render import StatusState, render_status
from keeltui.text.textsafe import one_line


MIN_MAIN = 24  # cells the drift or focus text keeps however long the rest is


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
        main = Text()
        if line.startswith("⚠"):
            main.append(line, style=themed(self.app, "bold $text-warning"))
        elif line.startswith("◎"):
            main.append(line, style=themed(self.app, "bold $text-primary"))
        else:
            main.append(line, style="dim" if line.startswith(("idle", "away", "ambient", "◌ snoozed")) else "")
        extras = []
        if self.state.context_text and not self.state.quiet:
            extras.append(self.state.context_text)
        # With no evidence nothing is judged: naming the judge would suggest otherwise.
        if self.state.judge and not self.state.quiet and "judge:" not in line and not self.state.no_evidence:
            extras.append(f"judge: {self.state.judge}")
        width = self.content_region.width or self.size.width
        tail = self._tail(extras)
        if self.model:
            # The model's name is the first to give way: shown only while the rest fits whole.
            with_model = self._tail([*extras, f"model: {one_line(self.model, 60)}"])
            if main.cell_len + with_model.cell_len <= width:
                tail = with_model
        # The drift or focus text gives way (cut with "…"), never the judge or the notice after it.
        room = max(MIN_MAIN, width - tail.cell_len)
        if main.cell_len > room:
            main.truncate(room - 1)
            main.append("…", style=main.spans[0].style if main.spans else "")
        return main + tail

    def _tail(self, extras: list[str]) -> Text:
        tail = Text()
        if extras:
            tail.append("  ·  " + "  ·  ".join(extras), style="dim")
        if self.message:
            tail.append("  ·  " + one_line(self.message, 140), style=themed(self.app, "italic $text-error"))
        return tail
