"""The screen's partial updates: only the dirty cells, style codes once per change of style."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from textual._compositor import Compositor
from textual.geometry import Region, Size

from keeltui.terminal.textual_seam import (
    Shown,
    SpanUpdate,
    _unsent,
    bands,
    best_shift,
    CellsKept,
    cells_of,
    clean_start,
    hidden,
    styled_runs,
)

OFF = {22: (1, 2), 23: (3,), 24: (4, 21), 25: (5, 6), 27: (7,), 28: (8,), 29: (9,)}
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
    assert current is None
    # The padding shares the bar's background: only the foreground is reset.
    assert "".join(out) == "\x1b[38;2;78;191;113;48;2;18;18;18m█\x1b[39m    \x1b[0mtext"


def test_a_reversed_cell_beside_the_text_adds_the_attribute_not_a_reset():
    out: list[str] = []
    styled_runs(Strip([Segment("a", BG), Segment(" ", Style.parse("reverse #003054 on #121212")), Segment("b", BG)]),
                ColorSystem.TRUECOLOR, out)
    assert "".join(out) == "\x1b[48;2;18;18;18ma\x1b[7;38;2;0;48;84m \x1b[27;39mb"


def _cells_seen(stream: str) -> list[tuple[str, tuple]]:
    """Each printed character with the SGR state it was printed in (a small terminal)."""
    state: dict[str, object] = {}
    cells = []
    for codes, text in re.findall(r"(?:\x1b\[([0-9;]*)m)?([^\x1b]*)", stream):
        params = codes.split(";") if codes else []
        i = 0
        while i < len(params):
            p = int(params[i] or 0)
            if p == 0:
                state = {}
            elif p in (38, 48):
                width = 5 if params[i + 1] == "2" else 3
                state["fg" if p == 38 else "bg"] = tuple(params[i:i + width])
                i += width - 1
            elif p == 39:
                state.pop("fg", None)
            elif p == 49:
                state.pop("bg", None)
            elif p in OFF:  # an attribute cleared alone
                for attr in OFF[p]:
                    state.pop(f"attr{attr}", None)
            else:
                state[f"attr{p}"] = True
            i += 1
        cells.extend((ch, tuple(sorted(state.items()))) for ch in text)
    return cells


def test_styled_runs_paint_every_cell_as_textual_does():
    bold_red = Style.parse("bold #ff0000 on #121212")
    strips = [
        Strip([Segment("█", BAR), Segment(" ", BG), Segment("plain "), Segment("bold", bold_red),
               Segment(" ", BG), Segment("it", Style.parse("italic #e0e0e0 on #121212")), Segment("x", BAR)]),
        Strip([Segment("a", Style.parse("#e0e0e0")), Segment("b", Style.parse("on #121212")), Segment("c")]),
        # A scrollbar's track (the colours reversed) beside the text, and back: an attribute
        # added or cleared alone, with the colours that change.
        Strip([Segment("t", BG), Segment(" ", Style.parse("reverse #003054 on #121212")), Segment("u", BG),
               Segment("v", Style.parse("bold italic strike #e0e0e0 on #121212")), Segment("w", Style.parse("bold #e0e0e0")),
               Segment("x", Style.parse("dim #e0e0e0")), Segment("y", Style.parse("underline #e0e0e0"))]),
    ]
    for strip in strips:
        out: list[str] = []
        if styled_runs(strip, ColorSystem.TRUECOLOR, out) is not None:
            out.append("\x1b[0m")
        assert _cells_seen("".join(out)) == _cells_seen(strip.render(Console(color_system="truecolor")))


def test_a_span_is_painted_from_its_first_dirty_cell_not_its_widgets_left_edge():
    line = Strip([Segment("█", BAR), Segment(" ", BG), Segment("The tide turns at seven.")])
    update = SpanUpdate(chops=[{0: line}], spans=[(0, 17, 26)], chop_ends=[[26]])
    painted = update.render_segments(Console(color_system="truecolor"))
    assert painted == "\x1b[1;18Hat seven."


def test_shown_cells_crop_a_span_to_what_differs_never_cutting_a_wide_character():
    shown = Shown()
    shown.forget(Size(10, 1))
    old = cells_of(Strip([Segment("ab界cd", BG)]), ColorSystem.TRUECOLOR)
    assert shown.changed(0, 0, old) == (0, 6)  # nothing known: all of it
    shown.record(0, 0, old)
    assert shown.changed(0, 0, old) is None
    new = cells_of(Strip([Segment("ab界ce", BG)]), ColorSystem.TRUECOLOR)
    assert shown.changed(0, 0, new) == (5, 6)
    wide = cells_of(Strip([Segment("ab国cd", BG)]), ColorSystem.TRUECOLOR)
    assert shown.changed(0, 0, wide) == (2, 4)  # both cells of the character
    recoloured = cells_of(Strip([Segment("ab界cd", BAR)]), ColorSystem.TRUECOLOR)
    assert shown.changed(0, 0, recoloured) == (0, 6)


@pytest.mark.parametrize(("ys", "runs"), [
    ([], []), ([3], [(3, 3)]), ([1, 2, 3, 7, 8, 10], [(1, 3), (7, 8), (10, 10)]),
])
def test_bands_are_the_runs_of_consecutive_lines(ys, runs):
    assert bands(ys) == runs


def _lines(*names: str) -> list[tuple]:
    return [(name,) for name in names]


@pytest.mark.parametrize(("old", "new", "shift"), [
    ("abcdefgh", "bcdefghX", 1),  # a line came in at the foot
    ("abcdefgh", "defghXYZ", 3),  # three at once
    ("abcdefgh", "abcdefgX", 0),  # only the last line changed: nothing moved
    ("abcdefgh", "XYZWVUTS", 0),  # all new: nothing to move
    ("abcdefgh", "hXYZWVUT", 0),  # one line in common is not worth a scroll
    ("ab  cd  ", "  cd  XY", 2),  # blank lines match many shifts; the true one matches most
])
def test_best_shift_finds_how_far_the_lines_moved_up(old, new, shift):
    assert best_shift(_lines(*new), _lines(*old)) == shift


@pytest.mark.parametrize(("area", "in_front", "hidden_"), [
    (Region(0, 0, 10, 3), [Region(0, 0, 10, 3)], True),
    (Region(0, 0, 10, 3), [Region(0, 0, 9, 3), Region(9, 0, 1, 3)], True),  # a log and its scrollbar
    (Region(0, 0, 10, 3), [Region(0, 0, 9, 3)], False),  # a column shows
    (Region(0, 0, 10, 3), [Region(0, 0, 10, 2)], False),  # a line shows
    (Region(2, 1, 3, 1), [Region(0, 0, 10, 3)], True),
    (Region(0, 0, 10, 3), [], False),
])
def test_hidden_is_every_cell_behind_a_region_in_front(area, in_front, hidden_):
    assert hidden(area, in_front) is hidden_


def painted_app(css: str, *front):
    """An app whose screen is painted by keeltui's compositor: ``front`` (widgets) inside a
    container ``#behind``, styled by ``css``."""
    from textual.app import App, ComposeResult
    from textual.containers import Vertical
    from textual.screen import Screen

    from keeltui.terminal.textual_seam import paint_changed_cells_only

    class Room(Screen):
        DEFAULT_CSS = css

        def __init__(self) -> None:
            super().__init__()
            paint_changed_cells_only(self)

        def compose(self) -> ComposeResult:
            with Vertical(id="behind"):
                yield from front

    class Probe(App):
        def on_mount(self) -> None:
            self.push_screen(Room())

    return Probe()


