"""The drift banner over the room: the coaching line, F6 snooze 1h, F7 start focus.

It advertises the app-wide chords (F6, F7), which work while the composer has the
keyboard: acting on a drift never needs leaving the text field first.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Button, Static

from keeltui.text.durations import format_duration
from keeltui.text.textsafe import one_line


class BannerButton(Button, can_focus=False):
    """A banner button: a click acts, and the keys stay where the owner was typing. A
    focused button kept them after the banner went (a letter then reached neither the
    composer nor the room); the keyboard has the chords the labels name."""


class DriftBanner(Horizontal):
    DEFAULT_CSS = """
    DriftBanner {
        dock: top;
        height: 3;
        background: $warning-muted;
        color: $foreground;
        padding: 0 1;
        display: none;
    }
    DriftBanner.-shown { display: block; }
    DriftBanner #drift-text { width: 1fr; height: 3; content-align: left middle; text-style: bold; }
    DriftBanner Button { height: 3; min-width: 16; margin-left: 1; }
    """
    # Under this width the drift text needs the room more than a third button does
    # (F10 still works; it is in the README's key table and the palette).
    WORK_BUTTON_MIN_WIDTH = 100

    line: reactive[str] = reactive("")

    class SnoozeRequested(Message):
        """Snooze 1h was chosen."""

    class FocusRequested(Message):
        """Start focus was chosen."""

    class WorkRequested(Message):
        """"That was work" was chosen: the judgement on screen was wrong."""

    def __init__(self, *, snooze_secs: float = 3600, id: str | None = None) -> None:
        super().__init__(id=id)
        self._snooze_label = f"F6 snooze {format_duration(snooze_secs)}"

    def compose(self) -> ComposeResult:
        yield Static("", id="drift-text", markup=False)

    def watch_line(self, line: str) -> None:
        if line and not self.query("Button"):
            # Mounted at the first drift, not at start: nothing to click before then.
            self.mount(BannerButton(self._snooze_label, id="snooze"),
                       BannerButton("F7 start focus", id="focus", variant="primary"),
                       BannerButton("F10 that was work", id="work"))
        self._fit_buttons()
        self.set_class(bool(line), "-shown")
        self.query_one("#drift-text", Static).update("⚠ " + one_line(line, 200) if line else "")

    def on_resize(self) -> None:
        self._fit_buttons()

    def _fit_buttons(self) -> None:
        # The terminal's width: the banner spans it, and has no size of its own while hidden.
        for button in self.query("#work"):
            button.display = self.app.size.width >= self.WORK_BUTTON_MIN_WIDTH

    @on(Button.Pressed, "#snooze")
    def _snooze_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.SnoozeRequested())

    @on(Button.Pressed, "#focus")
    def _focus_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.FocusRequested())

    @on(Button.Pressed, "#work")
    def _work_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.WorkRequested())
