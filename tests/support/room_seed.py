"""A long Chief room in a real SQLite file, written in one transaction (fast enough for
100 000 rows in a test)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from keeltui.store import Store


def seed_room(path: Path, rows: int, text: Callable[[int], str]) -> None:
    """``rows`` complete rows, user and assistant in turn, one second apart and ending now;
    row ``i`` says ``text(i)``."""
    store = Store(path)
    chief = store.chief_id()
    start = time.time() - rows
    with store.transaction() as conn:
        conn.executemany(
            "INSERT INTO messages (conversation_id, role, content, status, created_at) VALUES (?, ?, ?, 'complete', ?)",
            ((chief, "user" if i % 2 == 0 else "assistant", text(i), start + i) for i in range(rows)),
        )
    store.close()
