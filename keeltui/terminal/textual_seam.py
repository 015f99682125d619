"""The one module that uses Textual's and Rich's private names: the screen's compositor
sends only the cells that changed. tests/unit/test_textual_seam.py fails on the pinned
versions if any name used here changes shape; nothing else in keeltui imports them.

Paint only the cells a widget marked dirty, not the rest of its line.

Textual 8's partial update writes a dirty span from the start of the widget's slice
of the line (its ``ChopsUpdate.render_segments`` crops the end only; "TODO: crop to
x extents"). A streaming reply marks the few cells its new words fill; without the
start crop, every flush re-sent the whole last line (~300 bytes over SSH instead of
the words). The screen uses :class:`SpanCompositor`, whose updates crop both ends.

Its style codes: Textual writes each styled piece as set-style, text, reset. Here a
style is set once per change, and where only colours change (the bar, the padding and
the text of a row share one background) only those colours are sent.

What the terminal shows: the compositor remembers the cells it sent (:class:`Shown`),
and a dirty span is cropped to the cells that differ from them. A widget that scrolls
or moves is dirty from edge to edge, yet the scrollbar's track, the bar of a row and
the blank end of a line are often what the terminal already shows (a streamed reply's
scroll sent the whole room each time, ~6 KB at 120x40). Cells the screen did not send
itself (another screen was shown) are unknown, and always sent.

A scrolled band is moved, not sent again: when the lines an update sends are, over a
band of the screen, what the terminal shows a few lines lower, the terminal is told to
scroll that band (a scroll region and line feeds, which every VT100 knows) and only what
differs after the move is sent. A streaming reply that the view follows scrolls the
room a line at a time; without this each line re-sent the whole room (~6 KB at 120x40).

A run of blanks is erased, not spelled out, where the erase leaves the same picture
(keeltui/text/erase.py decides): the end of a line by EL, a run in the middle by ECH.
A streamed reply's lines are mostly padding; a row that scrolls in is sent whole.

A widget wholly behind others within a partial update's dirty region is not rendered:
the widgets in front win every cell (the containers behind the room, each frame). A
scrollbar is drawn from its renderable: the room's moves with each line a reply adds.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple
from weakref import WeakKeyDictionary

from rich.cells import cell_len
from rich.console import Console
from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate
from textual.geometry import Region, Size
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.widget import Widget

from keeltui.chief.row_cache import KeptByIdentity
from keeltui.text import erase

Cell = tuple[str, str, str | None]
"""A cell as the terminal shows it: its character ("" for a wide character's second
cell), its style codes and its link."""


def clean_start(strip: Strip, offset: int) -> int:
    """``offset``, moved back to the start of a wide character it would cut in two."""
    seen = 0
    for char in strip.text:
        width = cell_len(char)
        if seen + width > offset:
            return seen
        seen += width
    return offset


def _attributes(style: Style) -> int:
    return style._attributes & style._set_attributes


_ON = {1: "1", 2: "2", 4: "3", 8: "4", 16: "5", 32: "6", 64: "7", 128: "8", 256: "9"}
"""Rich's attribute bits and the codes that set them (bold, dim, italic, underline,
blink, rapid blink, reverse, conceal, strike)."""
_OFF = {4: "23", 64: "27", 128: "28", 256: "29"}
"""The codes that clear one attribute and nothing else (22 clears bold and dim, 24 both
underlines, 25 both blinks: those go by a reset)."""


def _change(current: Style, style: Style, color_system: ColorSystem) -> str | None:
    """The codes that turn ``current`` into ``style`` without a reset (else None): the
    colours that differ, the attributes added, and those removed that can be removed
    alone (the track of a scrollbar is the text's colours reversed)."""
    before, after = _attributes(current), _attributes(style)
    added, removed = after & ~before, before & ~after
    if added & ~sum(_ON) or removed & ~sum(_OFF):
        return None
    codes = [_OFF[bit] for bit in _OFF if removed & bit] + [_ON[bit] for bit in _ON if added & bit]
    if current._color != style._color:
        codes.extend(style._color.downgrade(color_system).get_ansi_codes() if style._color else ["39"])
    if current._bgcolor != style._bgcolor:
        codes.extend(style._bgcolor.downgrade(color_system).get_ansi_codes(False) if style._bgcolor else ["49"])
    return ";".join(codes)


def styled_runs(strip: Strip, color_system: ColorSystem, out: list[str],
                current: Style | None = None) -> Style | None:
    """Append ``strip``'s text and style codes to ``out``; returns the style left set.

    ``current`` is the style the terminal has now (None: reset). Each cell ends up with
    the same style as Textual's own rendering gives it: a change of colours only sends
    the colours that changed; any other change sets the whole style over a reset.
    """
    for text, style, _control in strip:
        if style is not None and style._link:  # a hyperlink: Textual's own rendering
            if current is not None:
                out.append("\x1b[0m")
                current = None
            out.append(Strip.render_style(style, text, color_system))
            continue
        ansi = "" if style is None else (style._ansi or Strip.render_ansi(style, color_system))
        if not ansi:
            if current is not None:
                out.append("\x1b[0m")
                current = None
        elif current is None:
            out.append(f"\x1b[{ansi}m")
            current = style
        elif style != current:
            change = _change(current, style, color_system) if style is not None else None
            if change is None:
                out.append(f"\x1b[0;{ansi}m")
            elif change:
                out.append(f"\x1b[{change}m")
            current = style
        out.append(text)
    return current


class Shown:
    """The cells the terminal shows, as far as this screen sent them (None: unknown)."""

    def __init__(self) -> None:
        self.size = Size(0, 0)
        self.lines: list[list[Cell | None]] = []

    def forget(self, size: Size | None = None) -> None:
        """Nothing shown is known (another screen drew, or the screen's size changed)."""
        self.size = size or self.size
        self.lines = [[None] * self.size.width for _ in range(self.size.height)]

    def record(self, y: int, x: int, cells: list[Cell]) -> None:
        if 0 <= y < len(self.lines):
            line = self.lines[y]
            line[x:x + len(cells)] = cells
            del line[self.size.width:]

    def scroll(self, top: int, bottom: int, lines: int) -> None:
        """Rows ``top..bottom`` moved up ``lines`` (what the terminal does to a scrolled
        region): the rows that came in at its bottom are blank in a style not known here."""
        band = self.lines[top:bottom + 1]
        width = self.size.width
        self.lines[top:bottom + 1] = band[lines:] + [[None] * width for _ in range(lines)]

    def changed(self, y: int, x: int, cells: list[Cell]) -> tuple[int, int] | None:
        """The columns ``[start, end)`` of ``cells`` (placed at ``x``) that differ from what is shown."""
        if not 0 <= y < len(self.lines):
            return x, x + len(cells)
        shown = self.lines[y][x:x + len(cells)]
        shown += [None] * (len(cells) - len(shown))
        if shown == cells:
            return None
        start, end = _first_difference(shown, cells), len(cells) - _last_difference(shown, cells)
        while start > 0 and cells[start][0] == "":
            start -= 1  # not from a wide character's second cell
        while end < len(cells) and cells[end][0] == "":
            end += 1  # nor up to its first
        return x + start, x + end


def _first_difference(a: list, b: list) -> int:
    """The first index where the equally long ``a`` and ``b`` differ (they do somewhere).

    Found by halving with slice comparisons, which compare in C: a screenful of cells is
    compared each frame, and a Python loop looked at every one of them."""
    low, high = 0, len(a) - 1  # a[:low] == b[:low]; a difference lies in [low, high]
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _last_difference(a: list, b: list) -> int:
    """How many cells at the end of ``a`` and ``b`` are equal, up to the last difference."""
    low, high = 0, len(a) - 1  # the last ``low`` are equal; the last difference is within the rest
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle:len(a) - low] == b[len(b) - middle:len(b) - low]:
            low = middle
        else:
            high = middle - 1
    return low


