"""The tutor tab never shows its own name (issue 21): before the tutor pane is mounted
(right after the first frame), a quick Ctrl+T showed the raw text "TabPane#tutor-tab"."""

from __future__ import annotations

from textual.widgets import Static

from tests.support.layout_app import LayoutOnly
from tests.support.pilot import repeat_until, screen_text, wait_for


async def test_the_tutor_tab_says_the_tutor_is_coming_not_its_widget_name():
    app = LayoutOnly()
    async with app.run_test(size=(80, 24)) as pilot:
        async def show_the_tutor_tab():
            # The tabs take their initial tab once they are ready: switch until it sticks.
            app.main.panes.active = "tutor-tab"
            await pilot.pause(0.05)

        await repeat_until(pilot, show_the_tutor_tab, lambda: app.main.panes.active == "tutor-tab"
                           and "Say something below" not in screen_text(app), what="the tutor tab")
        assert "TabPane" not in screen_text(app)
        assert "The tutor is on its way…" in screen_text(app)
        app.main.mount_tutor(Static("the tutor pane", id="tutor-pane"))
        await wait_for(pilot, lambda: "the tutor pane" in screen_text(app), what="the pane in its tab")
        assert "on its way" not in screen_text(app)
