"""The room log redraws a row whose look changed (issue 19): its text edited in the store, its
fold, a streamed reply's new words, a theme change; and its cursor row is drawn apart."""

from __future__ import annotations

from collections.abc import Callable

from keeltui.chief.streaming import StreamBuffer
from keeltui.panes.common.events import ChiefReplyStarted
from keeltui.store import Store
from keeltui.terminal import textual_seam
from tests.support.pilot import screen_text, wait_for
from tests.support.room_view import row_region

SIZE = (90, 24)


def cells(app, row_id: int) -> list[list[tuple[str, object]]]:
    """What the screen shows of row ``row_id``'s box: each cell's character and style."""
    region = row_region(app, row_id)
    lines = app.screen._compositor.render_strips()[region.y:region.bottom]
    return [[(ch, seg.style) for seg in strip.crop(region.x, region.right) for ch in seg.text] for strip in lines]


async def test_a_row_edited_in_the_store_is_redrawn(make_app, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        room = app.store.chief_id()
        row_id = app.store.add_message(room, "assistant", "The ferry leaves at nine.")
        app.room.refresh_from_store()  # what the store watcher does (a write on the app's own connection)
        await wait_for(pilot, lambda: "The ferry leaves at nine." in screen_text(app), what="the row")
        other = Store(tmp_path / "k.db")  # another process rewrites it (as a settling reply does)
        other.update_message(row_id, content="The ferry leaves at ten, from pier two.\n\nBring a coat.")
        app.room.redraw_rows([app.store.message(row_id)])  # as the app does for an edited turn
        await wait_for(pilot, lambda: "Bring a coat." in screen_text(app), what="the edited row")
        assert "nine" not in screen_text(app)
        other.close()


async def _theme_changed(app, pilot, frame_between: bool) -> None:
    """A row on screen, then another theme: its bar must take the new theme's colour.
    ``frame_between``: a frame is drawn after the theme is named, before its CSS is in place."""
    row_id = app.store.add_message(app.store.chief_id(), "user", "Colours, please.")
    app.room.refresh_from_store()
    await wait_for(pilot, lambda: "Colours, please." in screen_text(app), what="the row")
    bar_before = cells(app, row_id)[0][0]
    assert bar_before[0] == "█"
    app.theme = "textual-light" if app.theme != "textual-light" else "nord"
    if frame_between:
        app.room.log_view.refresh()
        app.screen._compositor.render_strips()
    await wait_for(pilot, lambda: cells(app, row_id)[0][0][1].color != bar_before[1].color,
                   what="the bar in the new theme's colour")


async def test_a_theme_change_restyles_the_rows(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _theme_changed(app, pilot, frame_between=False)


async def test_the_cursor_row_is_drawn_apart_and_moves_with_the_arrow_keys(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        room = app.store.chief_id()
        first = app.store.add_message(room, "user", "First question.")
        second = app.store.add_message(room, "assistant", "First answer.")
        app.room.refresh_from_store()
        await wait_for(pilot, lambda: "First answer." in screen_text(app), what="the rows")
        plain = cells(app, second)[1][3][1].bgcolor
        await pilot.press("escape")  # the keys to the log: the cursor on the newest row
        await wait_for(pilot, lambda: cells(app, second)[1][3][1].bgcolor != plain, what="the cursor row highlighted")
        await pilot.press("up")
        await wait_for(pilot, lambda: cells(app, first)[1][3][1].bgcolor != plain
                       and cells(app, second)[1][3][1].bgcolor == plain, what="the cursor moved up")


async def test_a_streamed_reply_draws_its_new_words(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        room = app.store.chief_id()
        user_id = app.store.add_message(room, "user", "Count for me.")
        reply_id = app.store.add_message(room, "assistant", "", status="streaming", reply_to=user_id)
        buffer = StreamBuffer()
        app.room.post_message(ChiefReplyStarted(app.store.message(reply_id), buffer))
        for word in ("one ", "two ", "three"):
            buffer.append(word)
            await wait_for(pilot, lambda: word.strip() in screen_text(app), what=f"the word {word!r}")
        assert "one two three" in screen_text(app)


async def test_a_click_puts_the_cursor_on_the_row_under_the_pointer(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        room = app.store.chief_id()
        first = app.store.add_message(room, "user", "Clicked question.")
        app.store.add_message(room, "assistant", "Some answer.")
        app.room.refresh_from_store()
        await wait_for(pilot, lambda: "Some answer." in screen_text(app), what="the rows")
        log = app.room.log_view
        region = row_region(app, first)
        await pilot.click(log, offset=(5, region.y - log.region.y + 1))
        await wait_for(pilot, lambda: app.focused is log and log.cursor == first, what="the cursor on the clicked row")
        assert "c Copy" in screen_text(app).rstrip().splitlines()[-1]


def _sixty_rows(app):
    room = app.store.chief_id()
    for i in range(60):
        app.store.add_message(room, "user" if i % 2 == 0 else "assistant", f"Numbered line {i:02d}, once.")
    return app


async def _moved_a_line_at_a_time(app, pilot, count: Callable[[], int], most: int) -> None:
    """The view of :func:`_sixty_rows` moved up a line five times; ``count()`` may grow by at
    most ``most`` a step."""
    log = app.room.log_view
    await wait_for(pilot, lambda: "Numbered line 59" in screen_text(app), what="the newest row")
    await pilot.pause()
    for step in range(1, 6):
        shown = screen_text(app)
        before = count()
        log.scroll_to(y=round(log.scroll_y) - 1, animate=False, immediate=True)
        await wait_for(pilot, lambda: screen_text(app) != shown, what=f"the view moved up a line ({step})")
        await pilot.pause()
        assert count() - before <= most, (step, count() - before)
    assert "Numbered line 59" not in screen_text(app) and not log.following


async def test_a_view_moved_a_line_draws_the_line_that_came_in_not_the_view_again(make_app):
    app = _sixty_rows(make_app())
    async with app.run_test(size=SIZE) as pilot:
        # The line that came in at the top (and at most a day's name in a gap, drawn
        # each time); every other line, blank ones too, is the strip it was.
        await _moved_a_line_at_a_time(app, pilot, lambda: app.room.log_view.lines_drawn, most=2)


async def test_a_view_moved_a_line_works_out_the_cells_of_the_line_that_came_in_not_of_the_view(make_app, monkeypatch):
    # The terminal seam compares each line it sends with what the terminal shows, cell by
    # cell; a line that is the same strip as before has the same cells, found again, not
    # worked out again (a reply the view follows moves the room a line each flush).
    worked_out: list[int] = []
    real = textual_seam.cells_of
    monkeypatch.setattr(textual_seam, "cells_of", lambda strip, system, maker=None: worked_out.append(1) or real(strip, system, maker))
    app = make_app()
    real_display = app._display

    def display(screen, update) -> None:  # headless, Textual writes nothing: send it as the terminal would get it
        if update is not None and hasattr(update, "render_segments"):
            update.render_segments(app.console)
        real_display(screen, update)

    app._display = display
    async with _sixty_rows(app).run_test(size=SIZE) as pilot:
        # The line that came in, a day's name in a gap, the scrollbar's cells where the
        # thumb moved: not the room's lines again (two pieces each, the line and its
        # scrollbar cell: ~80 over the frames of a step before).
        await _moved_a_line_at_a_time(app, pilot, lambda: len(worked_out), most=10)


async def test_a_frame_drawn_while_the_new_theme_is_applied_does_not_keep_the_old_colours(make_app):
    # Textual names the new theme, then applies its CSS on the next turn of the loop. A
    # frame in between (a streaming flush, a key) drew the rows with the old colours and
    # kept them under the new theme's name: the room stayed in the old theme's colours.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _theme_changed(app, pilot, frame_between=True)
