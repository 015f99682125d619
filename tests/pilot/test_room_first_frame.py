"""The room's first frame: the newest rows stand in it beside the composer (issue 9, the bench's
"newest message on screen as fast as in an empty room")."""

from __future__ import annotations

from keeltui.shell.main_screen import MainScreen
from keeltui.store import Store
from tests.support.pilot import screen_text, wait_for

PLACEHOLDER = "Write to the Chief"


def _seed(path, text) -> None:
    """300 turns, the owner's and the companion's in turn: ``text(i)`` each."""
    seed = Store(path)
    room = seed.chief_id()
    for i in range(300):
        seed.add_message(room, "user" if i % 2 == 0 else "assistant", text(i))
    seed.close()


def _after_each_layout(monkeypatch, look) -> None:
    """``look(screen)`` after every layout pass of the main screen."""
    lay_out = MainScreen._refresh_layout

    def recording(screen, *args, **kwargs):
        lay_out(screen, *args, **kwargs)
        look(screen)

    monkeypatch.setattr(MainScreen, "_refresh_layout", recording)


async def test_the_first_frame_with_the_composer_shows_the_newest_row(make_app, tmp_path, monkeypatch):
    _seed(tmp_path / "k.db", lambda i: f"Row {i}.")
    frames: list[str] = []

    def recording(screen) -> None:
        # What each layout pass puts on screen, until the first one that shows the composer.
        if not frames or PLACEHOLDER not in frames[-1]:
            frames.append(screen_text(screen.app))

    _after_each_layout(monkeypatch, recording)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: frames and PLACEHOLDER in frames[-1], what="a frame with the composer")
        first = frames[-1]
        assert "Row 299." in first and "Row 298." in first, f"the first frame with the composer:\n{first}"
        assert "The room is empty" not in "".join(frames)
        # A screen of rows stands above the view (older ones are read as the view nears them),
        # so the first PageUp moves a full page at once.
        log = app.room.log_view
        await wait_for(pilot, lambda: log.scroll_y >= log.scrollable_content_region.height, what="a screen above the view")


async def test_the_first_frame_renders_the_rows_it_shows_and_markdown_the_screen_above(make_app, tmp_path, monkeypatch):
    # The first frame draws the newest rows as written, and Markdown draws every row again
    # right after it: rows above the view are rendered then, not for the plain frame too.
    _seed(tmp_path / "k.db", lambda i: f"Row {i}.\n\nA second paragraph.")
    first: dict[str, object] = {}

    def recording(screen) -> None:
        if not first and PLACEHOLDER in screen_text(screen.app):
            log = screen.app.room.log_view
            window, top = log.window, round(log.scroll_y)
            first["plain"] = log._plain
            first["above"] = [window.known[i] for i in range(len(window.rows)) if window.top(i) + window.heights[i] <= top]
            first["in_view"] = [window.known[i] for i in window.rows_in(top, log.scrollable_content_region.height)]

    _after_each_layout(monkeypatch, recording)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: bool(first), what="a frame with the composer")
        assert first["plain"] is True
        assert first["in_view"] and all(first["in_view"])  # what it shows is measured
        assert first["above"] and not any(first["above"])  # nothing above it yet
        log = app.room.log_view
        height = log.scrollable_content_region.height
        await wait_for(pilot, lambda: not log._plain and all(
            log.window.known[i] for i in log.window.rows_in(round(log.scroll_y) - height, height)),
            what="Markdown's rows measured a screen above the view")
