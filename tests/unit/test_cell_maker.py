"""The seam's cells are made once per style and character (keeltui/terminal/textual_seam.py
CellMaker): the screen and the pieces kept hold shared cells, not a tuple for every cell of
every line; the tables are bounded, and the cells are the same values either way."""

from __future__ import annotations

from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from keeltui.terminal import textual_seam
from keeltui.terminal.textual_seam import CellMaker, CellsKept, cells_of

RED, GREY = Style(color="red"), Style(color="#808080", bold=True)
TRUE = ColorSystem.TRUECOLOR


def line(i: int) -> Strip:
    return Strip([Segment(" █ ", RED), Segment(f"row {i}: the quick brown fox 界 jumps", GREY), Segment("   ")])


def test_lines_in_the_same_styles_share_their_cells():
    kept = CellsKept()
    cells = [kept(line(i), TRUE) for i in range(200)]
    distinct = {id(cell) for row in cells for cell in row}
    assert len(distinct) < 60  # the characters of three styles, not 200 lines of ~45 cells
    assert cells[0] == cells_of(line(0), TRUE)  # the same values as cells made anew


def test_a_wide_characters_second_cell_is_the_styles_blank_cell():
    cells = cells_of(Strip([Segment("a界b", RED)]), TRUE, CellMaker())
    assert [cell[0] for cell in cells] == ["a", "界", "", "b"]
    assert cells[1][1:] == cells[2][1:] == cells[0][1:]


def test_the_tables_are_bounded_and_the_cells_stay_right(monkeypatch):
    monkeypatch.setattr(textual_seam, "STYLES_MADE", 4)
    monkeypatch.setattr(textual_seam, "CHARACTERS_MADE", 8)
    maker = CellMaker()
    styles = [Style(color=f"#0000{i:02x}") for i in range(10)]
    for style in styles:
        strip = Strip([Segment("abcdefghijklmnopqrstuvwxyz", style)])
        assert cells_of(strip, TRUE, maker) == cells_of(strip, TRUE)
    assert len(maker._styles) <= 4
    assert all(len(made) <= 8 + 26 for made in maker._styles.values())
