"""A tutor turn reads like a Chief reply: one blank line between its blocks, never two.

Seen at 80x24: a tutor message with a Markdown list after a paragraph showed two blank
lines between them (Rich's Markdown leaves a blank line after each block, and the turn
put one more between blocks)."""

from __future__ import annotations

import pytest
from rich.console import Console, Group

from keeltui.panes.tutor.chat_message import body_renderables


def _lines(text: str) -> list[str]:
    console = Console(width=60, color_system=None, legacy_windows=False)
    with console.capture() as capture:
        console.print(Group(*body_renderables(text)))
    return [line.rstrip() for line in capture.get().splitlines()]


@pytest.mark.parametrize("text", [
    "A first paragraph.\n\n- one\n- two\n\nA last paragraph.",
    "**Bold** opening.\n\n1. first\n2. second\n\n> a quote\n\nDone.",  # (a code block's shaded
    # padding row below its code reads as blank without colours: not in these cases)
    "Plain.\n\nAlso plain.",
])
def test_blocks_are_one_blank_line_apart_and_nothing_trails(text):
    lines = _lines(text)
    assert lines and lines[0] and lines[-1], lines  # no blank line above or below the turn's body
    blanks_in_a_row = max((len(run) for run in "".join("x" if line else "b" for line in lines).split("x")), default=0)
    assert blanks_in_a_row <= 1, lines
