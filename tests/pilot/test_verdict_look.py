"""The plan's Decline is neutral (issue 21): declining asks for a revision, it is no
error, so it is not drawn in the theme's error colour (Accept keeps its green)."""

from __future__ import annotations

from textual.app import App
from textual.color import Color
from textual.widgets import Button

from keeltui.panes.common.composer import Composer
from tests.support.pilot import wait_for


class VerdictOnly(App):
    def compose(self):
        yield Composer("Answer, ask, or note…")


async def test_decline_is_neutral_and_accept_is_green_in_every_mode():
    app = VerdictOnly()
    async with app.run_test(size=(80, 24)) as pilot:
        composer = app.query_one(Composer)
        composer.verdict_mode = True
        decline = app.query_one("#decline", Button)
        await wait_for(pilot, lambda: decline.display and decline.region.width > 0, what="the verdict buttons")
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            await pilot.pause()
            error = Color.parse(app.get_css_variables()["error"])
            declined = decline.styles.background
            assert declined.hsl.s < 0.3, (theme, declined)  # a neutral, grey-ish panel colour
            assert error.hsl.s > 0.3  # (the error colour it used to be is not)
