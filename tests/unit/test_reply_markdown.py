"""A reply's Markdown as lines: one blank line between blocks, numbers kept, the theme's colours."""

from __future__ import annotations

import pytest
from rich.console import Console

from keeltui.panes.chief.row_render import DEFAULT_LOOK, body_lines
from keeltui.text.markdown_look import markdown_theme
from dataclasses import replace

COLOURS = {"foreground": "#e0e0e0", "muted": "#8a8a8a", "primary": "#57a5e2", "secondary": "#5684a5",
           "accent": "#ffc473", "code-background": "#242f38"}
LOOK = replace(DEFAULT_LOOK, markdown=markdown_theme(COLOURS, dark=True))


def lines(text: str) -> list[str]:
    console = Console(width=40, color_system="truecolor")
    return ["".join(segment.text for segment in line).rstrip() for line in body_lines(console, text, 40, LOOK)]


@pytest.mark.parametrize("text, expected", [
    ("One.\n\nTwo.", ["One.", "", "Two."]),
    ("1. first item\n2. second", [" 1. first item", " 2. second"]),
    ("3. third\n4. fourth", [" 3. third", " 4. fourth"]),
    ("Intro:\n\n1. a\n2. b\n\nEnd **now**.", ["Intro:", "", " 1. a", " 2. b", "", "End now."]),
    ("- bullet\n- two\n\nAfter.", [" • bullet", " • two", "", "After."]),
    ("> a quote", ["▌ a quote"]),
    ("```python\nx = 1\n```\n\nDone.", [" python", " x = 1", "", "", "Done."]),
    ("```\nplain\n```", ["", " plain", ""]),
    ("| a | b |\n|---|---|\n| 1 | 2 |", [" a  b", " ────", " 1  2"]),
    ("# Title\nBody.", ["Title", "", "Body."]),
])
def test_markdown_lines(text, expected):
    assert lines(text) == expected


def _style_at(text: str, needle: str):
    console = Console(width=40, color_system="truecolor")
    for strip in body_lines(console, text, 40, LOOK):
        for seg in strip:
            if needle in seg.text:
                return seg.style
    raise AssertionError(needle)


@pytest.mark.parametrize("text, needle, attr, colour", [
    ("> careful now", "careful", "color", COLOURS["muted"]),        # muted, not an error's pink
    ("```python\nx = 1\n```", "python", "bgcolor", COLOURS["code-background"]),
    ("1. first", "1.", "color", COLOURS["primary"]),
])
def test_colours_come_from_the_theme(text, needle, attr, colour):
    assert getattr(_style_at(text, needle), attr).triplet.hex == colour