def _unsent(spans: Sequence[tuple[int, int]], width: int) -> list[tuple[int, int]]:
    """The runs of ``[0, width)`` that no span covers."""
    gaps: list[tuple[int, int]] = []
    reached = 0
    for x1, x2 in sorted(spans):
        if x2 <= x1:
            continue
        if x1 > reached:
            gaps.append((reached, min(x1, width)))
        reached = max(reached, x2)
        if reached >= width:
            break
    if reached < width:
        gaps.append((reached, width))
    return [(a, b) for a, b in gaps if a < b]


class StyleCells(dict):
    """The cells of one style (its codes and its link) by character, each made once: the
    screen's lines and the pieces kept hold the same few thousand cells, not a tuple for
    every cell of every line (256 kept pieces were ~2 MB; 0.3 MB made once)."""

    __slots__ = ("ansi", "link")

    def __init__(self, ansi: str, link: str | None) -> None:
        super().__init__()
        self.ansi, self.link = ansi, link

    def __missing__(self, char: str) -> Cell:
        cell = self[char] = (char, self.ansi, self.link)
        return cell


STYLES_MADE = 1024
"""Styles whose cells are kept made (the first styles seen again, once past it, are made anew)."""
CHARACTERS_MADE = 4096
"""Characters a style's cells are kept made for (a room of many scripts: bounded)."""


