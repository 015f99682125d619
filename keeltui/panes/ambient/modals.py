"""Keyboard-driven modals: the focus prompt and the ambient settings.

Each modal validates what was typed and shows a refusal inside itself, so a typo
never closes the form; a valid form is dismissed with plain values (results go up,
the caller decides what to do with them). Escape cancels (dismisses with None).
"""

from __future__ import annotations

import math

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from keeltui.ambient.modes import AMBIENT_MODES
from keeltui.services.ambient_state import parse_settings
from keeltui.text.textsafe import one_line

_MODAL_CSS = """
{name} {{
    align: center middle;
    background: $background 60%;
}}
{name} > Vertical {{
    width: 100%;
    max-width: 72;
    height: auto;
    padding: 1 2;
    border: round $accent;
    background: $panel;
}}
{name} Label {{ margin-top: 1; }}
{name} .-title {{ text-style: bold; }}
{name} .-error {{ color: $error; height: auto; margin-top: 1; }}
{name} .-hint {{ color: $text-muted; margin-top: 1; }}
{name} Horizontal {{ height: auto; margin-top: 1; }}
{name} Button {{ margin-right: 2; }}
"""


def parse_minutes(text: str) -> float | None:
    """Blank → open-ended (None); else a positive number of minutes (ValueError)."""
    text = text.strip()
    if not text:
        return None
    try:
        minutes = float(text)
    except ValueError:
        raise ValueError(f"minutes must be a number (or blank for open-ended), got {text!r}") from None
    if not math.isfinite(minutes) or minutes <= 0:
        raise ValueError("minutes must be more than 0 (or blank for open-ended)")
    return minutes


class FocusPrompt(ModalScreen[tuple[str, float | None] | None]):
    """Declare one commitment. Enter starts; Escape cancels.

    Dismissed with ``(commitment, minutes)`` (minutes None for open-ended).
    """

    DEFAULT_CSS = _MODAL_CSS.format(name="FocusPrompt")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, commitment: str = "", minutes: float | None = None) -> None:
        super().__init__()
        self._commitment = commitment
        self._minutes = minutes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Start a focus session", classes="-title")
            yield Label("What will you do?")
            yield Input(self._commitment, placeholder="one commitment, e.g. write the report", id="commitment")
            yield Label("Minutes (blank: open-ended)")
            yield Input("" if self._minutes is None else f"{self._minutes:g}", id="minutes")
            yield Static("", id="error", classes="-error", markup=False)
            yield Static("Enter starts · Tab moves · Escape cancels", classes="-hint")

    def on_mount(self) -> None:
        self.query_one("#commitment", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        commitment = " ".join(self.query_one("#commitment", Input).value.split())
        if not commitment:
            self._refuse("Say what you will focus on.")
            return
        try:
            minutes = parse_minutes(self.query_one("#minutes", Input).value)
        except ValueError as exc:
            self._refuse(str(exc))
            return
        self.dismiss((commitment, minutes))

    def _refuse(self, text: str) -> None:
        self.query_one("#error", Static).update(one_line(text, 200))

    def action_cancel(self) -> None:
        self.dismiss(None)


class SettingsScreen(ModalScreen[tuple[str, int] | str | None]):
    """The ambient dial: mode and cadence, applied live. Escape cancels.

    Dismissed with ``(mode, cadence_secs)`` once both are valid; an invalid value
    is refused with a message here and the form stays open. "Use the file's values"
    dismisses with :attr:`RESET`. ``origins`` are lines saying where each value in
    use comes from (defaults < file < live settings < environment).
    """

    RESET = "reset"
    ORDER_HINT = "Order: default < file < live (F2) < env (KEEL_AMBIENT_*)"

    # Tighter than the focus prompt: with where-each-value-comes-from it must still
    # fit an 80x24 pane.
    DEFAULT_CSS = _MODAL_CSS.format(name="SettingsScreen") + """
    SettingsScreen > Vertical { padding: 0 2; }
    SettingsScreen Label { margin-top: 0; }
    SettingsScreen .-error { margin-top: 0; display: none; }
    SettingsScreen .-error.-shown { display: block; }
    SettingsScreen #more { margin-top: 1; }
    SettingsScreen #more Button { min-width: 11; margin-right: 1; }
    SettingsScreen #more .-hint { margin-top: 0; width: 1fr; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, mode: str, cadence_secs: float, *, origins: list[str] | None = None) -> None:
        super().__init__()
        self._mode = mode if mode in AMBIENT_MODES else AMBIENT_MODES[-1]
        self._cadence = cadence_secs
        self._origins = origins or []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Ambient settings", classes="-title")
            # Two lines: on one, the dialog's edge cut it at 80 columns.
            yield Label("Mode: off · status (the line and the banner only)\n"
                        "      notify (also one toast per drift)", id="mode-hint")
            yield Select(
                [(mode, mode) for mode in AMBIENT_MODES], value=self._mode, allow_blank=False, id="mode",
            )
            yield Label("Seconds between judgements")
            yield Input(f"{self._cadence:g}", id="cadence")
            yield Static("", id="error", classes="-error", markup=False)
            yield Static("\n".join([self.ORDER_HINT, *self._origins]), id="origins", classes="-hint", markup=False)
            with Horizontal():
                yield Button("Apply", id="apply", variant="primary")
                yield Button("Use the file's values", id="reset")
                yield Button("Cancel", id="cancel")
            with Horizontal(id="more"):
                # One line: the dialog must still fit an 80x24 pane.
                yield Button("Models…", id="models", compact=True)
                yield Button("Persona…", id="persona", compact=True)
                yield Static("Enter applies · Tab moves · Esc cancels", classes="-hint")

    def on_mount(self) -> None:
        self.query_one("#mode", Select).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._apply()

    @on(Button.Pressed, "#apply")
    def _apply_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self._apply()

    @on(Button.Pressed, "#reset")
    def _reset_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(self.RESET)

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    class OpenWanted(Message):
        """The owner asked, from the settings, for another dialog: ``"models"`` or ``"persona"``."""

        def __init__(self, what: str) -> None:
            super().__init__()
            self.what = what

    @on(Button.Pressed, "#models, #persona")
    def _open_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        # To the app, which opens it: this dialog closes first (one dialog at a time).
        self.app.post_message(self.OpenWanted(event.button.id or ""))
        self.dismiss(None)

    def _apply(self) -> None:
        mode = self.query_one("#mode", Select).value
        cadence = self.query_one("#cadence", Input).value
        try:
            # A blank Select reads as Select.BLANK: parse_mode refuses it by name.
            values = parse_settings(mode, cadence)
        except ValueError as exc:
            error = self.query_one("#error", Static)
            error.update(one_line(str(exc), 200))
            error.add_class("-shown")  # shown only when there is one: an empty line costs a row at 80x24
            return
        self.dismiss(values)

    def action_cancel(self) -> None:
        self.dismiss(None)
