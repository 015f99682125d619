"""The screen's partial updates: only the dirty cells, style codes once per change of style."""

from __future__ import annotations

from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from keeltui.panes.span_paint import SpanUpdate, clean_start, styled_runs

BG = Style.parse("on #121212")
BAR = Style.parse("#4ebf71 on #121212")


def test_clean_start_never_cuts_a_wide_character():
    strip = Strip([Segment("a界b")])
    assert clean_start(strip, 1) == 1
    assert clean_start(strip, 2) == 1  # the second cell of 界: start at the character
    assert clean_start(strip, 3) == 3


def test_styled_runs_sets_each_style_once_and_ends_reset():
    out: list[str] = []
    current = styled_runs(Strip([Segment("█", BAR), Segment(" ", BG), Segment("   ", BG), Segment("text")]),
                          ColorSystem.TRUECOLOR, out)
    assert current == ""
    assert "".join(out) == "\x1b[0;38;2;78;191;113;48;2;18;18;18m█\x1b[0;48;2;18;18;18m    \x1b[0mtext"


def test_a_span_is_painted_from_its_first_dirty_cell_not_its_widgets_left_edge():
    line = Strip([Segment("█", BAR), Segment(" ", BG), Segment("The tide turns at seven.")])
    update = SpanUpdate(chops=[{0: line}], spans=[(0, 17, 26)], chop_ends=[[26]])
    painted = update.render_segments(Console(color_system="truecolor"))
    assert painted == "\x1b[1;18Hat seven."
