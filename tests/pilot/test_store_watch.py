"""The store watcher (issue 19, the whole idle cost): an idle app does not wake twice a second
to ask SQLite whether anything changed; another process's commit still reaches the room."""

from __future__ import annotations

import sys

import pytest

from keeltui.store import Store
from tests.support.pilot import screen_text, wait_for

SIZE = (100, 30)
IDLE_SECS = 2.0  # four polls of the old half-second watcher

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


async def test_an_idle_app_asks_the_store_nothing_and_a_report_still_lands(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)  # the first frame, then the watch and its one catch-up check
        asked = []
        checked = app.store.data_version
        app.store.data_version = lambda: asked.append(1) or checked()  # type: ignore[method-assign]
        await pilot.pause(IDLE_SECS)
        assert len(asked) <= 1, f"the idle app asked the store {len(asked)} times in {IDLE_SECS} s"
        other = Store(app.store.path)  # another process's connection: `keeltui report`
        try:
            other.add_report("cron:backup", "the nightly backup finished")
        finally:
            other.close()
        await wait_for(pilot, lambda: "the nightly backup finished" in screen_text(app), what="the report in the room")
