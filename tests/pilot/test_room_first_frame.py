"""The room's first frame: the newest rows stand in it beside the composer (issue 9, the bench's
"newest message on screen as fast as in an empty room")."""

from __future__ import annotations

from keeltui.shell.main_screen import MainScreen
from keeltui.store import Store
from tests.support.pilot import screen_text, wait_for

PLACEHOLDER = "Write to the Chief"


async def test_the_first_frame_with_the_composer_shows_the_newest_row(make_app, tmp_path, monkeypatch):
    seed = Store(tmp_path / "k.db")
    room = seed.chief_id()
    for i in range(300):
        seed.add_message(room, "user" if i % 2 == 0 else "assistant", f"Row {i}.")
    seed.close()
    frames: list[str] = []
    lay_out = MainScreen._refresh_layout

    def recording(screen, *args, **kwargs):
        # What each layout pass puts on screen, until the first one that shows the composer.
        lay_out(screen, *args, **kwargs)
        if not frames or PLACEHOLDER not in frames[-1]:
            frames.append(screen_text(screen.app))

    monkeypatch.setattr(MainScreen, "_refresh_layout", recording)
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