async def test_a_partial_update_renders_no_widget_hidden_behind_others_and_paints_the_same():
    from textual.widgets import Static

    app = painted_app("#behind { background: $panel; padding: 1; } #front { height: 4; background: $boost; }",
                      Static("the front line", id="front"), Static("below it", id="below"))
    async with app.run_test(size=(30, 10)) as pilot:
        await pilot.pause()
        compositor = app.screen._compositor
        behind = app.screen.query_one("#behind")
        front = app.screen.query_one("#front", Static)
        renders: list[Region] = []
        render_lines = behind.render_lines
        behind.render_lines = lambda crop: renders.append(crop) or render_lines(crop)
        inside, across = front.region, front.region.grow((1, 0, 1, 0))  # the front widget; with the padding

        def painted(crop: Region) -> list[list]:
            """The cells of ``crop`` as the update would send them."""
            chops = compositor._render_chops(crop, lambda y: True)
            lines = []
            for y in crop.line_range:
                row: list = [None] * 30
                for x, strip in chops[y].items():
                    if strip is not None:
                        cells = cells_of(strip, ColorSystem.TRUECOLOR)
                        row[x:x + len(cells)] = cells
                lines.append(row[crop.x:crop.right])
            return lines

        ours = painted(inside), painted(across)
        assert renders == [Region(0, 0, 30, 10)]  # only where its padding shows
        compositor._get_renders = lambda crop=None: Compositor._get_renders(compositor, crop)
        assert (painted(inside), painted(across)) == ours  # what Textual's own compositor paints


