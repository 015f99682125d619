"""Paging back pages older rows in ahead of the view (issue 9 point 3; the bench's "each PageUp
answered within 50 ms"): the view never comes near the mounted window's top while older rows
exist, so no key waits for a read and a layout."""

from __future__ import annotations

from keeltui.chief_view import ChiefRoom, RoomLog
from keeltui.main_screen import MainScreen
from keeltui.store import Store
from tests.support.pilot import screen_text, wait_for

ROWS = 2_000


def _record(monkeypatch, cls, name: str, what: str, events: list[str]) -> None:
    original = getattr(cls, name)

    def recorded(self, *args, **kwargs):
        events.append(what)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(cls, name, recorded)


async def test_older_rows_are_mounted_before_the_view_reaches_the_windows_top(make_app, tmp_path, monkeypatch):
    # The order of what happens: a key's scroll, a frame drawn, older rows paged in.
    events: list[str] = []
    _record(monkeypatch, RoomLog, "action_page_up", "key", events)
    _record(monkeypatch, MainScreen, "_compositor_refresh", "frame", events)
    _record(monkeypatch, ChiefRoom, "prepend_rows", "rows", events)
    seed = Store(tmp_path / "k.db")
    room = seed.chief_id()
    for i in range(ROWS):
        seed.add_message(room, "user" if i % 2 == 0 else "assistant", f"Row {i}.")
    seed.close()
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: "Row 1999." in screen_text(app), what="the newest row")
        await pilot.press("escape")  # out of the composer: the room takes the keys
        log = app.room.log_view
        page = log.scrollable_content_region.height
        for press in range(60):
            await pilot.press("pageup")
            # Each press moves a page; rows above keep coming in ahead, so more than three
            # pages stay mounted above the view all the way back (and paging ahead is done).
            await wait_for(pilot, lambda: not log.near_top and log.scroll_y > 3 * page, timeout=10,
                           what=f"three pages of older rows above the view after PageUp {press + 1} "
                                f"(view at {log.scroll_y}, page {page}, first row {app.room.mounted_ids[0]})")
            assert len(app.room.mounted_ids) <= app.config.chief.window_rows  # the window stays bounded
        assert min(app.room.mounted_ids) < ROWS - 200  # far past the first window
        # No key waited for a read and a layout: rows came in only after the key's frame.
        pairs = "".join("k" if e == "key" else "f" if e == "frame" else "r" for e in events)
        assert "kr" not in pairs.replace("kk", "k"), f"older rows paged in before a key's frame: {pairs}"
