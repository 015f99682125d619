"""F3, your day, in the running app: a day replayed from stored ticks and judgements
(a real SQLite file), checked to the second on screen with an injected clock; it counts
the running session live, refreshes on its own, and takes "that was work"."""

from __future__ import annotations

import time

from textual.color import Color

from keeltui.services import ambient_state
from keeltui.ambient.timeline import CORRECTION_KIND
from keeltui.app import KeelApp
from keeltui.config import load_config
from keeltui.panes.ambient.day_view import DayScreen
from keeltui.store import Store
from keeltui.wiring import wire
from tests.conftest import write_config
from tests.support.pilot import screen_text, wait_for

t = time.localtime()
NINE = time.mktime((t.tm_year, t.tm_mon, t.tm_mday, 9, 0, 0, 0, 0, -1))


def at(minutes: float, seconds: float = 0) -> float:
    return NINE + minutes * 60 + seconds


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def seed(store: Store) -> None:
    """The hand-computed day of tests/unit/test_day_timeline.py, as the app stores it."""
    for minute in range(0, 66):
        wm_class = "firefox" if 20 <= minute < 40 else "xterm"
        store.add_event("ambient_tick", {"at": at(minute), "span": 90, "class": wm_class})
    store.add_event("ambient_away", {"start": at(-10), "end": at(5)})  # began before the app did
    store.add_event("focus_session", {"start": at(10), "end": at(30), "commitment": "write the report"})
    store.add_event("ambient_episode", {"start": at(20), "end": at(22, 37), "titles": ["YouTube - cats"],
                                        "focus": "write the report", "message": "m"})
    store.add_event("ambient_episode", {"start": at(40), "end": at(50), "titles": ["news - The Daily"]})
    store.add_event("ambient_away", {"start": at(45), "end": at(47)})  # inside that drift: counted once
    ambient_state.start_focus(store, "tidy the inbox", None, at(55))  # running: not stored as a record yet


async def test_f3_shows_the_day_to_the_second_live_and_takes_that_was_work(tmp_path, loopback):
    path = write_config(tmp_path / "config.toml", loopback.url,
                        f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    config = load_config(path, env={})
    clock = Clock(at(65))
    store = Store(config.database_path())
    seed(store)
    app = KeelApp(config, store, clock=clock, services=wire(config, store, clock=clock))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted)
            await pilot.press("f3")
            await wait_for(pilot, lambda: isinstance(app.screen, DayScreen), what="the day view")
            await wait_for(pilot, lambda: "on task 47m23s · drifting 10m37s · away 7m · no evidence 9h" in screen_text(app),
                           what="the day's totals, to the second")
            text = screen_text(app)
            assert "Your day — " + time.strftime("%Y-%m-%d", t) + " (until 10:05)" in text
            assert '09:10–09:30  focus 20m "write the report": on task 17m23s · drifting 2m37s' in text
            assert '09:55–now  focus 10m "tidy the inbox" (running): on task 10m' in text
            assert "09:20–09:22  drift 2m37s in focus \"write the report\": YouTube - cats" in text
            assert "xterm" in text and "38m" in text and "firefox" in text and "20m" in text
            # Coloured from the theme, not fixed: another theme, other colours.
            for theme in ("textual-dark", "textual-light"):
                app.theme = theme
                await pilot.pause()
                for state, variable in (("task", "success"), ("drift", "warning"), ("away", "primary")):
                    shown = app.screen.get_component_rich_style(f"day--{state}", partial=True).color.get_truecolor()
                    assert tuple(shown) == Color.parse(app.theme_variables[variable]).rgb, (theme, state)
            # No key pressed: a minute later the running session and the day have grown.
            clock.now = at(66)
            await wait_for(pilot, lambda: '09:55–now  focus 11m "tidy the inbox" (running)' in screen_text(app),
                           what="the view to refresh on its own")
            assert "(until 10:06)" in screen_text(app)
            # "That was work" on the newest episode (the news drift, highlighted).
            await pilot.press("w")
            await wait_for(pilot, lambda: "drifting 2m37s · away 7m" in screen_text(app), what="the correction counted")
            assert "1 judgement corrected (that was work)" in screen_text(app)
            assert "news - The Daily — that was work" in screen_text(app)
            corrections = store.events(CORRECTION_KIND)
            assert [c["data"]["start"] for c in corrections] == [at(40)]
            assert corrections[0]["data"]["titles"] == ["news - The Daily"]
    finally:
        store.close()


async def test_one_session_reads_the_same_in_the_room_and_the_day_and_a_short_drift_shows(tmp_path, loopback):
    path = write_config(tmp_path / "config.toml", loopback.url,
                        f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    config = load_config(path, env={})
    clock = Clock(at(0))
    store = Store(config.database_path())
    for minute in range(0, 5):
        store.add_event("ambient_tick", {"at": at(minute), "span": 90, "class": "xterm"})
    store.add_event("ambient_episode", {"start": at(1), "end": at(2, 15), "titles": ["news"]})  # 75 s
    ambient_state.start_focus(store, "file the invoices", None, at(0))
    app = KeelApp(config, store, clock=clock, services=wire(config, store, clock=clock))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted)
            await wait_for(pilot, lambda: app.focus_text.startswith("◎ Focus: file the invoices"), what="focus")
            clock.now = at(3, 47)  # 227 s
            await pilot.press("f8")
            await wait_for(pilot, lambda: 'Focus session ended: "file the invoices" — 3m47s' in screen_text(app),
                           what="the room's line")
            await pilot.press("f3")
            await wait_for(pilot, lambda: 'focus 3m47s "file the invoices"' in screen_text(app), what="the day's line")
            assert "09    |~" in screen_text(app)  # the 75 s drift is the first five minutes' cell
    finally:
        store.close()