class CellMaker:
    """Cells made once per style and character (:class:`StyleCells`), within bounds."""

    def __init__(self) -> None:
        self._styles: dict[tuple[str, str | None], StyleCells] = {}

    def style_cells(self, ansi: str, link: str | None) -> StyleCells:
        made = self._styles.get((ansi, link))
        if made is None or len(made) > CHARACTERS_MADE:
            if len(self._styles) >= STYLES_MADE:
                self._styles.clear()
            made = self._styles[(ansi, link)] = StyleCells(ansi, link)
        return made


def cells_of(strip: Strip, color_system: ColorSystem, maker: CellMaker | None = None) -> list[Cell]:
    """The cells ``strip`` shows: (character, its codes, its link) each; a wide character's
    second cell is ("", codes, link)."""
    maker = maker or CellMaker()
    cells: list[Cell] = []
    for text, style, _control in strip:
        ansi = "" if style is None else (style._ansi or Strip.render_ansi(style, color_system))
        made = maker.style_cells(ansi, style._link if style is not None else None)
        if text.isascii():  # one cell a character: no width to look up (a whole screen per scroll)
            cells.extend(map(made.__getitem__, text))
            continue
        for char in text:
            cells.append(made[char])
            cells.extend([made[""]] * (cell_len(char) - 1))
    return cells


CELLS_KEPT = 256
"""Pieces whose cells are kept: a screen's lines and scrollbar, twice over at 120x40 (a
frame's pieces are looked at twice: by the scroll, then by the send)."""


class CellsKept:
    """The cells of the pieces sent lately, by the piece itself (:class:`KeptByIdentity`).

    A strip never changes, so the same object has the same cells. The room hands on the
    same strip for a line while it shows the same (keeltui/chief/row_cache.py), and
    Textual's ``Strip.crop`` and ``Strip.divide`` keep what they made: a frame that moved
    the view a line (a reply the view follows) works out the cells of the line that came
    in, not of every line again.
    """

    def __init__(self, size: int = CELLS_KEPT) -> None:
        self._kept: KeptByIdentity[list[Cell]] = KeptByIdentity(size)
        self.maker = CellMaker()

    def __call__(self, strip: Strip, color_system: ColorSystem) -> list[Cell]:
        cells = self._kept.get(strip, color_system)
        return cells if cells is not None else self._kept.put(strip, color_system, self.once(strip, color_system))

    def once(self, strip: Strip, color_system: ColorSystem) -> list[Cell]:
        """A piece's cells, not kept (a piece cropped to its changed cells is sent once)."""
        return cells_of(strip, color_system, self.maker)


Pieces = list[tuple[int, list[Cell]]]
"""A line's pieces as cells: (column, cells)."""


def cells_in(pieces: Pieces, x: int, length: int) -> list[Cell]:
    """The ``length`` cells from column ``x``, out of the one piece that holds them ([] if none does)."""
    for start, cells in pieces:
        if start <= x and x + length <= start + len(cells):
            return cells[x - start:x - start + length]
    return []


