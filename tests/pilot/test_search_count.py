"""Searching a 100 000-row room never holds typing: the match count is counted once,
off the UI thread, and shown when it lands.

Real parts: a real SQLite file seeded with 100 000 rows; the store's own connection is
traced (sqlite3's trace callback) to see on which thread each count runs.
"""

from __future__ import annotations

import re
import threading

from keeltui.panes.chief.search_bar import SearchBar
from tests.support.pilot import screen_text, wait_for
from tests.support.room_seed import seed_room

SIZE = (100, 30)
ROWS = 100_000


def _seed(path) -> None:
    seed_room(path, ROWS, lambda i: f"Turn {i}." + (" the heron flew" if i % 25_000 == 7 else ""))



async def test_a_search_counts_once_off_the_ui_thread_and_typing_goes_on(make_app, tmp_path):
    _seed(tmp_path / "k.db")
    app = make_app()
    counts: list[bool] = []  # one per count: whether it ran on the UI thread
    shared: list[str] = []  # count statements on the store's shared connection
    ui_thread = threading.main_thread()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "Turn 99998." in screen_text(app), what="the newest rows")
        real_count = app.store.count_matches

        def counting(*args, **kwargs):
            counts.append(threading.current_thread() is ui_thread)
            return real_count(*args, **kwargs)

        app.store.count_matches = counting  # the real method, watched
        app.store._conn.set_trace_callback(lambda sql: shared.append(sql) if "count(" in sql else None)
        await pilot.press("ctrl+f")
        bar = app.room.query_one(SearchBar)
        await wait_for(pilot, lambda: app.focused is bar.input, what="the search field")
        await pilot.press(*"heron")
        await pilot.press("enter")
        await pilot.press(*" fl")  # typed on while the count runs: every character lands
        assert bar.input.value == "heron fl"
        await wait_for(pilot, lambda: "Turn 75007. the heron flew" in screen_text(app), what="the newest match")
        await wait_for(pilot, lambda: bar.status == "1 of 4 (newest first)", timeout=30, what="the count")
        assert re.search(r"1 of 4", screen_text(app))
        assert "heron fl" in screen_text(app)
        app.store._conn.set_trace_callback(None)
    assert counts == [False], counts  # one scan per search, off the UI thread
    # On a connection of its own: the shared one's lock never holds the UI's reads meanwhile.
    assert shared == [], shared
