"""Which bytes paint a run of blank cells: the spaces themselves, or the terminal's erase.

A line of the room is mostly blank: the padding after a reply's words, a row that came
in empty at the foot of a scroll. Sent as spaces, a blank run costs a byte a cell; the
terminal's erase (EL ``ESC[K`` to the end of the line, ECH ``ESC[<n>X`` for n cells)
paints the same cells in a few bytes, when the picture it leaves is the one meant:

- an erased cell is a space with no attributes, in the current background on a
  terminal with back-colour-erase (terminfo ``bce``; tmux always: its EL and ECH
  clear with the current cell's background, input.c ``INPUT_CSI_EL``/``INPUT_CSI_ECH``),
  and in the default background on any other;
- so a blank may be erased only where a space in its style shows nothing but its
  background: no reverse (the foreground would show), underline, strike or overline.

Pure: cells in, a plan out. The seam (keeltui/terminal/textual_seam.py) sets each
run's style as it would for the spaces, then sends the erase.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

Cell = tuple[str, str, str | None]
"""A cell: its character, its SGR codes ("" for none), its link."""

_SHOWN_ON_BLANK = {4, 7, 9, 21, 53}
"""Codes whose mark a space shows: underline, reverse, strike, double underline, overline."""
_INVISIBLE_ON_BLANK = {1, 2, 3, 5, 6, 8, 22, 23, 24, 25, 27, 28, 29, 39, 55}
"""Codes a space shows no sign of (bold, dim, italic, blink, conceal, and the codes that clear)."""


@lru_cache(maxsize=512)
def erase_background(codes: str) -> str | None:
    """The background codes a space in ``codes`` shows ("" for the default background),
    or None when the space shows more than a background (or the codes are not known here)."""
    params = codes.split(";") if codes else []
    background = ""
    i = 0
    while i < len(params):
        if not params[i].isdigit():
            return None
        code = int(params[i])
        if code in (38, 48):  # extended colour: 5;n or 2;r;g;b
            if i + 1 >= len(params) or params[i + 1] not in ("2", "5"):
                return None
            length = 5 if params[i + 1] == "2" else 3
            if i + length > len(params):
                return None
            if code == 48:
                background = ";".join(params[i:i + length])
            i += length
            continue
        if code == 0 or code == 49:
            background = ""
        elif 40 <= code <= 47 or 100 <= code <= 107:
            background = params[i]
        elif code in _SHOWN_ON_BLANK or not (code in _INVISIBLE_ON_BLANK or 30 <= code <= 37 or 90 <= code <= 97):
            return None
        i += 1
    return background


class Run(NamedTuple):
    """Cells ``[start, end)`` of a span (indices into its cells): sent as characters
    (``erase`` None), or erased: EL when the run ends at the screen's edge, else ECH."""

    start: int
    end: int
    erase: str | None
    """How: "EL" or "ECH"; None: as characters."""


def _erase_cost(length: int, to_edge: bool, last: bool) -> int:
    if to_edge:
        return len("\x1b[K")
    cost = len(f"\x1b[{length}X")
    if not last:  # ECH leaves the cursor where it was: move it past the erased cells
        cost += len(f"\x1b[{length}C")
    return cost


def erasable(cell: Cell, background_erase: bool) -> bool:
    """Whether an erase paints ``cell`` as meant (its style's background set first)."""
    char, codes, link = cell
    if char != " " or link is not None:
        return False
    background = erase_background(codes)
    return background is not None and (background_erase or background == "")


def plan(cells: Sequence[Cell], x: int, width: int | None, background_erase: bool) -> list[Run]:
    """How to paint ``cells``, placed at column ``x`` of a ``width``-column screen (None:
    not known, so no erase to its edge): runs of blanks that an erase paints in fewer
    bytes than their spaces, the rest as characters.

    A run of blanks is one style: the erase paints in the style set when it is sent.
    """
    runs: list[Run] = []
    end = len(cells)
    text = 0  # the characters from ``text`` on are not placed in a run yet
    for i, j in _blank_runs(cells):
        cell = cells[i]
        to_edge = width is not None and x + j >= width
        if erasable(cell, background_erase) and j - i > _erase_cost(j - i, to_edge, j == end):
            if text < i:
                runs.append(Run(text, i, None))
            runs.append(Run(i, j, "EL" if to_edge else "ECH"))
            text = j
    if text < end:
        runs.append(Run(text, end, None))
    return runs


def _blank_runs(cells: Sequence[Cell]) -> Iterator[tuple[int, int]]:
    """The runs ``[i, j)`` of equal cells that are spaces, in order.

    The spaces are found in the line's text, not cell by cell (a screenful of cells is
    planned each frame); a wide character's second cell ("") keeps the columns in step."""
    chars = "".join([cell[0] or "\0" for cell in cells])
    for match in _SPACES.finditer(chars):
        i, end = match.span()
        while i < end:
            cell = cells[i]
            j = end if cells[i:end] == [cell] * (end - i) else _same_until(cells, i, end)
            yield i, j
            i = j


def _same_until(cells: Sequence[Cell], i: int, end: int) -> int:
    cell, j = cells[i], i + 1
    while j < end and cells[j] == cell:
        j += 1
    return j


_SPACES = re.compile(" +")


def erase_codes(run: Run, last: bool) -> str:
    """The codes that erase ``run`` (and move the cursor past it when more follows)."""
    if run.erase == "EL":
        return "\x1b[K"
    length = run.end - run.start
    return f"\x1b[{length}X" + ("" if last else f"\x1b[{length}C")
