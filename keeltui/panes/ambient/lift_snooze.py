"""F6 while a snooze runs: offer to lift it (a second F6 must not silently extend it)."""

from __future__ import annotations

import time

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class LiftSnooze(ModalScreen[bool]):
    DEFAULT_CSS = """
    LiftSnooze { align: center middle; background: $background 60%; }
    LiftSnooze > Vertical {
        width: 72; height: auto; border: round $accent; background: $panel; padding: 0 1;
    }
    LiftSnooze Horizontal { height: auto; align-horizontal: right; }
    LiftSnooze Button { margin-left: 1; }
    """
    BINDINGS = [Binding("y", "lift", "Lift it"), Binding("n,escape", "keep", "Keep it")]

    def __init__(self, until: float) -> None:
        super().__init__()
        self._until = until

    def compose(self) -> ComposeResult:
        with Vertical():
            when = time.strftime("%H:%M", time.localtime(self._until))
            yield Static(f"Drift coaching is snoozed until {when}. Lift the snooze now?", id="lift-text")
            with Horizontal():
                yield Button("y lift it", id="lift", variant="primary")
                yield Button("n keep it", id="keep")

    @on(Button.Pressed, "#lift")
    def action_lift(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#keep")
    def action_keep(self) -> None:
        self.dismiss(False)
