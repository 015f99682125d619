"""The app's layout alone (MainScreen, no store, no brain): what a key pressed in the
first moments meets, and the tab strip's tests."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import App
from textual.widget import Widget

from keeltui.shell.main_screen import MainScreen


class LayoutOnly(App):
    """MainScreen's layout; ``tutor``, if given, makes what is mounted in the tutor's tab
    after the first frame (else the tab keeps the line that waits for the tutor)."""

    def __init__(self, tutor: Callable[[], Widget] | None = None) -> None:
        super().__init__()
        self._tutor = tutor

    def get_default_screen(self):
        self.main = MainScreen("Ada", "Chief", 40, snooze_secs=3600)
        return self.main

    def compose(self):
        yield from self.main.compose_layout()

    def on_mount(self) -> None:
        if self._tutor is not None:
            self.call_after_refresh(self.main.mount_tutor, self._tutor())