MIN_SCROLL_BAND = 6
"""Fewer lines than this are sent as they are: a scroll would save little."""


def bands(ys: Sequence[int]) -> list[tuple[int, int]]:
    """Runs of consecutive line numbers in the sorted ``ys``: (first, last)."""
    runs: list[tuple[int, int]] = []
    for y in ys:
        if runs and runs[-1][1] == y - 1:
            runs[-1] = (runs[-1][0], y)
        else:
            runs.append((y, y))
    return runs


def best_shift(new: Sequence[tuple], old: Sequence[tuple]) -> int:
    """How many lines up ``old`` moved to become ``new`` (0: it did not): the shift that
    matches the most lines, if it matches at least half of them and clearly more than
    standing still does."""
    height = len(new)
    old_at: dict[int, list[int]] = {}
    for y, line in enumerate(old):
        old_at.setdefault(hash(line), []).append(y)
    votes: dict[int, int] = {}
    for y, line in enumerate(new):
        for source in old_at.get(hash(line), ()):
            if source > y and old[source] == line:
                votes[source - y] = votes.get(source - y, 0) + 1
    if not votes:
        return 0
    shift, count = max(votes.items(), key=lambda item: (item[1], -item[0]))
    still = sum(1 for a, b in zip(new, old, strict=True) if a == b)
    return shift if count * 2 >= height - shift and count > still + 1 else 0


