"""The line above the composer that says a reply is on its way (send → first chunk).

The line is always there, blank when idle: a line that came and went would resize the
room above it, and every resize repaints the whole room (~6 KB at 120x40)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.reactive import reactive
from textual.widgets import Static

if TYPE_CHECKING:
    from textual.timer import Timer

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
FRAME_SECS = 0.15


class WorkingIndicator(Static):
    DEFAULT_CSS = """
    WorkingIndicator { height: 1; padding: 0 2; color: $text-muted; }
    WorkingIndicator.-note { color: $warning; text-style: bold; }
    """

    active: reactive[bool] = reactive(False)
    note: reactive[str] = reactive("")
    """Shown while idle: the open edit ("editing your message of 14:02 · …"), or nothing."""

    def __init__(self, companion: str, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.companion = companion
        self._frame = 0
        self._timer: Timer | None = None

    def watch_active(self, active: bool) -> None:
        self.set_class(active, "-active")
        if active:
            self._frame = 0
            self._draw()
            # Animated only while shown: an idle app repaints nothing.
            self._timer = self.set_interval(FRAME_SECS, self._tick)
        else:
            self.update(self.note)
            if self._timer is not None:
                self._timer.stop()
                self._timer = None

    def _tick(self) -> None:
        self._frame = (self._frame + 1) % len(FRAMES)
        self._draw()

    def _draw(self) -> None:
        self.update(f"{FRAMES[self._frame]} {self.companion} is thinking…  (Esc stops)")

    def watch_note(self, note: str) -> None:
        self.set_class(bool(note), "-note")
        if not self.active:
            self.update(note)
