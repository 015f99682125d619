"""The Chief room's rows as the room log reads them: keyset pages from the store.

Handed to the room (widgets never import the store). A failed read is said once on
the status line through ``on_error`` and answers None: the log keeps what it shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from keeltui.store import Row, Store, StoreError


class StoreRows:
    def __init__(self, store: Store, on_error: Callable[[StoreError], None]) -> None:
        self._store = store
        self._on_error = on_error

    def _read(self, read: Callable[[int], list[Row]]) -> Sequence[Row] | None:
        try:
            return read(self._store.chief_id())
        except StoreError as exc:
            self._on_error(exc)
            return None

    def older(self, before_id: int, count: int) -> Sequence[Row] | None:
        return self._read(lambda room: self._store.before(room, before_id, count))

    def newer(self, after_id: int, count: int) -> Sequence[Row] | None:
        return self._read(lambda room: self._store.after(room, after_id, count))

    def first(self, count: int) -> Sequence[Row] | None:
        return self._read(lambda room: self._store.after(room, 0, count))

    def latest(self, count: int) -> Sequence[Row] | None:
        return self._read(lambda room: self._store.tail(room, count))

    # What the room's controller reads beyond paging. These raise StoreError (the
    # caller says it on the status line), unlike the paging reads above.

    def message(self, row_id: int) -> Row | None:
        return self._store.message(row_id)

    def since(self, after_id: int) -> list[Row]:
        """Every row after ``after_id`` (the store watcher's read)."""
        return self._store.after(self._store.chief_id(), after_id)

    def around(self, row_id: int, half: int) -> tuple[list[Row], bool]:
        """Up to ``half`` rows either side of ``row_id`` (with it), and whether they reach the newest."""
        room = self._store.chief_id()
        row = self._store.message(row_id)
        newer = self._store.after(room, row_id, half + 1)
        return self._store.before(room, row_id, half) + ([row] if row else []) + newer[:half], len(newer) <= half

    def search(self, needle: str, *, before_id: int | None = None, after_id: int | None = None) -> Row | None:
        return self._store.search(self._store.chief_id(), needle, before_id=before_id, after_id=after_id)

    def count_matches(self, needle: str, from_id: int) -> tuple[int, int]:
        return self._store.count_matches(self._store.chief_id(), needle, from_id=from_id)
