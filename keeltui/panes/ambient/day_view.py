"""The day view (F3, or "Your day" in the palette): the lines `keeltui day` prints, coloured.

It is handed a ``load`` callable that returns the day's timeline (the app reads the
store and the live state; this screen never does) and re-reads it every
:data:`REFRESH_SECS`, so the running session and the current state count up while
it is open. The day's strip is coloured from the theme (``$success`` on task,
``$warning`` drifting, ``$primary`` away), never fixed colours.

The drift episodes are a list: ``w`` on one says "that was work" (the judgement was
wrong); the screen posts :class:`DayScreen.Corrected` and the app stores it.
Escape or F3 closes it.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from keeltui.ambient import day as days
from keeltui.ambient.timeline import AWAY, DRIFT, TASK, UNKNOWN, Timeline
from keeltui.panes.common.bindings import bind

REFRESH_SECS = 2.0
STYLE_CLASSES = {TASK: "day--task", DRIFT: "day--drift", AWAY: "day--away", UNKNOWN: "day--unknown"}


class DayScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    DayScreen { align: center middle; background: $background 60%; }
    DayScreen > VerticalScroll {
        width: 90%; max-width: 110; height: 90%;
        border: round $accent; border-title-color: $accent; border-title-style: bold;
        background: $panel; padding: 0 1;
    }
    DayScreen > .day--task { color: $success; }
    DayScreen > .day--drift { color: $warning; }
    DayScreen > .day--away { color: $primary; }
    DayScreen > .day--unknown { color: $text-disabled; }
    DayScreen #day-episodes { height: auto; max-height: 10; border: none; background: $panel; }
    DayScreen .-heading { text-style: bold; color: $accent; margin-top: 1; }
    DayScreen .-hint { color: $text-muted; }
    """
    COMPONENT_CLASSES = set(STYLE_CLASSES.values())
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("f3", "close", "Close", show=False),
        bind("day_work", "that_was_work", "That was work"),
    ]

    class Corrected(Message):
        """The owner said the drift episode that began at ``start`` was work."""

        def __init__(self, episode: dict) -> None:
            super().__init__()
            self.episode = episode

    def __init__(self, load: Callable[[], Timeline], day_start: float, *, running: bool = True) -> None:
        super().__init__()
        self._read_day = load
        self._day_start = day_start
        self._is_today = running
        self._episodes: list = []
        self._shown: list[str] = []

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("", id="day-text", markup=False)
            yield Static("Drift episodes · w: that was work", classes="-heading", id="day-episodes-heading")
            yield OptionList(id="day-episodes")
            yield Static("", id="day-more", markup=False)
            yield Static("Escape closes · keeltui day [--week] [--json|--csv] for scripts", classes="-hint")

    def on_mount(self) -> None:
        self.refresh_day()
        self.set_interval(REFRESH_SECS, self.refresh_day)

    def _style(self, state: str) -> Style:
        return self.get_component_rich_style(STYLE_CLASSES[state], partial=True)

    def refresh_day(self) -> None:
        """Read the day again (the timer, and the app after a correction)."""
        timeline = self._read_day()
        parts = days.day_text(timeline, self._day_start, running=self._is_today)
        self.query_one(VerticalScroll).border_title = parts.title
        text = Text()
        for line in parts.summary:
            text.append(line + "\n", "bold")
        if parts.hours:
            text.append(f"\nhour  {days.LEGEND}\n", "dim")
        for row in parts.hours:
            text.append(days.hour_head(row))
            for state in row.cells:
                text.append(days.GLYPHS[state] if state else " ", self._style(state) if state else "")
            text.append(days.hour_tail(row) + "\n")
        if parts.focus:
            text.append("\nFocus sessions\n", "bold")
            text.append("\n".join(parts.focus))
        self.query_one("#day-text", Static).update(text)
        self._show_episodes(timeline, parts.episodes)
        more = f"{days.APPS_HEADING}\n" + "\n".join(parts.apps) if parts.apps else ""
        self.query_one("#day-more", Static).update(more)

    def _show_episodes(self, timeline: Timeline, shown: list[str]) -> None:
        options = self.query_one("#day-episodes", OptionList)
        self.query_one("#day-episodes-heading").display = bool(shown)
        options.display = bool(shown)
        if shown == self._shown:
            return
        self._shown = shown
        highlighted = options.highlighted
        self._episodes = list(timeline.episodes)
        options.clear_options()
        options.add_options([Option(Text(line, style=self._style(TASK if e.corrected else DRIFT)))
                             for line, e in zip(shown, timeline.episodes, strict=False)])
        if shown:
            options.highlighted = min(highlighted if highlighted is not None else len(shown) - 1, len(shown) - 1)

    def action_that_was_work(self) -> None:
        options = self.query_one("#day-episodes", OptionList)
        index = options.highlighted
        if index is None or not 0 <= index < len(self._episodes):
            self.notify("No drift episode to correct here.", timeout=3)
            return
        episode = self._episodes[index]
        if episode.corrected:
            self.notify("Already marked as work.", timeout=3)
            return
        self.post_message(self.Corrected({"start": episode.start, "titles": list(episode.titles),
                                          "focus": episode.focus, "message": episode.message}))

    def action_close(self) -> None:
        self.dismiss(None)