class SpanUpdate(ChopsUpdate):
    def __init__(self, chops, spans, chop_ends, shown: Shown | None = None, background_erase: bool = False,
                 cells: CellsKept | None = None) -> None:
        super().__init__(chops, spans, chop_ends)
        self.shown = shown
        self.cells = cells or CellsKept()
        """A piece's cells, worked out once (the screen's, kept from frame to frame)."""
        self._span_pieces: dict[tuple[int, int, int], Pieces] = {}
        self.background_erase = background_erase
        """Whether the terminal's erase paints in the current background (keeltui/text/erase.py)."""

    def _pieces(self, y: int, x1: int, x2: int):
        """The pieces of line ``y`` that cover ``[x1, x2)``: (column, cropped strip)."""
        for end, (x, strip) in zip(self.chop_ends[y], self.chops[y].items(), strict=False):
            if strip is None or x > x2 or end <= x1:
                continue
            start = clean_start(strip, x1 - x) if x < x1 else 0
            yield x + start, strip.crop(start, min(end, x2) - x)

    def _span_cells(self, y: int, x1: int, x2: int, color_system: ColorSystem) -> Pieces:
        """The cells of the pieces of line ``y`` in ``[x1, x2)``, worked out once in this
        update (the scroll looks at them first, then the send)."""
        pieces = self._span_pieces.get((y, x1, x2))
        if pieces is None:
            pieces = self._span_pieces[y, x1, x2] = [(x, self.cells(piece, color_system))
                                                     for x, piece in self._pieces(y, x1, x2)]
        return pieces

    def _changed_span(self, y: int, x1: int, x2: int, color_system: ColorSystem) -> tuple[int, int, Pieces] | None:
        """``[x1, x2)`` cropped to the cells that differ from what the terminal shows, and
        the cells of its pieces (worked out once: the erase looks at them again)."""
        pieces = self._span_cells(y, x1, x2, color_system)
        shown = self.shown
        if shown is None:
            return x1, x2, pieces
        spans: list[tuple[int, int]] = []
        for x, cells in pieces:
            span = shown.changed(y, x, cells)
            shown.record(y, x, cells)
            if span is not None:
                spans.append(span)
        if not spans:
            return None
        return min(a for a, _ in spans), max(b for _, b in spans), pieces

    def _new_rows(self, color_system: ColorSystem) -> dict[int, tuple[list[Cell | None], list[tuple[int, int]]]]:
        """Each line this update sends: the whole row as it will show (the cells sent over
        the cells shown) and its spans."""
        shown = self.shown
        assert shown is not None
        rows: dict[int, tuple[list[Cell | None], list[tuple[int, int]]]] = {}
        for y, x1, x2 in self.spans:
            if not 0 <= y < len(shown.lines):
                continue
            row, spans = rows.get(y) or (list(shown.lines[y]), [])
            for x, cells in self._span_cells(y, x1, x2, color_system):
                row[x:x + len(cells)] = cells
            del row[shown.size.width:]
            spans.append((x1, x2))
            rows[y] = row, spans
        return rows

    def _scroll(self, color_system: ColorSystem) -> str:
        """Scroll a band of the terminal where this update is the screen moved up: the
        codes that do it ("" if none), with :class:`Shown` moved the same way."""
        shown = self.shown
        if shown is None or len({y for y, _, _ in self.spans}) < MIN_SCROLL_BAND:
            return ""
        rows = self._new_rows(color_system)
        width = shown.size.width
        for top, bottom in bands(sorted(rows)):
            if bottom - top + 1 < MIN_SCROLL_BAND:
                continue
            new = [tuple(rows[y][0]) for y in range(top, bottom + 1)]
            old = [tuple(shown.lines[y]) for y in range(top, bottom + 1)]
            lines = best_shift(new, old)
            if lines and self._movable(rows, top, bottom, lines, width):
                shown.scroll(top, bottom, lines)
                # The region, the cursor on its last row, the style reset (the rows that
                # come in take the current background), a line feed per line, the region off.
                return f"\x1b[{top + 1};{bottom + 1}r\x1b[{bottom + 1};1H\x1b[0m" + "\n" * lines + "\x1b[r"
        return ""

    def _movable(self, rows, top: int, bottom: int, lines: int, width: int) -> bool:
        """Whether moving ``top..bottom`` up ``lines`` leaves right every cell this update
        does not send: unsent cells must show the same after the move, and the rows that
        come in blank must be sent whole."""
        shown = self.shown
        assert shown is not None
        for y in range(top, bottom + 1):
            row, spans = rows[y]
            unsent = _unsent(spans, width)
            if y > bottom - lines:
                if unsent:
                    return False
                continue
            below = shown.lines[y + lines]
            for x1, x2 in unsent:
                part = below[x1:x2]
                if None in part or part != row[x1:x2]:
                    return False
        return True

    def render_segments(self, console: Console) -> str:
        sequences: list[str] = []
        append = sequences.append
        color_system = console._color_system or ColorSystem.TRUECOLOR
        scroll = self._scroll(color_system)
        width = self.shown.size.width if self.shown is not None else None
        if scroll:
            append(scroll)
        # The style set carries over between pieces and lines (a cursor move keeps it);
        # the update ends with the terminal's style reset, as Textual's own does.
        current: Style | None = None
        for y, x1, x2 in self.spans:
            span = self._changed_span(y, x1, x2, color_system)
            if span is None:
                continue
            x1, x2, pieces = span
            # A line's pieces (one per widget it crosses) are written as one run: no cursor
            # move where the last piece ended (known only after plain ASCII). Each line
            # starts with a cursor move, so no line feed is sent between lines.
            cursor: int | None = None
            for x, piece in self._pieces(y, x1, x2):
                # (A piece cropped to the cells that changed is sent once: not kept.)
                runs = erase.plan(cells_in(pieces, x, piece.cell_length) or self.cells.once(piece, color_system), x, width,
                                  self.background_erase)
                for number, (start, end, how) in enumerate(runs):
                    if cursor != x + start:
                        append(f"\x1b[{y + 1};{x + start + 1}H")
                    part = piece.crop(start, end)
                    if how is None:
                        current = styled_runs(part, color_system, sequences, current)
                        cursor = x + end if part.text.isascii() else None
                        continue
                    # The blanks' own style, then the erase: it paints in that background.
                    blank = Strip([Segment("", next(iter(part)).style)])
                    current = styled_runs(blank, color_system, sequences, current)
                    last = number == len(runs) - 1
                    append(erase.erase_codes(erase.Run(start, end, how), last))
                    cursor = x + start if last else x + end
        if current is not None:
            append("\x1b[0m")
        return "".join(sequences)


