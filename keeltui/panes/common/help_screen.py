"""F1: every key and every place on one screen that scrolls (keeltui/keys/help_text.py decides
what it says). Escape or F1 closes it; the focus goes back where it was."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background 60%; }
    HelpScreen > VerticalScroll {
        width: 100%; max-width: 100; height: 100%;
        border: round $accent; background: $panel; padding: 0 1;
    }
    HelpScreen .-place { text-style: bold; color: $accent; margin-top: 1; }
    HelpScreen .-hint { color: $text-muted; }
    """
    BINDINGS = [Binding("escape", "close", "Close")]  # F1 (the app's binding) closes it too

    def __init__(self, sections: list[tuple[str, list[tuple[str, str]]]]) -> None:
        super().__init__()
        self._sections = sections

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-scroll"):
            yield Static("Keys · Esc closes · ↑ ↓ PageUp PageDown scroll", classes="-hint", markup=False)
            for title, items in self._sections:
                yield Static(title, classes="-place", markup=False)
                table = Table.grid(padding=(0, 2))
                table.add_column(no_wrap=True, min_width=12)
                table.add_column(overflow="fold")
                for keys, does in items:
                    table.add_row(Text(keys, style="bold"), Text(does))
                yield Static(table)

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
