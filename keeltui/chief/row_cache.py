"""The room's rendered rows, kept within a bound of rows and of bytes. Pure.

A row is kept as its lines packed: each segment ``(text, style, control)`` a plain tuple
``(text, style number)`` (``(text, style number, control)`` for a control code), the
styles in one table of the cache. Python's collector stops tracking a tuple of strings and
numbers, so the kept rows cost a full collection nothing; kept as Rich segments (each
holds its style object) they were ~8 000 objects every full pass walked while the owner
paged, and as Textual strips (seven small caches each) tens of thousands (issue 19: pauses
of 20-26 ms). The row least recently drawn goes first.
Two bounds: a row count, and an estimate of the bytes held, since one row can be a
5 000-line code block and a few of those would hold tens of megabytes under the first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from itertools import chain
from operator import itemgetter
from typing import Any, Generic, TypeVar

V = TypeVar("V")

Line = tuple[Any, ...]
"""A line: its segments, ``(text, style, control)`` each (Rich's ``Segment`` is such a
tuple), or packed (``RowCache``): ``(text, style number)`` each."""

STYLES_MAX = 65_536
"""Distinct styles the table holds before the cache starts again empty (a bound for a
months-long run through many themes; a day's rows use a few hundred)."""

LINE_BYTES = 56
"""A line's tuple (its header and a pointer to the row's tuple of lines)."""
SEGMENT_BYTES = 128
"""A segment: its tuple, its string's header and the line's pointer to it (styles are shared)."""


def lines_bytes(lines: Sequence[Line]) -> int:
    """About the memory ``lines`` hold (``sys.getsizeof`` summed, styles not counted:
    shared): per line its tuple, per segment its tuple and string. Counted in C: a
    5 000-line reply kept when it ends (or the owner stops it) is counted in a few
    milliseconds, not thirty."""
    segments = sum(map(len, lines))
    return LINE_BYTES * len(lines) + SEGMENT_BYTES * segments + sum(map(len, map(_TEXT, chain.from_iterable(lines))))


_TEXT = itemgetter(0)


class RowCache:
    """Rendered rows by key (row id, revision, width, theme, shape), least recently used first out."""

    def __init__(self, max_rows: int, max_bytes: int) -> None:
        self.max_rows = max_rows
        self.max_bytes = max_bytes
        self._rows: OrderedDict[Hashable, tuple[tuple[Line, ...], int]] = OrderedDict()
        self.bytes = 0
        """The estimated bytes held (``lines_bytes`` of every row)."""
        self.styles: list[Any] = []
        """The kept lines' styles, by number (see :meth:`segments`)."""
        self._numbers: dict[Any, int] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._rows

    def get(self, key: Hashable) -> tuple[Line, ...] | None:
        """The row's lines (now the most recently used), or None."""
        entry = self._rows.get(key)
        if entry is None:
            return None
        self._rows.move_to_end(key)
        return entry[0]

    def put(self, key: Hashable, lines: Sequence[Line]) -> tuple[Line, ...]:
        """Keep ``lines`` (segments) for ``key``, packed; the oldest rows go while a bound is
        passed. The row just put stays even alone over the bytes bound: it is the one being
        drawn. Returns the lines as kept (packed: :meth:`segments` gives them back)."""
        if len(self._numbers) > STYLES_MAX:
            self._start_again()
        return self._keep(key, self._packed(lines))

    def put_as_is(self, key: Hashable, lines: Sequence[Line]) -> tuple[Line, ...]:
        """Keep ``lines`` for ``key`` as they are, unpacked: a reply's streamed lines when it
        ends, and its whole render after (packing a 5 000-line block, 40 000 segments, takes
        30-80 ms on a busy machine: the stop, or the keys, would wait for it)."""
        return self._keep(key, tuple(lines))

    def _keep(self, key: Hashable, kept: tuple[Line, ...]) -> tuple[Line, ...]:
        size = lines_bytes(kept)
        old = self._rows.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        self._rows[key] = kept, size
        self.bytes += size
        while len(self._rows) > 1 and (len(self._rows) > self.max_rows or self.bytes > self.max_bytes):
            _, (_, dropped) = self._rows.popitem(last=False)
            self.bytes -= dropped
        return kept

    def segments(self, line: Line) -> Sequence[Any]:
        """A kept line's segments ``(text, style, control)`` (a line kept as is: itself)."""
        if not line or type(line[0][1]) is not int:  # a segment's style is a style or None
            return line
        styles = self.styles
        return [(part[0], styles[part[1]], part[2] if len(part) > 2 else None) for part in line]

    def _packed(self, lines: Sequence[Line]) -> tuple[Line, ...]:
        numbers, styles = self._numbers, self.styles

        def number(style: Any) -> int:
            found = numbers.get(style)
            if found is None:
                found = numbers[style] = len(styles)
                styles.append(style)
            return found

        return tuple(
            tuple((text, number(style)) if control is None else (text, number(style), control)
                  for text, style, control in line)
            for line in lines)

    def _start_again(self) -> None:
        self._rows.clear()
        self.bytes = 0
        self.styles = []
        self._numbers = {}


class KeptByIdentity(Generic[V]):
    """Values kept for objects by their identity and a tag (what else the value depends
    on), the least recently used out first. For values worked out from an object that
    never changes: the same object, the same value. Each entry holds its object, so its
    ``id`` names no other object while it is kept."""

    def __init__(self, max_items: int) -> None:
        self.max_items = max_items
        self._kept: OrderedDict[tuple[int, Hashable], tuple[object, V]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        self._kept.clear()

    def get(self, thing: object, tag: Hashable) -> V | None:
        key = id(thing), tag
        entry = self._kept.get(key)
        if entry is None or entry[0] is not thing:
            return None
        self._kept.move_to_end(key)
        return entry[1]

    def put(self, thing: object, tag: Hashable, value: V) -> V:
        """Keep ``value`` for ``thing`` and ``tag``; the least recently used go past the bound."""
        self._kept[id(thing), tag] = thing, value
        while len(self._kept) > self.max_items:
            self._kept.popitem(last=False)
        return value


class DrawnLines(KeptByIdentity[Any]):
    """The strips a view drew for row lines, each by the line it shows (its identity: a
    kept row's lines live as long as the row is kept, and a line that changed is a new
    tuple) and what lies under it (the row's background, the tag). A view that scrolled a
    line finds every other line drawn. Emptied when the paint itself changes (the width,
    the widget's style or colours, the terminal's filters). Least recently drawn out first."""

    def __init__(self, max_lines: int) -> None:
        super().__init__(max_lines)
        self.paint: Hashable = None
        """What every line of the current paint shares."""

    def start_paint(self, paint: Hashable, max_lines: int) -> None:
        """A paint begins: what it shares is ``paint``; keep at most ``max_lines`` (the view's
        height changes it)."""
        self.max_items = max_lines
        if paint != self.paint:
            self.clear()
            self.paint = paint