class ShownLayoutUpdate(LayoutUpdate):
    """A full update that records what it sends."""

    def __init__(self, strips, region, shown: Shown, cells: CellsKept | None = None) -> None:
        super().__init__(strips, region)
        self.shown = shown
        self.cells = cells or CellsKept()

    def render_segments(self, console: Console) -> str:
        color_system = console._color_system or ColorSystem.TRUECOLOR
        for y, line in enumerate(self.strips, self.region.y):
            x = self.region.x
            for strip in line:
                cells = self.cells(strip, color_system)
                self.shown.record(y, x, cells)
                x += len(cells)
        return super().render_segments(console)


def erases_in_background(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the terminal's erase paints in the current background: inside tmux (its
    EL and ECH clear with the current background, whatever its terminfo says) or where
    the terminal's terminfo has ``bce``."""
    environ = os.environ if environ is None else environ
    term = environ.get("TERM", "")
    if environ.get("TMUX") and term.startswith(("tmux", "screen")):
        return True
    return _terminfo_bce(term)


@lru_cache(maxsize=1)
def _terminfo_bce(term: str) -> bool:
    """Whether ``term``'s terminfo has ``bce`` (a process reads one terminfo: curses sets
    its terminal up once)."""
    try:
        import curses
    except ImportError:
        return False
    try:
        curses.setupterm(term or None, sys.__stdout__.fileno() if sys.__stdout__ else -1)
        return curses.tigetflag("bce") > 0
    except (curses.error, OSError, ValueError):  # no terminfo for it: erase in the default background only
        return False


class BarDrawn(NamedTuple):
    """A scrollbar as last drawn: the style under it, its lines as rendered, and their strips."""

    base: Style
    rendered: list[list[Segment]]
    lines: list[Strip]


def draw_scrollbar(bar: ScrollBar, before: BarDrawn | None = None) -> BarDrawn:
    """A scrollbar's lines, drawn from its renderable over its own style: the same cells
    as Textual's widget rendering (which runs every line through the styles cache, ~3 ms
    for a room's bar; it moves each time a reply's line comes in).

    A line rendered as it was in ``before`` (the bar's last drawing) is that strip, not a new
    one made and styled: most of a bar is track, whichever way the thumb moved, so a frame
    that moves the thumb makes a strip or two, not a bar of them (a streaming reply moves it
    every few frames), and the screen finds the old strips' cells again (:class:`CellsKept`)."""
    width, height = bar.size
    options = bar.app.console_options.update_dimensions(width, height)
    base = bar.visual_style.rich_style
    rendered = bar.app.console.render_lines(bar.render(), options)
    if before is None or before.base != base:
        before = BarDrawn(base, [], [])
    old = before.rendered
    lines = [before.lines[y] if y < len(old) and old[y] == line else Strip(line, width).apply_style(base)
             for y, line in enumerate(rendered)]
    return BarDrawn(base, rendered, lines)


def scrollbar_lines(bar: ScrollBar) -> list[Strip]:
    """A scrollbar's lines (:func:`draw_scrollbar`), drawn anew."""
    return draw_scrollbar(bar).lines


def hidden(area: Region, in_front: Sequence[Region]) -> bool:
    """Whether every cell of ``area`` lies in one of the regions ``in_front``.

    Looked at band by band, not line by line: between two of the regions' top or bottom
    edges every line meets the same regions (a screen is a few bands of forty lines)."""
    near = [r for r in in_front if r.right > area.x and r.x < area.right and r.bottom > area.y and r.y < area.bottom]
    edges = sorted({area.y, area.bottom, *(y for r in near for y in (r.y, r.bottom) if area.y < y < area.bottom)})
    for top in edges[:-1]:
        spans = sorted((r.x, r.right) for r in near if r.y <= top < r.bottom)
        reached = area.x
        for x1, x2 in spans:
            if x1 > reached:
                break
            reached = max(reached, x2)
        if reached < area.right:
            return False
    return True


def covers(lines: Sequence[Strip], area: Region) -> bool:
    """Whether ``lines`` paint every cell of ``area`` (one full-width line per row)."""
    return len(lines) >= area.height and all(line.cell_length >= area.width for line in lines[:area.height])


