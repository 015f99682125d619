"""A long reply streaming into the room (issue 19): each flush renders the lines that changed,
Escape stops a long code block at once, and neither its end nor the stop renders it again whole.

Real parts: the loopback server and the real client, a real SQLite file; the log's
``lines_rendered`` counts the lines rendered from text (the public hook the tests read).
"""

from __future__ import annotations

import threading

from keeltui.panes.chief.room_stream import FENCE_PIECE
from keeltui.panes.chief.row_render import row_lines
from keeltui_dev.loopback import Reply
from tests.pilot.test_room_controls import send
from tests.support.pilot import screen_text, wait_for

SIZE = (100, 30)
OPENER = "Here is the file:\n\n```python\n"


def code(i: int) -> str:
    return f"value_{i:05d} = {i}\n"


def code_lines(text: str) -> int:
    return text.count("value_")


async def test_escape_stops_a_long_code_block_and_its_end_renders_only_what_changed(make_app, loopback):
    total, before_escape = 5_000, 400
    gate = threading.Semaphore(0)
    loopback.queue(Reply(chunks=[OPENER, *(code(i) for i in range(total)), "```\n", "Done."], gate=gate))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "stream the file")
        log = app.room.log_view
        for _ in range(before_escape):
            gate.release()
        newest = code(before_escape - 1).strip()
        await wait_for(pilot, lambda: newest in screen_text(app), timeout=60, what=f"code line {before_escape - 1} on screen")
        reply_id, rendered = log.streaming_row_id, log.lines_rendered
        streamed = log._stream.lines  # the reply's lines as it streams (the row's lines once it stops)
        # The next chunks are on their way when the owner presses Escape.
        for _ in range(50):
            gate.release()
        await pilot.press("escape")
        await wait_for(pilot, lambda: log.streaming_row_id is None and log.row(reply_id).status == "stopped",
                       timeout=60, what="the reply stopped")
        stored = app.store.message(reply_id).content
        landed = code_lines(stored) - before_escape
        assert 0 <= landed <= 50 and "Done." not in stored  # stopped: the thousands of lines after never came
        # From the key to the stopped row on screen: the lines that came since, the block's
        # unfinished piece and the header, not the reply's hundreds of lines again.
        assert log.lines_rendered - rendered <= landed + 2 * FENCE_PIECE + 10, (log.lines_rendered - rendered, landed)
        last = stored.rstrip("\n").rsplit("\n", 1)[-1].strip()
        await wait_for(pilot, lambda: last in screen_text(app), what="the last line kept, on screen")
        # Nor copied: the stopped row keeps the very lines the stream made (a 5 000-line
        # block made into the cache's form at the stop held Escape some 60 ms).
        body = streamed.settled + streamed.tail
        kept = log._box_lines(log.row(reply_id))
        assert len(body) > before_escape and all(a is b for a, b in zip(kept[-len(body):], body, strict=True))


async def test_each_flush_renders_the_new_lines_and_the_finished_row_draws_as_after_a_restart(make_app, loopback):
    total = 200
    gate = threading.Semaphore(0)
    loopback.queue(Reply(chunks=[OPENER, *(code(i) for i in range(total)), "```\n", "Done, all of it."], gate=gate))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "stream the file")
        log = app.room.log_view
        await wait_for(pilot, lambda: log.streaming_row_id is not None and "Here is the file" in screen_text(app),
                       what="the reply's first chunk")
        reply_id = log.streaming_row_id
        step = 10
        for sent in range(step, total + 1, step):
            before = log.lines_rendered
            for _ in range(step):
                gate.release()
            newest = code(sent - 1).strip()
            await wait_for(pilot, lambda: newest in screen_text(app), what=f"code line {sent - 1} on screen")
            # Bounded by the lines that came and the block's unfinished piece (it may be drawn
            # twice if two flushes shared the step), however long the block grew.
            assert log.lines_rendered - before <= step + 2 * FENCE_PIECE + 5, (sent, log.lines_rendered - before)
        before = log.lines_rendered
        for _ in range(3):  # the block closes, a line of text follows it, the reply ends
            gate.release()
        await wait_for(pilot, lambda: log.streaming_row_id is None and log.row(reply_id).status == "complete",
                       what="the finished reply")
        await wait_for(pilot, lambda: "Done, all of it." in screen_text(app), what="the text after the block")
        # Neither the closing of the block nor the reply's end rendered its 200 lines again.
        assert log.lines_rendered - before <= FENCE_PIECE + 10, log.lines_rendered - before
        row = log.row(reply_id)
        drawn = ["".join(segment[0] for segment in log.cache.segments(line)) for line in log._box_lines(row)]
        fresh = ["".join(segment.text for segment in line)
                 for line in row_lines(row, log.companion_name, log._width, log.look(), log._shape(row), app.console)]
        assert drawn == fresh  # what the stream left is what the stored row renders to