async def test_a_widget_whose_lines_fall_short_does_not_hide_the_one_behind():
    # Under load a full frame had cells nothing painted (a None strip): a widget in front
    # was taken as covering its region though its lines were shorter than it.
    from textual.widget import Widget

    class Short(Widget):
        def render_lines(self, crop: Region) -> list[Strip]:
            return [Strip([Segment("ab")], 2) for _ in range(crop.height)]  # 2 cells of a wider widget

    app = painted_app("#behind { background: $panel; } Short { height: 100%; }", Short())
    async with app.run_test(size=(20, 6)) as pilot:
        await pilot.pause()
        compositor = app.screen._compositor
        ours = compositor.render_full_update()
        assert all(strip is not None for line in ours.strips for strip in line)
        compositor._get_renders = lambda crop=None: Compositor._get_renders(compositor, crop)
        textuals = compositor.render_full_update()
        text = lambda update: ["".join(strip.text for strip in line) for line in update.strips]  # noqa: E731
        assert text(ours) == text(textuals)


async def test_a_scrollbar_is_drawn_from_its_renderable_with_textuals_cells():
    from textual.app import App, ComposeResult
    from textual.containers import VerticalScroll
    from textual.screen import Screen
    from textual.widgets import Static

    from keeltui.terminal.textual_seam import draw_scrollbar, paint_changed_cells_only, scrollbar_lines

    class Log(Screen):
        def __init__(self) -> None:
            super().__init__()
            paint_changed_cells_only(self)

        def compose(self) -> ComposeResult:
            with VerticalScroll():
                yield Static("\n".join(f"line {i}" for i in range(300)))

    class Probe(App):
        def on_mount(self) -> None:
            self.push_screen(Log())

    app = Probe()
    async with app.run_test(size=(40, 20)) as pilot:
        await pilot.pause()
        log = app.screen.query_one(VerticalScroll)
        bar = log.vertical_scrollbar
        rendered: list[Region] = []
        render_lines = bar.render_lines
        bar.render_lines = lambda crop: rendered.append(crop) or render_lines(crop)

        def cells(strips: list[Strip]) -> list[list]:
            return [cells_of(strip, ColorSystem.TRUECOLOR) for strip in strips]

        for y in [0, 1, 7, 100, 150, 279, 280, 281]:  # each eighth of a cell the thumb can end on, and the ends
            log.scroll_to(y=y, animate=False)
            await pilot.pause()
            for over in (False, True):
                bar.mouse_over = over
                assert cells(scrollbar_lines(bar)) == cells(render_lines(Region(0, 0, *bar.size))), (y, over)
        rendered.clear()
        chops = app.screen._compositor._render_chops(bar.region, lambda y: True)
        assert rendered == []  # a partial update draws the bar without the widget's rendering
        assert [chops[y][bar.region.x] for y in bar.region.line_range] == scrollbar_lines(bar)

        # Drawn again, a bar makes strips only for the lines whose cells changed: a thumb that
        # moved part of a cell changes the lines at its ends, not the bar (a streaming reply moves it
        # every few frames; each strip made is styled and its cells worked out anew).
        made: list[Strip] = []
        apply_style = Strip.apply_style

        def styling(strip: Strip, style):
            made.append(strip)
            return apply_style(strip, style)

        drawn = draw_scrollbar(bar)
        Strip.apply_style = styling
        try:
            again = draw_scrollbar(bar, drawn)
            assert made == [] and all(a is b for a, b in zip(again.lines, drawn.lines, strict=True))
            log.scroll_to(y=log.scroll_y - 6, animate=False)  # two fifths of a cell of thumb
            await pilot.pause()
            moved = draw_scrollbar(bar, again)
        finally:
            Strip.apply_style = apply_style
        assert 1 <= len(made) <= 4  # the lines at the thumb's two ends, of the bar's twenty
        assert cells(moved.lines) == cells(render_lines(Region(0, 0, *bar.size)))


