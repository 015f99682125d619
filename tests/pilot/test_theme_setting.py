"""``[ui] theme`` is read at start, and a theme chosen in the command palette's picker is
saved there (comments kept) and shown again after a restart (issue 21)."""

from __future__ import annotations

import tomllib

from tests.conftest import app_for
from tests.support.pilot import screen_text, wait_for


async def test_the_configured_theme_is_shown_from_the_start(make_app):
    app = make_app('\n[ui]\ntheme = "textual-light"\n')
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Write to the Chief" in screen_text(app), what="the room")
        assert app.theme == "textual-light"
        assert not app.current_theme.dark


async def test_a_theme_picked_in_the_palette_is_saved_and_kept_after_a_restart(make_app, tmp_path):
    app = make_app('\n[ui]\n# the owner\'s comment\ntheme = "textual-dark"\n')
    path = tmp_path / "config.toml"
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: "Write to the Chief" in screen_text(app), what="the room")
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: "Search for commands" in screen_text(app), what="the palette")
        await pilot.press(*"theme")
        await wait_for(pilot, lambda: "Change the current theme" in screen_text(app), what="the Theme command")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Search for themes" in screen_text(app), what="the theme picker")
        assert "monokai" not in screen_text(app)  # not shipped: its contrast is too low
        await pilot.press(*"nord")
        await wait_for(pilot, lambda: "nord" in screen_text(app).split("Search for themes")[-1], what="nord listed")
        await pilot.press("enter")
        await wait_for(pilot, lambda: tomllib.loads(path.read_text())["ui"]["theme"] == "nord", what="nord saved")
        assert app.theme == "nord"
    assert "# the owner's comment" in path.read_text()
    stores: list = []
    again = app_for(path, stores)
    try:
        async with again.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: "Write to the Chief" in screen_text(again), what="the room again")
            assert again.theme == "nord"
    finally:
        for store in stores:
            store.close()
