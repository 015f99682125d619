"""SQLite store: the single source of truth.

Every row (turn, system line, tool call, event, setting, snooze, focus session) is
written here first; every screen is a projection of it. Several processes share the
file: WAL, a busy timeout, and ``BEGIN IMMEDIATE`` for every write so that a writer
waits for the lock instead of failing with "database is locked".
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from keeltui.chief import turn_kinds
from keeltui.chief.turn_kinds import classify, report_kind

BUSY_TIMEOUT_MS = 15_000
BACKFILL_MARK_KEY = "backfill_checked_to"
SCHEMA_VERSION = 2


class StoreError(Exception):
    """The database cannot be used; the message names the file."""


@dataclass(frozen=True)
class Message:
    id: int
    conversation_id: int
    role: str
    content: str
    turn_kind: str | None = None
    source: str | None = None
    parts: list[dict] = field(default_factory=list)
    usage: dict | None = None
    status: str = "complete"
    reply_to: int | None = None
    created_at: float = 0.0

    @property
    def is_system_line(self) -> bool:
        return turn_kinds.is_system_line(self.turn_kind)


@dataclass(frozen=True)
class Conversation:
    id: int
    kind: str
    title: str
    created_at: float
    updated_at: float


_MIGRATIONS: list[str] = [
    # 1: the first schema.
    """
    CREATE TABLE conversations (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('chief', 'tutor')),
        title TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id),
        role TEXT NOT NULL,
        content TEXT NOT NULL DEFAULT '',
        turn_kind TEXT,
        source TEXT,
        parts TEXT,
        usage TEXT,
        status TEXT NOT NULL DEFAULT 'complete',
        reply_to INTEGER,
        created_at REAL NOT NULL
    );
    CREATE INDEX messages_by_conversation ON messages (conversation_id, id);
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        data TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL
    );
    CREATE INDEX events_by_kind ON events (kind, id);
    CREATE TABLE app_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    """,
    # 2: log queries by time and kind over a long room.
    """
    CREATE INDEX messages_by_time ON messages (conversation_id, created_at);
    """,
]
assert len(_MIGRATIONS) == SCHEMA_VERSION


def _row_to_message(row: sqlite3.Row) -> Message:
    return Message(
        id=row["id"],
        conversation_id=row["conversation_id"],
        role=row["role"],
        content=row["content"],
        turn_kind=row["turn_kind"],
        source=row["source"],
        parts=json.loads(row["parts"]) if row["parts"] else [],
        usage=json.loads(row["usage"]) if row["usage"] else None,
        status=row["status"],
        reply_to=row["reply_to"],
        created_at=row["created_at"],
    )


class Store:
    """One connection to the keeltui database. Safe to share between threads."""

    def __init__(self, path: Path, *, clock=time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.RLock()
        self._chief_id: int | None = None
        self._conn = self._connect()

    # -- opening ------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot create its folder: {exc.strerror}") from None
        if self.path.exists() and not _looks_like_sqlite(self.path):
            raise StoreError(
                f"{self.path}: not a keeltui database (the file is not SQLite); "
                "it was left untouched — move it aside or point paths.database elsewhere"
            )
        try:
            conn = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                check_same_thread=False,
            )
            conn.row_factory = sqlite3.Row
            # Reading first: a corrupt file fails here, before anything is written.
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: schema version {version} is newer than this keeltui "
                    f"understands ({SCHEMA_VERSION}); upgrade keeltui"
                )
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            self._migrate(conn, version)
            self._backfill_turn_kinds(conn)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot open the database: {exc}") from None
        return conn

    def _migrate(self, conn: sqlite3.Connection, version: int) -> None:
        while version < SCHEMA_VERSION:
            with _immediate(conn):
                # Another process may have migrated while we waited for the lock.
                current = conn.execute("PRAGMA user_version").fetchone()[0]
                if current > version:
                    version = current
                    continue
                for statement in _MIGRATIONS[version].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                version += 1
                conn.execute(f"PRAGMA user_version = {version}")

    @staticmethod
    def _backfill_turn_kinds(conn: sqlite3.Connection) -> int:
        """Mark unmarked rows whose source is known; touches nothing else.

        Runs on every open, so a restored old backup classifies itself. Idempotent:
        only rows whose kind is still NULL are read, and each update re-checks it.
        Rows up to a stored high-water mark were checked by an earlier open (and
        rows this version writes are marked at birth), so a long room is not
        scanned again at every start; an old backup has no mark and is scanned whole.
        """
        row = conn.execute("SELECT value FROM app_state WHERE key = ?", (BACKFILL_MARK_KEY,)).fetchone()
        mark = json.loads(row["value"]) if row else 0
        top = conn.execute("SELECT max(id) FROM messages").fetchone()[0] or 0
        if not isinstance(mark, int) or mark > top:
            mark = 0  # a mark from some other file: trust nothing
        if top == mark:
            return 0
        like_prefixes = " OR ".join("content LIKE ? ESCAPE '\\'" for _ in turn_kinds.SUMMARY_PREFIXES)
        params = [
            p.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            for p in turn_kinds.SUMMARY_PREFIXES
        ]
        rows = conn.execute(
            "SELECT id, role, source, substr(content, 1, 64) AS head FROM messages "
            f"WHERE id > ? AND turn_kind IS NULL AND role = 'assistant' AND (source IS NOT NULL OR {like_prefixes})",
            [mark, *params],
        ).fetchall()
        updates = [
            (kind, r["id"])
            for r in rows
            if (kind := classify(r["role"], r["head"], r["source"])) is not None
        ]
        with _immediate(conn):
            if updates:
                conn.executemany(
                    "UPDATE messages SET turn_kind = ? WHERE id = ? AND turn_kind IS NULL", updates
                )
            _set_state(conn, BACKFILL_MARK_KEY, top, time.time())
        return len(updates)

    def backfill_turn_kinds(self) -> int:
        with self._lock:
            return self._backfill_turn_kinds(self._conn)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @property
    def schema_version(self) -> int:
        with self._lock:
            return self._conn.execute("PRAGMA user_version").fetchone()[0]

    def data_version(self) -> int:
        """Changes whenever another connection commits: the cheap 'anything new?' poll."""
        with self._lock:
            return self._conn.execute("PRAGMA data_version").fetchone()[0]

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock, _immediate(self._conn):
            yield self._conn

    # -- conversations ------------------------------------------------------------

    def chief_id(self) -> int:
        """The Chief room, created on first use."""
        if self._chief_id is None:
            with self.transaction() as conn:
                row = conn.execute(
                    "SELECT id FROM conversations WHERE kind = 'chief' ORDER BY id LIMIT 1"
                ).fetchone()
                if row is None:
                    now = self._clock()
                    cur = conn.execute(
                        "INSERT INTO conversations (kind, title, created_at, updated_at) "
                        "VALUES ('chief', 'Chief', ?, ?)",
                        (now, now),
                    )
                    self._chief_id = _new_id(cur)
                else:
                    self._chief_id = row["id"]
        assert self._chief_id is not None
        return self._chief_id

    def create_conversation(self, kind: str, title: str) -> int:
        now = self._clock()
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO conversations (kind, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (kind, title, now, now),
            )
            return _new_id(cur)

    def conversations(self, kind: str) -> list[Conversation]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT * FROM conversations WHERE kind = ? ORDER BY updated_at DESC, id DESC",
                (kind,),
            ).fetchall()
        return [Conversation(r["id"], r["kind"], r["title"], r["created_at"], r["updated_at"]) for r in rows]

    def conversation(self, conversation_id: int) -> Conversation | None:
        with self._lock:
            r = self._conn.execute(
                "SELECT * FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
        return Conversation(r["id"], r["kind"], r["title"], r["created_at"], r["updated_at"]) if r else None

    # -- messages -----------------------------------------------------------------

    def add_message(
        self,
        conversation_id: int,
        role: str,
        content: str,
        *,
        source: str | None = None,
        turn_kind: str | None = None,
        parts: list[dict] | None = None,
        usage: dict | None = None,
        status: str = "complete",
        reply_to: int | None = None,
    ) -> int:
        """Append a row; its kind is decided here from its source unless given."""
        if turn_kind is None:
            turn_kind = classify(role, content, source)
        now = self._clock()
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO messages (conversation_id, role, content, turn_kind, source, parts, "
                "usage, status, reply_to, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    conversation_id, role, content, turn_kind, source,
                    json.dumps(parts) if parts else None,
                    json.dumps(usage) if usage else None,
                    status, reply_to, now,
                ),
            )
            conn.execute(
                "UPDATE conversations SET updated_at = ? WHERE id = ?", (now, conversation_id)
            )
            return _new_id(cur)

    def update_message(
        self,
        message_id: int,
        *,
        content: str | None = None,
        status: str | None = None,
        usage: dict | None = None,
        parts: list[dict] | None = None,
    ) -> None:
        sets: list[str] = []
        params: list[object] = []
        if content is not None:
            sets.append("content = ?")
            params.append(content)
        if status is not None:
            sets.append("status = ?")
            params.append(status)
        if usage is not None:
            sets.append("usage = ?")
            params.append(json.dumps(usage))
        if parts is not None:
            sets.append("parts = ?")
            params.append(json.dumps(parts) if parts else None)
        if not sets:
            return
        with self.transaction() as conn:
            conn.execute(f"UPDATE messages SET {', '.join(sets)} WHERE id = ?", (*params, message_id))

    def add_report(self, source_key: str, text: str) -> int:
        """A background report, delivered to the Chief as the owner (Quiet Mode never drops it)."""
        kind = report_kind(source_key)
        return self.add_message(self.chief_id(), "assistant", text, source=source_key, turn_kind=kind)

    def add_notice(self, text: str) -> int:
        return self.add_message(
            self.chief_id(), "assistant", text,
            source=turn_kinds.NOTICE_SOURCE, turn_kind=turn_kinds.NOTICE,
        )

    def message(self, message_id: int) -> Message | None:
        with self._lock:
            row = self._conn.execute("SELECT * FROM messages WHERE id = ?", (message_id,)).fetchone()
        return _row_to_message(row) if row else None

    def tail(self, conversation_id: int, limit: int) -> list[Message]:
        """The latest ``limit`` rows, oldest first."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT * FROM messages WHERE conversation_id = ? ORDER BY id DESC LIMIT ?",
                (conversation_id, limit),
            ).fetchall()
        return [_row_to_message(r) for r in reversed(rows)]

    def before(self, conversation_id: int, before_id: int, limit: int) -> list[Message]:
        """Up to ``limit`` rows older than ``before_id``, oldest first."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT * FROM messages WHERE conversation_id = ? AND id < ? ORDER BY id DESC LIMIT ?",
                (conversation_id, before_id, limit),
            ).fetchall()
        return [_row_to_message(r) for r in reversed(rows)]

    def after(self, conversation_id: int, after_id: int, limit: int = -1) -> list[Message]:
        """Rows newer than ``after_id``, oldest first (at most ``limit``; -1: all)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT * FROM messages WHERE conversation_id = ? AND id > ? ORDER BY id LIMIT ?",
                (conversation_id, after_id, limit),
            ).fetchall()
        return [_row_to_message(r) for r in rows]

    def messages(self, conversation_id: int) -> list[Message]:
        return self.after(conversation_id, 0)

    def count(self, conversation_id: int) -> int:
        with self._lock:
            return self._conn.execute(
                "SELECT count(*) FROM messages WHERE conversation_id = ?", (conversation_id,)
            ).fetchone()[0]

    def latest_summary(self, conversation_id: int) -> Message | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT * FROM messages WHERE conversation_id = ? AND turn_kind = 'summary' "
                "ORDER BY id DESC LIMIT 1",
                (conversation_id,),
            ).fetchone()
        return _row_to_message(row) if row else None

    def query(
        self,
        conversation_id: int,
        *,
        since: float | None = None,
        kind: str | None = None,
        limit: int | None = None,
    ) -> list[Message]:
        """Rows for review (``keeltui log``): oldest first, the newest ``limit``."""
        where = ["conversation_id = ?"]
        params: list[Any] = [conversation_id]
        if since is not None:
            where.append("created_at >= ?")
            params.append(since)
        if kind == turn_kinds.CONVERSATION:
            where.append("turn_kind IS NULL")
        elif kind:
            where.append("turn_kind = ?")
            params.append(kind)
        sql = f"SELECT * FROM messages WHERE {' AND '.join(where)} ORDER BY id DESC"
        if limit:
            sql += " LIMIT ?"
            params.append(limit)
        with self._lock:
            rows = self._conn.execute(sql, params).fetchall()
        return [_row_to_message(r) for r in reversed(rows)]

    # -- events and state -----------------------------------------------------------

    def add_event(self, kind: str, data: dict | None = None) -> int:
        with self.transaction() as conn:
            return _new_id(conn.execute(
                "INSERT INTO events (kind, data, created_at) VALUES (?, ?, ?)",
                (kind, json.dumps(data or {}), self._clock()),
            ))

    def events(self, kind: str | None = None, limit: int = 100) -> list[dict]:
        sql = "SELECT * FROM events"
        params: list[Any] = []
        if kind:
            sql += " WHERE kind = ?"
            params.append(kind)
        sql += " ORDER BY id DESC LIMIT ?"
        params.append(limit)
        with self._lock:
            rows = self._conn.execute(sql, params).fetchall()
        return [
            {"id": r["id"], "kind": r["kind"], "data": json.loads(r["data"]), "created_at": r["created_at"]}
            for r in reversed(rows)
        ]

    def get_state(self, key: str, default: Any = None) -> Any:
        with self._lock:
            row = self._conn.execute("SELECT value FROM app_state WHERE key = ?", (key,)).fetchone()
        return json.loads(row["value"]) if row else default

    def set_state(self, key: str, value: Any) -> None:
        with self.transaction() as conn:
            _set_state(conn, key, value, self._clock())

    def delete_state(self, key: str) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM app_state WHERE key = ?", (key,))


def _set_state(conn: sqlite3.Connection, key: str, value: Any, now: float) -> None:
    conn.execute(
        "INSERT INTO app_state (key, value, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        (key, json.dumps(value), now),
    )


@contextmanager
def _immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """A write transaction that takes the lock up front (waiting up to the busy timeout)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")


def _looks_like_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(16)
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the database: {exc.strerror}") from None
    return head == b"" or head == b"SQLite format 3\x00"


def _new_id(cur: sqlite3.Cursor) -> int:
    """The id an INSERT just made (sqlite3 types ``lastrowid`` as optional)."""
    assert cur.lastrowid is not None, "an INSERT always sets lastrowid"
    return cur.lastrowid
