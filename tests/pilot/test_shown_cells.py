"""The screen sends only the cells that differ from what the terminal shows (terminal/textual_seam.py).

A small terminal is fed every frame the app writes, another the same updates as Textual
itself writes them (every cell of each dirty span); after each frame both show the same
cells (character and style; a blank by its background, as it looks), through a
streamed reply that scrolls the room, a dialog above the screen, and a resize.
Real parts: the loopback OpenAI-compatible server, the real client, a real SQLite file.
"""

from __future__ import annotations

from textual._compositor import ChopsUpdate

from keeltui.terminal.textual_seam import erases_in_background
from keeltui_dev.loopback import Reply
from tests.pilot.test_room_controls import send
from tests.support.pilot import wait_for
from tests.support.terminal_model import Terminal


def textual_bytes(update, console) -> str:
    """What Textual's own update writes: every cell of its dirty spans."""
    base = ChopsUpdate if isinstance(update, ChopsUpdate) else type(update)
    return base.render_segments(update, console)


def watch(app, mismatches: list[str]) -> Terminal:
    """Two terminals fed every frame from the first: one the app's bytes, one Textual's own
    rendering of the same updates. After each frame they must show the same cells."""
    ours, textuals = Terminal(0, 0), Terminal(0, 0)
    real = app._display

    def display(screen, renderable) -> None:
        if renderable is not None and hasattr(renderable, "render_segments"):
            if app.size != (ours.width, ours.height):
                ours.__init__(*app.size, bce=erases_in_background())  # the app's own choice of erase
                textuals.__init__(*app.size)
            ours.feed(renderable.render_segments(app.console))
            textuals.feed(textual_bytes(renderable, app.console))
            for y, (seen, wanted) in enumerate(zip(ours.cells, textuals.cells, strict=False)):
                if ours.look(y) != textuals.look(y) and len(mismatches) < 5:
                    where = next(x for x, (a, b) in enumerate(zip(ours.look(y), textuals.look(y), strict=False)) if a != b)
                    mismatches.append(f"row {y} from column {where}: {''.join(c for c, _ in seen)!r} "
                                      f"where Textual paints {''.join(c for c, _ in wanted)!r}")
        real(screen, renderable)

    app._display = display
    return ours


async def test_the_terminal_shows_what_textual_paints_through_scrolls_a_dialog_and_a_resize(make_app, loopback):
    paragraphs = [f"Paragraph {p}: " + " ".join(f"word{p}x{i}" for i in range(40)) + "\n\n" for p in range(12)]
    chunks = [piece + " " for text in paragraphs for piece in text.split(" ")]
    loopback.queue(Reply(chunks=chunks, chunk_delay=0.004), Reply(text="Short and sweet."))
    app = make_app()
    mismatches: list[str] = []
    ours = watch(app, mismatches)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.3)
        await send(pilot, "a long one please")
        await wait_for(pilot, lambda: app.room.streaming_row_id is None and not app.room.composer.busy
                       and "word11x39" in app.room.log_view.row(app.room.mounted_ids[-1]).content,
                       timeout=30, what="the long reply, scrolled several times")
        assert ours.scrolled > 0  # the room followed the reply by moving what showed, not sending it again
        await pilot.press("ctrl+p")  # a dialog draws over the screen
        await pilot.pause(0.3)
        await pilot.press("escape")
        await pilot.pause(0.3)
        await send(pilot, "and a short one")
        await wait_for(pilot, lambda: not app.room.composer.busy and app.room.streaming_row_id is None,
                       timeout=20, what="the short reply")
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.3)
        await pilot.press("pageup", "pageup", "end")
        await pilot.pause(0.3)
    assert not mismatches, "\n".join(mismatches)


async def test_a_pilot_app_draws_in_the_colours_the_real_app_meets_in_tmux(make_app):
    # One colour system in the test process (tests/conftest.py sets COLORTERM): Rich keeps a
    # style's codes for the first colour system that drew it, and a 16-colour pilot app drew
    # with the truecolor codes an earlier test had left on shared styles.
    app = make_app()
    async with app.run_test(size=(40, 10)):
        assert app.console.color_system == "truecolor"
