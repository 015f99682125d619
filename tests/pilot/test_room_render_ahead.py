"""Rows are rendered ahead of the view (issue 19): once a frame is out, the log reads and
renders the rows two screens above and below the view into its cache, a slice at a time, so
a PageUp finds its rows drawn and answers without rendering any; a row that changes after it
was rendered ahead (edited, folded, restyled) is drawn fresh, not from the cache."""

from __future__ import annotations

from keeltui.panes.chief.row_render import row_lines
from tests.support.pilot import burst, screen_text, wait_for
from tests.support.room_seed import seed_room

SIZE = (100, 30)


def text(i: int) -> str:
    if i % 2 == 0:
        return f"Question {i}: what is next?"
    return f"Answer {i}. The plan holds.\n\n- one point\n- **another** point"


def cached_rows(log) -> set[int]:
    """The rows whose current look the log's cache holds."""
    return {row.id for row in log.window.rows if log._cache_key(row) in log.cache}


def rows_in_view(log) -> list[int]:
    height = log.scrollable_content_region.height
    return [log.window.rows[i].id for i in log.window.rows_in(round(log.scroll_y), height)]


async def settled(pilot, log) -> None:
    await wait_for(pilot, lambda: not log.rendering_ahead, what="the rows around the view rendered ahead")


async def opened(pilot, app, newest: int):
    """The room open on its newest row, the keys in the room; its log."""
    await wait_for(pilot, lambda: f"Answer {newest}." in screen_text(app), what="the newest row")
    await pilot.press("escape")  # the room takes the keys
    return app.room.log_view


async def test_two_page_ups_find_every_row_they_show_rendered_ahead(make_app, tmp_path):
    seed_room(tmp_path / "k.db", 2_000, text)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        log = await opened(pilot, app, 1999)
        await settled(pilot, log)
        ahead, rendered = cached_rows(log), log.lines_rendered
        before = rows_in_view(log)
        burst(app, "pageup", "pageup")  # two screens up, no frame between them
        await wait_for(pilot, lambda: rows_in_view(log)[-1] < before[0], what="the view two screens up")
        shown = rows_in_view(log)
        assert set(shown) <= ahead, sorted(set(shown) - ahead)
        assert rendered > 0


def drawn_fresh(app, log, row_id: int) -> bool:
    """Whether the log draws the row as it renders now (not an older look from its cache)."""
    row = log.row(row_id)
    fresh = row_lines(row, log._speaker(row), log._width, log.look(), log._shape(row), app.console)
    kept = [tuple(log.cache.segments(line)) for line in log._box_lines(row)]
    return kept == [tuple(strip) for strip in fresh]  # texts and styles


async def test_a_row_changed_after_it_was_rendered_ahead_is_drawn_fresh(make_app, tmp_path):
    seed_room(tmp_path / "k.db", 400, text)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        log = await opened(pilot, app, 399)
        await settled(pilot, log)
        above = sorted(row_id for row_id in cached_rows(log) if row_id < rows_in_view(log)[0])
        edited, folded, restyled = above[-1], above[-3], above[-5]  # assistant rows, rendered ahead
        assert len(above) >= 10
        app.store.update_message(edited, content=f"Answer {edited} rewritten: the ferry is at ten.")
        app.store.update_message(folded, status="superseded")  # an earlier version: drawn folded
        app.room.redraw_rows([app.store.message(edited), app.store.message(folded)])
        await pilot.press("pageup")
        await wait_for(pilot, lambda: "the ferry is at ten." in screen_text(app), what="the edited row, fresh")
        assert f"Answer {edited}. The plan holds." not in screen_text(app)
        assert log.is_folded(log.row(folded)) and drawn_fresh(app, log, folded)
        log.toggle_fold(folded)  # unfolded again
        assert drawn_fresh(app, log, folded)
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await settled(pilot, log)
        assert drawn_fresh(app, log, restyled)


async def test_a_page_up_renders_no_row_once_the_rows_ahead_are_rendered(make_app, tmp_path):
    """Once the rows around the view are rendered ahead, the key only moves the view and
    draws: measuring the rows it brings into view finds them in the cache."""
    seed_room(tmp_path / "k.db", 2_000, text)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        log = await opened(pilot, app, 1999)
        for _ in range(3):
            await settled(pilot, log)
            rendered = log.lines_rendered
            log.page(-1)  # what PageUp does, with nothing else run between
            assert log.lines_rendered == rendered
            await pilot.pause()


async def test_the_render_ahead_serves_the_side_the_view_is_heading_to_first(make_app, tmp_path):
    """A held PageUp needs the rows above; PageDown those below: that side is rendered first."""
    seed_room(tmp_path / "k.db", 2_000, text)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        log = await opened(pilot, app, 1999)
        for direction in (-1, -1, 1):
            await settled(pilot, log)
            log.page(direction)
            shown = set(rows_in_view(log))
            order = [row.id for row in log._rows_ahead() if row.id not in shown]
            first, last = min(shown), max(shown)
            heading = [row_id for row_id in order if (row_id < first if direction < 0 else row_id > last)]
            assert heading and order[:len(heading)] == heading, (direction, order)
            await pilot.pause()
