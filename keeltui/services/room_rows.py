"""The Chief room's rows as the room log reads them: keyset pages from the store.

Handed to the room (widgets never import the store). A failed read is said once on
the status line through ``on_error`` and answers None: the log keeps what it shows.
"""

from __future__ import annotations

from typing import Callable, Sequence

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
