"""What a streaming reply sends to the terminal, and how its rows look (issue 9, point 1).

Real parts: the loopback OpenAI-compatible server, the real client, a real SQLite file,
and Textual's own compositor; each frame is the real update rendered to terminal bytes.
"""

from __future__ import annotations

import threading
from dataclasses import replace

from keeltui_dev.loopback import Reply
from tests.pilot.test_room_controls import send
from tests.support.pilot import screen_text, wait_for
from tests.support.room_view import row_region

SIZE = (100, 30)


def record_frames(app) -> list[str]:
    """The terminal bytes of every frame from now on (the headless app draws nothing)."""
    frames: list[str] = []
    real = app._display

    def display(screen, renderable) -> None:
        if renderable is not None and hasattr(renderable, "render_segments"):
            frames.append(renderable.render_segments(app.console))
        real(screen, renderable)

    app._display = display
    return frames


async def test_a_flush_sends_the_new_words_not_the_line_they_join(make_app, loopback):
    # The second chunk waits for the gate: a loaded machine cannot let it land before the
    # frames are watched (a timed gap could).
    gate = threading.Semaphore(0)
    loopback.queue(Reply(chunks=["Alpha bravo ", "charlie delta ", "echo."], gate=gate))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        frames = record_frames(app)
        await send(pilot, "spell it")
        # Waited on what the terminal was sent, not the screen: reading the screen repaints it.
        await wait_for(pilot, lambda: any("Alpha bravo" in f for f in frames), what="the first chunk sent")
        frames.clear()
        gate.release()  # "charlie delta"; "echo." waits, so the reply is still streaming
        await wait_for(pilot, lambda: "charlie delta" in (app.room.log_view.stream_text() or ""), what="the second chunk")
        await wait_for(pilot, lambda: any("charlie" in f for f in frames), what="the frame with the second chunk")
        frame = next(f for f in frames if "charlie" in f)
        gate.release()
        # The words already on the line and the row's bar and padding are not sent again.
        assert "Alpha" not in frame and "bravo" not in frame, repr(frame)


def row_cells(app, row_id: int) -> list[list[tuple[str, object]]]:
    """The cells (character and style) the screen shows for row ``row_id``'s box."""
    region = row_region(app, row_id)
    lines = app.screen._compositor.render_strips()[region.y:region.bottom]
    out = []
    for strip in lines:
        row = []
        for seg in strip.crop(region.x, region.right):
            row.extend((ch, seg.style) for ch in seg.text)
        out.append(row)
    return out


async def test_a_streaming_box_holds_only_its_text_and_the_finished_row_looks_as_after_a_restart(make_app, loopback):
    loopback.queue(Reply(chunks=["The tide ", "turns at seven."], chunk_delay=1.5))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "when is the tide?")
        await wait_for(pilot, lambda: "The tide" in screen_text(app), what="the first chunk")
        reply_id = app.room.streaming_row_id
        text_rows = 2  # the header and the one line of text
        # No rows held to grow into: they moved the room down when a short reply ended.
        assert row_region(app, reply_id).height == text_rows
        shown = row_cells(app, reply_id)
        bar = shown[0][0]
        assert bar[0].strip(), "the header row carries the bar"
        await wait_for(pilot, lambda: "turns at seven." in screen_text(app)
                       and app.room.log_view.row(reply_id).status == "complete", what="the finished reply")
        await pilot.pause(0.2)
        finished = row_cells(app, reply_id)
    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "turns at seven." in screen_text(again), what="the restarted room")
        await pilot.pause(0.3)  # Markdown is formatted right after the first frame
        restarted = row_cells(again, reply_id)
    assert finished == restarted



async def test_the_first_words_land_in_the_box_without_moving_the_room(make_app, loopback):
    # The box takes its rows to grow into when it appears (with the header): the first
    # chunk only fills in its words, where a box that grew then moved every row on
    # screen and sent the whole room to the terminal again.
    # The second chunk waits for the test: under load the first one must not come and go
    # (the stream ending) between two looks at the log.
    gate = threading.Semaphore(0)
    loopback.queue(Reply(chunks=["The tide ", "turns at seven."], delay=1.5, gate=gate))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "when is the tide?")
        await wait_for(pilot, lambda: app.room.streaming_row_id is not None and "Chief" in screen_text(app),
                       what="the reply's header")
        await pilot.pause(0.2)
        lines = screen_text(app).splitlines()
        asked_at = next(i for i, line in enumerate(lines) if "when is the tide?" in line)
        log = app.room.log_view
        await pilot.pause(0.2)  # the repaint that reading the screen asked for
        frames = record_frames(app)
        # Waited on the log, not the screen: reading the screen repaints all of it.
        await wait_for(pilot, lambda: "The tide" in (log.stream_text() or ""), timeout=20, what="the first chunk")
        await pilot.pause(0.3)
        gate.release()
        sent = list(frames)
        lines = screen_text(app).splitlines()
        assert any("The tide" in line for line in lines)
        assert next(i for i, line in enumerate(lines) if "when is the tide?" in line) == asked_at
        assert any("The tide" in frame for frame in sent)
        assert not any("when is the tide?" in frame for frame in sent), "the room was sent again"


async def test_a_repaint_sends_only_the_cells_that_changed_on_the_terminal(make_app, loopback):
    # A scroll or a move marks a widget dirty from edge to edge; cells the terminal already
    # shows (the scrollbar's track, a row's bar, the blank end of a line) are not sent again.
    loopback.queue(Reply(text="The tide turns at seven."))
    app = make_app()
    frames = record_frames(app)  # from the first frame: the terminal shows all it was sent
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "when is the tide?")
        await wait_for(pilot, lambda: "turns at seven." in screen_text(app) and not app.room.composer.busy,
                       what="the reply")
        await pilot.pause(0.3)
        frames.clear()
        app.room.log_view.refresh()  # the whole room dirty, nothing in it changed
        await pilot.pause(0.3)
        assert "".join(frames) == "", repr(frames)
        log = app.room.log_view
        log.update_rows([replace(log.row(app.room.mounted_ids[-1]), content="The tide turns at eight.")])
        await wait_for(pilot, lambda: any("eight" in frame for frame in frames), what="the changed word")
        assert not any("tide" in frame for frame in frames), repr(frames)

