"""Paging the room (issue 19): every PageUp moves a full page, however fast the keys come and
however long the room; Home reaches the first row and End the newest; the log holds a bounded
run of rows all the way (issue 9 point 3's "rows ahead of the view", now read synchronously)."""

from __future__ import annotations

import sqlite3
import time

from keeltui.store import Store
from tests.support.pilot import screen_text, wait_for

SIZE = (100, 30)


def seed_fast(path, rows: int) -> None:
    """``rows`` rows "Row i." (user and assistant in turn) in one SQL statement: a million in seconds."""
    store = Store(path)  # the schema and the room
    room = store.chief_id()
    store.close()
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "INSERT INTO messages (conversation_id, role, content, status, created_at) "
            "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
            "SELECT ?, CASE i % 2 WHEN 0 THEN 'user' ELSE 'assistant' END, 'Row ' || i || '.', 'complete', ? + i FROM n",
            (rows - 1, room, time.time() - rows),
        )
    conn.close()


def top_row(app) -> tuple[int, int]:
    """The row at the top of the view (its id) and how many of its lines are above the view."""
    log = app.room.log_view
    index, line = log.window.locate(round(log.scroll_y))
    return log.window.rows[index].id, line


async def test_a_held_page_up_moves_a_page_per_press_and_the_window_stays_bounded(make_app, tmp_path):
    seed_fast(tmp_path / "k.db", 5_000)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "Row 4999." in screen_text(app), what="the newest row")
        await pilot.press("escape")  # out of the composer: the room takes the keys
        log = app.room.log_view
        page = log.scrollable_content_region.height
        before, line_before = top_row(app)
        await pilot.press(*["pageup"] * 40)  # key repeat: no waiting between the presses
        after, line_after = top_row(app)
        # Every row is three lines (the gap, the name, "Row i."): 40 pages back, exactly.
        assert (before - after) * 3 + line_before - line_after == 40 * page
        assert f"Row {after - 1}." in screen_text(app) or f"Row {after}." in screen_text(app)
        assert len(app.room.mounted_ids) <= app.config.chief.window_rows + 40  # bounded (a read's worth over)
        await pilot.press(*["pagedown"] * 40)
        assert top_row(app) == (before, line_before)  # and back, a page per press


async def test_a_million_rows_open_on_the_newest_and_home_reaches_the_first(make_app, tmp_path):
    seed_fast(tmp_path / "k.db", 1_000_000)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "Row 999999." in screen_text(app), what="the newest row")
        await pilot.press("escape")
        await pilot.press("home")
        await wait_for(pilot, lambda: "Row 0." in screen_text(app), what="the first row")
        assert top_row(app) == (1, 0) or top_row(app)[0] == 1
        await pilot.press("pagedown", "pagedown")
        assert "Row 0." not in screen_text(app)
        await pilot.press("end")
        await wait_for(pilot, lambda: "Row 999999." in screen_text(app), what="the newest row again")
        assert app.room.at_latest and app.room.log_view.following