_TEXTS = st.lists(st.tuples(st.text("ab 界", max_size=6), st.sampled_from([BG, BAR])), max_size=5)


@settings(max_examples=300, deadline=None)
@given(old=_TEXTS, new=_TEXTS, x=st.integers(0, 3))
def test_changed_is_the_run_from_the_first_to_the_last_cell_that_differs(old, new, x):
    # Found by halving with slice comparisons (a screenful a frame): the same span as
    # looking at every cell, widened to whole wide characters.
    old_cells = cells_of(Strip([Segment(t, s) for t, s in old]), ColorSystem.TRUECOLOR)
    new_cells = cells_of(Strip([Segment(t, s) for t, s in new]), ColorSystem.TRUECOLOR)
    shown = Shown()
    shown.forget(Size(20, 1))
    shown.record(0, x, old_cells)
    before = (shown.lines[0][x:x + len(new_cells)] + [None] * len(new_cells))[:len(new_cells)]
    differ = [i for i, (a, b) in enumerate(zip(before, new_cells, strict=True)) if a != b]
    if not differ:
        assert shown.changed(0, x, new_cells) is None
        return
    start, end = differ[0], differ[-1] + 1
    while start > 0 and new_cells[start][0] == "":
        start -= 1
    while end < len(new_cells) and new_cells[end][0] == "":
        end += 1
    assert shown.changed(0, x, new_cells) == (x + start, x + end)


@settings(max_examples=200, deadline=None)
@given(spans=st.lists(st.tuples(st.integers(-2, 12), st.integers(0, 14)), max_size=5), width=st.integers(1, 12))
def test_unsent_is_every_column_no_span_covers(spans, width):
    covered = {c for x1, x2 in spans for c in range(max(0, x1), min(width, x2))}
    gaps = _unsent(spans, width)
    assert sorted(c for a, b in gaps for c in range(a, b)) == [c for c in range(width) if c not in covered]
    assert all(a < b for a, b in gaps) and gaps == sorted(gaps)


_REGIONS = st.builds(Region, st.integers(0, 12), st.integers(0, 12), st.integers(0, 8), st.integers(0, 8))


@settings(max_examples=300, deadline=None)
@given(area=_REGIONS, in_front=st.lists(_REGIONS, max_size=6))
def test_hidden_band_by_band_is_hidden_cell_by_cell(area, in_front):
    cells = {(x, y) for r in in_front for x in range(r.x, r.right) for y in range(r.y, r.bottom)}
    every = all((x, y) in cells for x in range(area.x, area.right) for y in range(area.y, area.bottom))
    assert hidden(area, in_front) is every


def test_kept_cells_are_found_by_the_strip_itself_and_the_least_recently_used_go_first():
    kept = CellsKept(size=2)
    a, b, c = (Strip([Segment(text, BG)]) for text in ("one", "two", "three"))
    first = kept(a, ColorSystem.TRUECOLOR)
    assert first == cells_of(a, ColorSystem.TRUECOLOR)
    assert kept(a, ColorSystem.TRUECOLOR) is first  # found, not worked out again
    # An equal strip that is another object, or another colour system: worked out anew.
    assert kept(Strip([Segment("one", BG)]), ColorSystem.TRUECOLOR) is not first
    assert kept(a, ColorSystem.EIGHT_BIT) is not first
    kept(b, ColorSystem.TRUECOLOR)
    second = kept(b, ColorSystem.TRUECOLOR)
    kept(c, ColorSystem.TRUECOLOR)  # two kept: b (used last but one) stays, a goes
    assert kept(b, ColorSystem.TRUECOLOR) is second
    assert kept(a, ColorSystem.TRUECOLOR) is not first