def colour_on_screen(app, needle: str):
    """The foreground colour of the first cell of ``needle`` where the screen shows it (None: not shown)."""
    update = app.screen._compositor.render_full_update()
    app.screen.refresh()  # the full render above consumed the pending dirty regions
    for line in update.strips:
        segments = [segment for strip in line for segment in strip]
        at = "".join(segment.text for segment in segments).find(needle)
        if at < 0:
            continue
        x = 0
        for segment in segments:
            if x + len(segment.text) > at:
                return segment.style.color if segment.style else None
            x += len(segment.text)
    return None


async def test_a_docstring_across_a_piece_edge_is_coloured_as_a_string_once_the_reply_ends(make_app, loopback):
    # Each piece of a streaming code block is highlighted on its own: after the edge the
    # docstring was coloured as code and its closing quotes opened a string that ran to the
    # end of the block, in the finished row too. The row is rendered whole off the UI thread.
    start = FENCE_PIECE - 6  # the docstring opens a few lines above the first piece's edge
    code_lines_ = (["def f():"] + [f"    x_{i} = {i}" for i in range(1, start)] + ['    """The docstring opens here']
                   + [f"    doc line {i:02d}" for i in range(12)] + ['    """'] + [f"    y_{i} = {i}" for i in range(6)])
    text = "Here:\n\n```python\n" + "\n".join(code_lines_) + "\n```\n\nDone, all of it."
    loopback.queue(Reply(chunks=[line + "\n" for line in text.split("\n")], chunk_delay=0.005))
    app = make_app()
    async with app.run_test(size=(100, 60)) as pilot:
        await send(pilot, "a function please")
        log = app.room.log_view
        await wait_for(pilot, lambda: "Done, all of it." in screen_text(app) and log.streaming_row_id is None,
                       what="the finished reply")
        before_edge, after_edge = "doc line 00", "doc line 10"  # code lines 15 and 25: the first piece ends at 20
        await wait_for(pilot, lambda: colour_on_screen(app, after_edge) == colour_on_screen(app, before_edge)
                       and colour_on_screen(app, "y_3") == colour_on_screen(app, "x_3"),
                       what="the docstring coloured as a string past the edge, the code after it as code")
        assert colour_on_screen(app, before_edge) != colour_on_screen(app, "x_3")  # a string is not coloured as code


async def test_a_whole_render_that_comes_after_its_row_changed_is_not_kept(make_app, loopback):
    # The row was edited (or the width or theme changed) while its whole render ran: the lines
    # are for a row that no longer shows, and would only take the cache's room.
    loopback.queue(Reply(text="A short answer."))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "hello")
        log = app.room.log_view
        await wait_for(pilot, lambda: "A short answer." in screen_text(app) and log.streaming_row_id is None,
                       what="the reply")
        row_id = log.row_ids[-1]
        stale = ("an older drawing of the row",)
        log.post_message(log.RenderedWhole(stale, row_id, [()]))
        current = log._cache_key(log.row(row_id))
        whole = [tuple(log.cache.segments(line)) for line in log._box_lines(log.row(row_id))]
        log.post_message(log.RenderedWhole(current, row_id, whole))
        await pilot.pause()
        await wait_for(pilot, lambda: log.cache.get(current) is not None and log.cache.get(current)[0] is whole[0],
                       what="the current drawing kept")
        assert stale not in log.cache
        # Kept as they came, not packed on the UI thread (a 5 000-line block: 30-80 ms of keys held).
        assert all(a is b for a, b in zip(log.cache.get(current), whole, strict=True))
