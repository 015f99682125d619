"""Main's row features drawn by the room's log: a failure's words, the thinking block,
the row keys' cursor row."""

from __future__ import annotations

from keeltui.chief.failure_words import SERVER_ERROR, error_part, failure_words
from keeltui.chief.streaming import StreamBuffer
from keeltui.panes.common.events import ChiefReplyStarted
from keeltui.panes.chief.row_text import focused_row
from tests.support.pilot import wait_for
from tests.support.room_view import log_text

SIZE = (60, 24)


def shown(app) -> str:
    return "\n".join(log_text(app))


async def test_a_failed_reply_says_its_words_in_its_header_over_several_lines(make_app):
    app = make_app()
    room = app.store.chief_id()
    user = app.store.add_message(room, "user", "Tide times?")
    why = "the upstream gateway refused the request because the harbour master's schedule service is down"
    parts = [error_part(SERVER_ERROR, why, status=502)]
    reply = app.store.add_message(room, "assistant", "High tide is at", status="partial", reply_to=user)
    app.store.update_message(reply, parts=parts)
    words = failure_words("partial", app.store.message(reply).parts)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "High tide is at" in shown(app), what="the cut reply")
        lines = log_text(app)
        head = next(i for i, line in enumerate(lines) if "Chief" in line and "cut off" in line)
        body = next(i for i, line in enumerate(lines) if "High tide is at" in line)
        assert body - head >= 2, lines  # the words wrap: the header takes several lines
        header = " ".join(line.strip(" █") for line in lines[head:body])
        assert " ".join(f"({words})".split()) in " ".join(header.split()), (header, words)


async def test_the_thinking_streams_live_then_folds_and_t_unfolds_it_on_the_cursor_row(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        room = app.store.chief_id()
        user = app.store.add_message(room, "user", "How deep?")
        reply = app.store.add_message(room, "assistant", "", status="streaming", reply_to=user)
        buffer = StreamBuffer()
        app.room.post_message(ChiefReplyStarted(app.store.message(reply), buffer))
        buffer.thinking.append("Reading the charts.\nLow water springs.")
        await wait_for(pilot, lambda: "▾ thinking…" in shown(app) and "Low water springs." in shown(app),
                       what="the live thinking")
        buffer.thinking.end()
        buffer.append("Twelve metres.")
        await wait_for(pilot, lambda: "Twelve metres." in shown(app) and "▸ thought for" in shown(app),
                       what="the answer under the folded thinking")
        assert "Low water springs." not in shown(app)
        app.room.log_view.focus_row(reply)
        await pilot.press("t")
        await wait_for(pilot, lambda: "Low water springs." in shown(app), what="the thinking unfolded")
        lines = log_text(app)
        assert next(i for i, x in enumerate(lines) if "▾ thought for" in x) < next(
            i for i, x in enumerate(lines) if "Twelve metres." in x)
        assert focused_row(app.room.log_view).row_id == reply  # the row keys (y, v) act on the cursor row
        await pilot.press("up")
        assert focused_row(app.room.log_view).row_id == user
        assert focused_row(app.room.log_view).text == "How deep?"
