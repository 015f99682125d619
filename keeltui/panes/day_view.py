"""The day view (F3, or "Your day" in the palette): the lines `keeltui day` prints.

The app reads the store and renders the lines (keeltui.ambient.day); this screen only
shows them. Escape or F3 closes it.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class DayScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    DayScreen { align: center middle; background: $background 60%; }
    DayScreen > VerticalScroll {
        width: 90%; max-width: 110; height: 80%;
        border: round $accent; background: $panel; padding: 0 1;
    }
    DayScreen .-hint { color: $text-muted; }
    """
    BINDINGS = [Binding("escape", "close", "Close"), Binding("f3", "close", "Close", show=False)]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self._lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("\n".join(self._lines), id="day-text", markup=False)
            yield Static("Escape closes · keeltui day --date YYYY-MM-DD prints any day", classes="-hint")

    def action_close(self) -> None:
        self.dismiss(None)
