"""Schema 3 keeps a reply's thinking with its row; a room made by schema 2 survives it."""

from __future__ import annotations

import sqlite3
import time

from keeltui.store import _MIGRATIONS, SCHEMA_VERSION, Store


def _schema_two_room(path) -> None:
    """A file exactly as the build before thinking left it: schema 2, two rows."""
    conn = sqlite3.connect(path)
    for script in _MIGRATIONS[:2]:
        conn.executescript(script)
    now = time.time()
    conn.execute("INSERT INTO conversations (kind, title, created_at, updated_at) VALUES ('chief', '', ?, ?)", (now, now))
    conn.execute("INSERT INTO messages (conversation_id, role, content, created_at) VALUES (1, 'user', 'old question', ?)", (now,))
    conn.execute("INSERT INTO messages (conversation_id, role, content, created_at) VALUES (1, 'assistant', 'old answer', ?)", (now,))
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()


def test_a_schema_two_room_opens_migrated_with_its_rows(tmp_path):
    path = tmp_path / "old.db"
    _schema_two_room(path)
    store = Store(path)
    assert store.schema_version == SCHEMA_VERSION == 3
    rows = store.messages(store.chief_id())
    assert [(r.content, r.thinking, r.thought_secs) for r in rows] == [("old question", "", None), ("old answer", "", None)]
    store.update_message(rows[1].id, thinking="because", thought_secs=2.5)
    again = Store(path).message(rows[1].id)
    assert (again.content, again.thinking, again.thought_secs) == ("old answer", "because", 2.5)


def test_a_schema_two_room_reads_without_migrating(tmp_path):
    """`keeltui log` opens read-only: an old file is read as it is, never changed."""
    path = tmp_path / "old.db"
    _schema_two_room(path)
    before = path.read_bytes()
    store = Store(path, readonly=True)
    rows = store.messages(store.chief_id())
    assert [(r.content, r.thinking) for r in rows] == [("old question", ""), ("old answer", "")]
    assert path.read_bytes() == before
