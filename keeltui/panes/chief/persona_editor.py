"""The Chief's persona (its system prompt), shown and edited in a dialog.

Handed the text in use; dismissed with the edited text (Ctrl+S or Save), which the app
saves and records in the room. Escape cancels and keeps the old one.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static, TextArea

from keeltui.chief.persona import check_persona
from keeltui.panes.ambient.modals import _MODAL_CSS
from keeltui.text.textsafe import one_line


class PersonaEditor(ModalScreen[str | None]):
    DEFAULT_CSS = _MODAL_CSS.format(name="PersonaEditor") + """
    PersonaEditor > Vertical { max-width: 100; padding: 0 2; }
    PersonaEditor TextArea { height: 10; margin-top: 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Save", priority=True)]

    def __init__(self, text: str) -> None:
        super().__init__()
        self._text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("The Chief's persona (its system prompt)", classes="-title")
            yield TextArea(self._text, soft_wrap=True, show_line_numbers=False, id="persona")
            with Horizontal():
                yield Button("Save", id="save", variant="primary")
                yield Button("Cancel", id="cancel")
            yield Static("", id="error", classes="-error", markup=False)
            yield Static("Ctrl+S saves (from the next turn) · Escape keeps the old one", classes="-hint")

    def on_mount(self) -> None:
        self.query_one("#persona", TextArea).focus()

    @on(Button.Pressed, "#save")
    def _save_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_save()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_save(self) -> None:
        try:
            text = check_persona(self.query_one("#persona", TextArea).text)
        except ValueError as exc:
            self.query_one("#error", Static).update(one_line(str(exc), 200))
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
