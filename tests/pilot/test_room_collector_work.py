"""Paging a long room leaves the collector little to walk (issue 19: no collection pause over
20 ms while paging). A full collection walks every object the app made since start-up that
is still alive; while the owner paged, two thirds of them were the room's own: the ~400 kept
rows' segments (each holds its style object) and 240 drawn lines as Textual strips (nine
objects each, and the pieces the screen cut them into). The kept rows are now packed into
tuples the collector stops tracking, and the drawn lines are a few screens' worth."""

from __future__ import annotations

import gc

from keeltui.panes.chief.room_log import CACHE_ROWS, DRAWN_SCREENS
from tests.pilot.test_room_render_ahead import opened, rows_in_view, text
from tests.support.pilot import burst, wait_for
from tests.support.room_seed import seed_room

SIZE = (120, 40)


def tracked_under(*roots: object) -> int:
    """The objects the collector tracks that ``roots`` hold (not the roots' own containers)."""
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        for child in gc.get_referents(stack.pop()):
            if gc.is_tracked(child) and id(child) not in seen and not isinstance(child, type):
                seen.add(id(child))
                stack.append(child)
    return len(seen)


async def test_a_long_paging_keeps_the_rooms_objects_few(make_app, tmp_path):
    seed_room(tmp_path / "k.db", 3_000, text)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        log = await opened(pilot, app, 2999)
        for _ in range(12):  # a few hundred rows paged through, the cache full
            top = rows_in_view(log)[0]
            burst(app, *["pageup"] * 10)
            await wait_for(pilot, lambda top=top: rows_in_view(log)[0] < top, what="the view paged up")
            await pilot.pause()
        await wait_for(pilot, lambda: not log.rendering_ahead, what="the rows around the view rendered ahead")
        assert len(log.cache) >= CACHE_ROWS // 2, len(log.cache)
        for _ in range(3):  # a collection lets go of one level of packed tuples (young ones do it in the app)
            gc.collect()
        # The kept rows: their styles' table only (~2 000 tracked objects a hundred rows as segments).
        assert tracked_under(*log.cache._rows.values()) <= 50
        height = log.size.height
        assert len(log._drawn) <= DRAWN_SCREENS * height
        # The drawn lines: each a strip and what the screen cut it into (~55 objects a line).
        assert tracked_under(log._drawn._kept) <= 60 * DRAWN_SCREENS * height
