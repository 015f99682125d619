"""The room's rendered rows are kept within a bound of bytes, not only of rows (issue 19): one
row can be a 5 000-line code block, and 400 of those would hold tens of megabytes."""

from __future__ import annotations

from keeltui.panes.chief.room_log import CACHE_BYTES
from tests.support.pilot import screen_text, wait_for

SIZE = (90, 24)
ROWS, LINES = 40, 400  # 16 000 lines drawn in all (some 10 MB), well over the bound


def block(i: int) -> str:
    body = "".join(f"row_{i:02d}_line_{n:03d} = {n}\n" for n in range(LINES))
    return f"Reply {i}:\n\n```python\n{body}```"


async def test_long_rows_drawn_one_after_another_stay_within_the_bytes_bound(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        room = app.store.chief_id()
        ids = [app.store.add_message(room, "assistant", block(i)) for i in range(ROWS)]
        app.room.refresh_from_store()  # what the store watcher does
        log = app.room.log_view
        await wait_for(pilot, lambda: f"row_{ROWS - 1:02d}_line_" in screen_text(app), what="the newest row")
        for i, row_id in enumerate(ids):
            log.scroll_to_row(row_id)
            await wait_for(pilot, lambda i=i: f"row_{i:02d}_line_000" in screen_text(app), what=f"row {i} on screen")
            assert log.cache.bytes <= CACHE_BYTES, (i, log.cache.bytes)
        first = log.lines_rendered
        log.scroll_to_row(ids[0])  # long gone from the cache: drawn again, the same
        await wait_for(pilot, lambda: "row_00_line_000" in screen_text(app), what="the first row again")
        assert log.lines_rendered > first
