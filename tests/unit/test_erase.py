"""Blank runs painted by the terminal's erase (EL, ECH): fewer bytes, the same picture.

The picture is checked on a small terminal model (tests/support/terminal_model.py) that
applies cursor moves, SGR, EL, ECH and printed characters as a VT100 (and tmux) does.
What the seam sends must leave every cell looking as Textual's own rendering does.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.strip import Strip

from keeltui.terminal.textual_seam import Shown, SpanUpdate, cells_of, erases_in_background
from keeltui.text.erase import Run, erase_background, plan
from tests.support.terminal_model import Terminal

CONSOLE = Console(color_system="truecolor", width=200, legacy_windows=False)


def _painted(line: Strip, x1: int, x2: int, width: int, bce: bool) -> tuple[Terminal, str]:
    """The terminal after the seam paints ``[x1, x2)`` of ``line`` (nothing shown known), and the bytes."""
    shown = Shown()
    shown.forget(Size(width, 1))
    update = SpanUpdate(chops=[{0: line}], spans=[(0, x1, x2)], chop_ends=[[width]], shown=shown, background_erase=bce)
    sent = update.render_segments(CONSOLE)
    terminal = Terminal(width, 1, bce)
    terminal.feed(sent)
    return terminal, sent


def _meant(line: Strip, x1: int, x2: int, width: int, bce: bool) -> Terminal:
    """The terminal after Textual's own rendering of ``[x1, x2)`` of ``line``."""
    terminal = Terminal(width, 1, bce)
    terminal.feed(f"\x1b[1;{x1 + 1}H" + line.crop(x1, x2).render(CONSOLE))
    return terminal


BG = "on #121212"
STYLES = [None, Style.parse(BG), Style.parse(f"#e0e0e0 {BG}"), Style.parse(f"bold #4ebf71 {BG}"),
          Style.parse("#e0e0e0"), Style.parse(f"reverse #003054 {BG}"), Style.parse(f"underline #e0e0e0 {BG}"),
          Style.parse(f"strike {BG}"), Style.parse("on #300000"), Style.parse("italic")]
TEXTS = ["word", " ", "   ", " " * 17, " " * 40, "界", "a界 ", "x"]


@st.composite
def lines(draw):
    segments = draw(st.lists(st.tuples(st.sampled_from(TEXTS), st.sampled_from(STYLES)), min_size=1, max_size=8))
    strip = Strip([Segment(text, style) for text, style in segments])
    starts = [i for i, cell in enumerate(cells_of(strip, ColorSystem.TRUECOLOR)) if cell[0] != ""]
    x1 = draw(st.sampled_from(starts))
    x2 = draw(st.sampled_from([x for x in [*starts, strip.cell_length] if x > x1]))
    width = draw(st.sampled_from([strip.cell_length, strip.cell_length + 7]))
    return strip, x1, x2, width


@settings(max_examples=300, deadline=None)
@given(lines(), st.booleans())
def test_what_the_erase_leaves_on_screen_is_what_textual_meant(case, bce):
    strip, x1, x2, width = case
    painted, _sent = _painted(strip, x1, x2, width, bce)
    assert painted.look(0) == _meant(strip, x1, x2, width, bce).look(0)


@pytest.mark.parametrize(("line", "bce", "sent"), [
    # The blank end of a reply's line reaching the screen's edge: its style, then EL.
    (Strip([Segment("tide", Style.parse(f"#e0e0e0 {BG}")), Segment(" " * 36, Style.parse(f"#e0e0e0 {BG}"))]), True,
     "\x1b[1;1H\x1b[38;2;224;224;224;48;2;18;18;18mtide\x1b[K\x1b[0m"),
    # No background-colour erase: a coloured blank goes as spaces.
    (Strip([Segment("tide", Style.parse(BG)), Segment(" " * 6, Style.parse(BG))]), False,
     "\x1b[1;1H\x1b[48;2;18;18;18mtide      \x1b[0m"),
    # ... but a blank in the default background is erased on any terminal.
    (Strip([Segment("tide"), Segment(" " * 36)]), False, "\x1b[1;1Htide\x1b[K"),
    # Blanks in the middle: ECH, then the cursor past them.
    (Strip([Segment("a"), Segment(" " * 20), Segment("b")]), False, "\x1b[1;1Ha\x1b[20X\x1b[20Cb"),
    # Too few to be worth it.
    (Strip([Segment("a"), Segment(" " * 6), Segment("b")]), False, "\x1b[1;1Ha      b"),
    # A reversed blank shows its foreground: spaces.
    (Strip([Segment("a"), Segment(" " * 20, Style.parse("reverse"))]), True, "\x1b[1;1Ha\x1b[7m" + " " * 20 + "\x1b[0m"),
])
def test_which_bytes_paint_a_blank_run(line, bce, sent):
    width = line.cell_length
    painted, got = _painted(line, 0, width, width, bce)
    assert got == sent
    assert painted.look(0) == _meant(line, 0, width, width, bce).look(0)


@pytest.mark.parametrize(("codes", "background"), [
    ("", ""), ("0", ""), ("48;2;18;18;18", "48;2;18;18;18"), ("38;2;1;2;3;48;2;18;18;18", "48;2;18;18;18"),
    ("1;3;38;5;7;48;5;236", "48;5;236"), ("44", "44"), ("104;49", ""), ("7", None), ("4;48;5;1", None),
    ("9", None), ("53", None), ("21", None), ("4:3", None), ("38;2;1", None), ("58;5;1", None),
])
def test_erase_background_is_what_a_space_shows(codes, background):
    assert erase_background(codes) == background


def test_plan_runs():
    blank, word = (" ", "48;5;236", None), ("w", "48;5;236", None)
    cells = [word] + [blank] * 12 + [word] + [blank] * 5
    head = [Run(0, 1, None), Run(1, 13, "ECH"), Run(13, 14, None)]
    assert plan(cells, 0, 19, True) == [*head, Run(14, 19, "EL")]  # to the screen's edge
    assert plan(cells, 0, 20, True) == [*head, Run(14, 19, "ECH")]  # the span's end: no cursor move after
    assert plan([*cells, word], 0, 21, True) == [*head[:2], Run(13, 20, None)]  # 5 blanks, then a move: no gain
    assert plan(cells, 0, 19, False) == [Run(0, 19, None)]  # a coloured blank needs bce
    assert plan(cells, 0, None, True) == [*head, Run(14, 19, "ECH")]
    linked = [(" ", "", "https://x")] * 12
    assert plan(linked, 0, 12, True) == [Run(0, 12, None)]


def test_tmux_erases_in_the_current_background():
    assert erases_in_background({"TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"})
    assert erases_in_background({"TMUX": "/tmp/tmux-0/default,1,0", "TERM": "screen-256color"})
