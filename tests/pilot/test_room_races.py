"""Widget id races in the Chief room, reproduced deterministically (issue 11, point 2)."""

from __future__ import annotations

from keeltui.chief.streaming import StreamBuffer
from keeltui.panes.common.events import ChiefReplyFinished, ChiefReplyStarted
from tests.support.pilot import screen_text, wait_for

SIZE = (100, 30)


async def test_a_refresh_between_storing_the_reply_row_and_its_start_mounts_it_once(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        store = app.store
        room_id = store.chief_id()
        user_id = store.add_message(room_id, "user", "are the boats in?")
        reply_id = store.add_message(room_id, "assistant", "", status="streaming", reply_to=user_id)
        # The store watcher runs after the worker stored the row, before the app handles its start.
        app.room.refresh_from_store()
        assert app.room.shows(reply_id)
        buffer = StreamBuffer()
        app.room.post_message(ChiefReplyStarted(store.message(reply_id), buffer))
        buffer.append("All boats are in the harbour.")
        await wait_for(pilot, lambda: "All boats are in the harbour." in screen_text(app), what="the streamed text")
        assert app.room.mounted_ids.count(reply_id) == 1
        assert app.room.streaming_row_id == reply_id
        assert app.room.foreign_streaming_ids() == []
        store.update_message(reply_id, content="All boats are in the harbour.", status="complete")
        app.room.post_message(ChiefReplyFinished(store.message(reply_id), None))
        await wait_for(pilot, lambda: app.room.streaming_row_id is None and "Chief  …" not in screen_text(app),
                       what="the finished reply")
        assert "All boats are in the harbour." in screen_text(app)
        assert app.is_running
