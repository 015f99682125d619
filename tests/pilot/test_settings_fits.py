"""F2's settings are whole at 80x24 (issue 21): the mode line used to be cut at the
dialog's edge ("notify (also one toast" and no more)."""

from __future__ import annotations

from keeltui.panes.ambient.modals import SettingsScreen
from tests.support.pilot import screen_text, wait_for


async def test_the_settings_dialog_is_whole_at_80x24(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Write to the Chief" in screen_text(app), what="the room")
        # F2 opens the ambient settings once the ambient controller is there (after the first frame).
        await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted, what="ambient mounted")
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen) and "Esc cancels" in screen_text(app),
                       what="the settings dialog")
        text = screen_text(app)
        assert "notify (also one toast per drift)" in text
        lines = text.splitlines()
        assert "╭" in lines[0] and any("╰" in line for line in lines[1:-1])  # both edges on screen
        for needed in ("Ambient settings", "Seconds between judgements", "Apply", "Cancel", "Models…", "Persona…"):
            assert needed in text, needed