class SpanCompositor(Compositor):
    def __init__(self) -> None:
        super().__init__()
        self.shown = Shown()
        self.background_erase = erases_in_background()
        self.cells = CellsKept()
        self._bars: WeakKeyDictionary[ScrollBar, BarDrawn] = WeakKeyDictionary()
        """Each scrollbar as last drawn."""
        self.full_updates = 0
        """Whole frames sent (every cell of the screen): what the tests count."""

    def _shown(self) -> Shown:
        if self.shown.size != self.size:
            self.shown.forget(self.size)
        return self.shown

    def render_full_update(self, simplify: bool = False) -> LayoutUpdate:
        update = super().render_full_update(simplify)
        if simplify:  # a screenshot, not sent to the terminal
            return update
        self.full_updates += 1
        return ShownLayoutUpdate(update.strips, update.region, self._shown(), self.cells)

    def _get_renders(self, crop: Region | None = None):
        """The widgets' lines for an update, leaving out each widget wholly behind
        others within ``crop``: its lines would win no cut (the front widget's are taken
        first), so rendering them is waste. A streaming reply dirties the room; without
        this, the five containers behind it rendered every line each frame."""
        if crop is None:  # a full update: everything is drawn
            yield from super()._get_renders(crop)
            return
        in_front: list[Region] = []
        for widget, (region, clip) in self.visible_widgets.items():
            visible = region.intersection(clip)
            if not visible.area or not crop.overlaps(visible):
                continue
            if hidden(visible.intersection(crop), in_front):
                continue
            if isinstance(widget, ScrollBar) and visible == region:
                drawn = self._bars[widget] = draw_scrollbar(widget, self._bars.get(widget))
                lines = drawn.lines
            else:
                lines = widget.render_lines(visible.translate((-region.x, -region.y)))
            # Only lines that fill the region hide what is behind it: a short line (a
            # widget mid-change, a custom render_lines) leaves cells the one behind paints.
            if covers(lines, visible):
                in_front.append(visible)
            yield region, clip, lines

    def render_partial_update(self) -> ChopsUpdate | None:
        update = super().render_partial_update()
        if update is None:
            return None
        return SpanUpdate(update.chops, update.spans, update.chop_ends, self._shown(), self.background_erase, self.cells)


def release_render_caches() -> None:
    """Empty Textual's caches that outlive the widgets they drew (now and then).

    ``StylesCache.get_inner_outer`` (textual/_styles_cache.py) is an ``lru_cache`` of 1 024
    entries on a method, so its keys hold the ``StylesCache`` of every widget that drew
    recently, with all the lines it cached: the footer's keys of every rebuild, the
    tutor's rows. Bounded, but at a thousand dead widgets' lines (~10 MB) the bound is far
    above what an app open for days should carry. Its values are two ``Style``s made from
    two colours, so emptying it costs a few microseconds of recomputation.
    """
    try:
        from textual._styles_cache import StylesCache
    except ImportError:  # a Textual without the private module: nothing of its kind to empty
        return
    clear = getattr(StylesCache.get_inner_outer, "cache_clear", None)
    if clear is not None:
        clear()


def paint_changed_cells_only(screen) -> None:
    """Give ``screen`` the compositor that sends only the cells that changed (a Screen's
    compositor is a private attribute, set once, before its first frame)."""
    screen._compositor = SpanCompositor()


def set_virtual_size(widget: Widget, size: Size) -> None:
    """Give a scrolling widget a new virtual size without laying out the screen again.

    ``Widget.virtual_size`` is a reactive with ``layout=True``: each change lays out the
    whole screen (10–30 ms at 120x40), and a streaming reply's box grows every screenful.
    A line-API widget's virtual size moves nothing but its own scrollbar, which
    ``Widget._scroll_update`` sets (as Textual's own ``_size_updated`` does without a
    layout); a scrollbar that appears or goes still lays the screen out (its reactive asks).
    """
    widget.set_reactive(Widget.virtual_size, size)
    widget._scroll_update(size)

