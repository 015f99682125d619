"""Paging a long room through the store leaves SQLite's page cache within its bound
(keeltui/store.py: PAGE_CACHE_KIB), not at SQLite's 2 000 KiB default for good."""

from __future__ import annotations

import ctypes
import ctypes.util

import pytest

from keeltui.store import Store
from tests.support.room_seed import seed_room


def sqlite_memory_used() -> int:
    """Bytes SQLite holds in this process (the library the sqlite3 module uses)."""
    name = ctypes.util.find_library("sqlite3")
    if name is None:
        pytest.skip("libsqlite3 not found by name (needs the system's libsqlite3)")
    used = ctypes.CDLL(name).sqlite3_memory_used
    used.restype = ctypes.c_int64
    return used()


def test_reading_every_page_of_a_long_room_keeps_the_page_cache_bounded(tmp_path):
    path = tmp_path / "room.db"
    seed_room(path, 20_000, lambda i: f"row {i} " + "words of a message " * 12)  # ~6 MB of pages
    baseline = sqlite_memory_used()
    store = Store(path)
    try:
        chief = store.chief_id()
        rows = store.tail(chief, 40)
        read = len(rows)
        while rows:
            rows = store.before(chief, rows[0].id, 40)
            read += len(rows)
        assert read == 20_000
        grown = sqlite_memory_used() - baseline
        # Under 1 MiB: the bound and SQLite's own bookkeeping (~0.6 MiB); the default grew ~2.1 MiB.
        assert grown < 1024 * 1024, f"SQLite grew by {grown / 1024:.0f} KiB"
    finally:
        store.close()
