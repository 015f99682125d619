"""Every theme the palette's picker offers keeps the room readable (issue 21): body text,
system lines, their badges and the focused row at a contrast of at least 4.5:1 (WCAG),
measured on the colours the running app resolves from its CSS."""

from __future__ import annotations

from rich.color import Color

from keeltui.chief.row_colours import badge_components
from keeltui.text.themes import LIGHT_THEME, SHIPPED_THEMES
from tests.support.pilot import screen_text, wait_for

PAIRS = ("room-log--system", "room-log--system-cursor", "room-log--cursor", "room-log--match",
         *badge_components())


def luminance(color: Color) -> float:
    def channel(value: int) -> float:
        value_ = value / 255
        return value_ / 12.92 if value_ <= 0.03928 else ((value_ + 0.055) / 1.055) ** 2.4

    red, green, blue = color.get_truecolor()
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast(one: Color, other: Color) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


async def test_every_theme_on_the_picker_keeps_the_room_readable(make_app):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: "Write to the Chief" in screen_text(app), what="the room")
        assert sorted(app.available_themes) == sorted(SHIPPED_THEMES)  # the picker offers these only
        assert LIGHT_THEME in app.available_themes
        log = app.query_one("RoomLog")
        low: list[str] = []
        for name in SHIPPED_THEMES:
            app.theme = name
            await pilot.pause()
            body = log.rich_style
            measured = {"body": contrast(body.color, body.bgcolor)}
            for component in PAIRS:
                style = log.get_component_rich_style(component)
                measured[component] = contrast(style.color, style.bgcolor)
            low += [f"{name}: {part} {ratio:.2f}" for part, ratio in measured.items() if ratio < 4.5]
        assert not low, low
