"""The rows the Chief room holds in memory, and where each stands in its lines. Pure.

The room is one virtual log: a contiguous run of rows (oldest first) read from the
store by keyset pages, each row a known or estimated number of lines. The run is
bounded (the far end is dropped as the owner pages), so memory stays flat however
long the room grows; the view maps a line to its row through the running offsets.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from typing import Generic, TypeVar
from collections.abc import Sequence

from keeltui.chief.context import Row

R = TypeVar("R", bound=Row)


class RoomWindow(Generic[R]):
    """A run of rows with their heights in lines; ``top(i)`` is row ``i``'s first line."""

    def __init__(self) -> None:
        self.rows: list[R] = []
        self.heights: list[int] = []
        self.known: list[bool] = []
        """Whether a row's height was measured by rendering it (else it is an estimate)."""
        self._offsets: list[int] | None = [0]
        self.no_older = False
        """The first row of the window is the room's first row."""
        self.at_latest = True
        """The last row of the window is the room's newest row."""
        self._index: dict[int, int] | None = {}

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def ids(self) -> list[int]:
        return [row.id for row in self.rows]

    # -- lookups ------------------------------------------------------------------

    def _tops(self) -> list[int]:
        if self._offsets is None:
            self._offsets = [0, *accumulate(self.heights)]
        return self._offsets

    @property
    def total(self) -> int:
        """All the window's lines."""
        return self._tops()[-1]

    def top(self, index: int) -> int:
        return self._tops()[index]

    def locate(self, y: int) -> tuple[int, int]:
        """The row at line ``y`` and the line within it (``(-1, 0)`` for an empty window)."""
        if not self.rows:
            return -1, 0
        tops = self._tops()
        index = min(max(0, bisect_right(tops, y) - 1), len(self.rows) - 1)
        return index, y - tops[index]

    def index_of(self, row_id: int) -> int | None:
        if self._index is None:
            self._index = {row.id: i for i, row in enumerate(self.rows)}
        return self._index.get(row_id)

    def rows_in(self, y: int, height: int) -> range:
        """The indexes of the rows that lines ``[y, y + height)`` touch."""
        if not self.rows:
            return range(0)
        first, _ = self.locate(max(0, y))
        last, _ = self.locate(max(0, y + height - 1))
        return range(first, last + 1)

    # -- changes ------------------------------------------------------------------

    def _changed(self) -> None:
        self._offsets = None
        self._index = None

    def replace(self, rows: Sequence[R], heights: Sequence[int]) -> None:
        self.rows = list(rows)
        self.heights = list(heights)
        self.known = [False] * len(self.rows)
        self._changed()

    def prepend(self, rows: Sequence[R], heights: Sequence[int]) -> int:
        """Older rows above the first (oldest first); returns the lines they add."""
        self.rows[:0] = rows
        self.heights[:0] = heights
        self.known[:0] = [False] * len(rows)
        self._changed()
        return sum(heights)

    def append(self, rows: Sequence[R], heights: Sequence[int]) -> None:
        self.rows.extend(rows)
        self.heights.extend(heights)
        self.known.extend([False] * len(rows))
        self._changed()

    def update(self, index: int, row: R, height: int | None = None) -> None:
        """Row ``index`` changed (its text, its status)."""
        self.rows[index] = row
        if height is not None:
            self.set_height(index, height, known=False)

    def set_height(self, index: int, height: int, known: bool = True) -> int:
        """Row ``index`` measures ``height`` lines; returns the change."""
        delta = height - self.heights[index]
        self.known[index] = known
        if delta:
            self.heights[index] = height
            self._offsets = None
        return delta

    def forget_heights(self, estimate) -> None:
        """Every height is an estimate again (the width changed): ``estimate(row)`` gives it."""
        self.heights = [estimate(row) for row in self.rows]
        self.known = [False] * len(self.rows)
        self._offsets = None

    def drop_top(self, count: int) -> int:
        """Drop ``count`` rows from the top; returns the lines they took."""
        if count <= 0:
            return 0
        lines = sum(self.heights[:count])
        del self.rows[:count], self.heights[:count], self.known[:count]
        self._changed()
        self.no_older = False
        return lines

    def drop_bottom(self, count: int) -> None:
        if count <= 0:
            return
        del self.rows[-count:], self.heights[-count:], self.known[-count:]
        self._changed()
        self.at_latest = False
