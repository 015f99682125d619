"""What the room log reads its rows from: keyset pages, handed in by the app.

The log never imports the store. It is handed a :class:`RowSource` (the app's, over
the store; a list in the look tests) and reads from it synchronously: a page of rows
by id is a fraction of a millisecond, so a key that needs older rows gets them before
it moves the view, and a held PageUp never meets a wall.
"""

from __future__ import annotations

from typing import Protocol
from collections.abc import Sequence

from keeltui.chief.context import Row


class RowSource(Protocol):
    """Rows of the room, oldest first in every answer; None: the read failed (it said why)."""

    def older(self, before_id: int, count: int) -> Sequence[Row] | None: ...

    def newer(self, after_id: int, count: int) -> Sequence[Row] | None: ...

    def first(self, count: int) -> Sequence[Row] | None: ...

    def latest(self, count: int) -> Sequence[Row] | None: ...


class ListSource:
    """A fixed room held in memory (the look tests, a demo)."""

    def __init__(self, rows: Sequence[Row]) -> None:
        self.rows = sorted(rows, key=lambda row: row.id)

    def older(self, before_id: int, count: int) -> Sequence[Row]:
        older = [row for row in self.rows if row.id < before_id]
        return older[-count:] if count else []

    def newer(self, after_id: int, count: int) -> Sequence[Row]:
        return [row for row in self.rows if row.id > after_id][:count]

    def first(self, count: int) -> Sequence[Row]:
        return self.rows[:count]

    def latest(self, count: int) -> Sequence[Row]:
        return self.rows[-count:] if count else []
