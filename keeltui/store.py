"""SQLite store: the single source of truth.

Every row (turn, system line, tool call, event, setting, snooze, focus session) is
written here first; every screen is a projection of it. Several processes share the
file: WAL, a busy timeout, and ``BEGIN IMMEDIATE`` for every write so that a writer
waits for the lock instead of failing with "database is locked".
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

from keeltui.infra.records import record
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator
from urllib.parse import quote

from keeltui.infra import dbfiles
from keeltui.adapters.process_probe import pid_alive
from keeltui.chief import turn_kinds
from keeltui.chief.interrupted import WRITER_PART, is_orphan, settled_parts
from keeltui.chief.turn_kinds import classify, report_kind
from keeltui.values import StoreDamaged, StoreError, StoreWriteError  # re-exported: callers name them here

BUSY_TIMEOUT_MS = 15_000
PAGE_CACHE_KIB = 512
"""SQLite's page cache for the one connection (its default is 2 000 KiB): paging a long room
reads every page of it once, and a full default cache stayed in the app's memory for good.
The file's pages stay in the system's cache; a page read again costs a read, not a seek."""
# Rows up to it were classified; present at all, the text-guessing migration has run
# (or was never needed: a room this version created, born with the mark at 0).
BACKFILL_MARK_KEY = "backfill_checked_to"
LEGACY_KINDS_MIGRATED_KEY = "turn_kinds_migrated"
"""Written by the build before the mark alone said it: read once, then replaced by the mark."""
# Rows before it hold no reply left streaming by a dead process (see settle_interrupted).
SETTLE_MARK_KEY = "interrupted_checked_from"
SCHEMA_VERSION = 3



@contextmanager
def _side_connection(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection of its own, for a thread of a process that has the file
    open already (a long read there never holds the shared connection's lock). Only
    SQLite touches the file: a plain open() and close() of it would drop this process's
    POSIX locks on it."""
    conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        yield conn
    finally:
        conn.close()

@dataclass(frozen=True)
class Row:
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
    thinking: str = ""
    """A reasoning model's thinking before this reply (never part of ``content``)."""
    thought_secs: float | None = None
    """How long it thought, from its first piece of thinking to its answer."""

    @property
    def is_system_line(self) -> bool:
        return turn_kinds.is_system_line(self.turn_kind)


@record(frozen=True)
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
    # 3: a reply's thinking, kept with the row and apart from its text.
    """
    ALTER TABLE messages ADD COLUMN thinking TEXT;
    ALTER TABLE messages ADD COLUMN thought_secs REAL
    """,
]
assert len(_MIGRATIONS) == SCHEMA_VERSION


def _to_row(row: sqlite3.Row) -> Row:
    return Row(
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
        **_thinking_fields(row),
    )


def _thinking_fields(row: sqlite3.Row) -> dict:
    """A file of schema 2 read without migrating (``keeltui log`` is read-only) has no thinking."""
    try:
        return {"thinking": row["thinking"] or "", "thought_secs": row["thought_secs"]}
    except IndexError:
        return {}


class Store:
    """One connection to the keeltui database. Safe to share between threads."""

    def __init__(self, path: Path, *, clock=time.time, readonly: bool = False) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.RLock()
        self._chief_id: int | None = None
        self.readonly = readonly
        self.notices: list[str] = []
        """One line per thing the opening fixed (files made private), for the caller to say."""
        self._conn = self._connect_readonly() if readonly else self._connect()

    # -- opening ------------------------------------------------------------------

    def _reject_unusable(self) -> None:
        """Refuse, before SQLite touches it, a file that cannot be a keeltui database."""
        try:
            size = self.path.stat().st_size
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot read the database: {exc.strerror}") from None
        if self.path.is_dir():
            raise StoreError(f"{self.path}: is a folder, not a database file")
        if size == 0:
            raise StoreError(
                f"{self.path}: the database file is empty (0 bytes), so it holds no room; "
                "it was left untouched — delete it to start a new room, or restore a backup"
            )
        # Whether it is SQLite at all is left to SQLite's first read (SQLITE_NOTADB, see
        # _not_sqlite): reading the header here with open()/close() would drop this
        # process's POSIX locks on the file if it already has it open.

    def _not_sqlite(self, exc: sqlite3.DatabaseError) -> StoreError | None:
        if getattr(exc, "sqlite_errorname", "") == "SQLITE_NOTADB" or "not a database" in str(exc):
            return StoreError(
                f"{self.path}: not a keeltui database (the file is not SQLite); "
                "it was left untouched — move it aside or point paths.database elsewhere"
            )
        return None

    def _connect(self) -> sqlite3.Connection:
        try:
            dbfiles.make_private_dir(self.path.parent)
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot create its folder: {exc.strerror}") from None
        fresh = not self.path.exists()
        created = False
        if fresh:
            try:
                # Owner-only from birth; SQLite gives -wal and -shm the same mode.
                created = dbfiles.create_private_file(self.path)
            except OSError as exc:
                raise StoreError(f"{self.path}: cannot create the database: {exc.strerror}") from None
        else:
            self._reject_unusable()
            self.notices.extend(dbfiles.tighten(dbfiles.database_files(self.path)))
        conn: sqlite3.Connection | None = None
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
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
            self._migrate(conn, version)
            if version == 0:
                with _immediate(conn):
                    _set_state(conn, BACKFILL_MARK_KEY, 0, time.time())
            try:
                self._backfill_turn_kinds(conn)
            except sqlite3.DatabaseError as exc:
                if not dbfiles.is_damage(exc):
                    raise
                # A damaged page deep in the room: the room still opens, readable rows
                # stay readable, and the damage is said (quick_check) with the way out.
        except sqlite3.DatabaseError as exc:
            if created:
                self._unmake(conn)
            if (refusal := self._not_sqlite(exc)) is not None:
                raise refusal from None
            if dbfiles.is_damage(exc):
                raise StoreDamaged(dbfiles.describe(self.path, exc, False, BUSY_TIMEOUT_MS / 1000)) from None
            if fresh or isinstance(exc, sqlite3.OperationalError):
                raise StoreWriteError(dbfiles.describe(self.path, exc, True, BUSY_TIMEOUT_MS / 1000)) from None
            raise StoreError(f"{self.path}: cannot open the database: {exc}") from None
        return conn

    def _unmake(self, conn: sqlite3.Connection | None) -> None:
        """Undo a first open that failed (a full disk) before the file held anything: an
        empty file left behind would be refused at the next start as the owner's room."""
        if conn is not None:
            conn.close()
        try:
            if self.path.stat().st_size != 0:
                return  # something was written: not ours to delete
            for path in dbfiles.database_files(self.path):
                path.unlink(missing_ok=True)
        except OSError:
            pass  # the error that matters is the one being raised

    def _connect_readonly(self) -> sqlite3.Connection:
        """For reading only (log, export, status, doctor): nothing on disk changes.

        No folder or file is created, no pragma that writes is run, no migration or
        backfill. A missing file reads as an empty room. On read-only media, where
        SQLite cannot create the WAL index, the file is read as immutable.
        """
        if not self.path.exists():
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            self._migrate(conn, 0)
            return conn
        self._reject_unusable()
        last: sqlite3.Error | None = None
        # No -wal file: no process has the room open (the last one to close folds the
        # WAL in and deletes it), so the file alone is the whole room and is read as
        # immutable, which creates no -wal/-shm beside it. With a -wal, another process
        # is writing: read live; on read-only media that fails and the file is read alone.
        live = Path(f"{self.path}-wal").exists()
        for extra in (("mode=ro", "mode=ro&immutable=1") if live else ("mode=ro&immutable=1",)):
            try:
                conn = sqlite3.connect(
                    f"file:{quote(str(self.path))}?{extra}", uri=True,
                    timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False,
                )
                conn.row_factory = sqlite3.Row
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlite3.DatabaseError as exc:
                if (refusal := self._not_sqlite(exc)) is not None:
                    raise refusal from None
                if dbfiles.is_damage(exc):
                    raise StoreDamaged(dbfiles.describe(self.path, exc, False, BUSY_TIMEOUT_MS / 1000)) from None
                last = exc
                continue
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: schema version {version} is newer than this keeltui "
                    f"understands ({SCHEMA_VERSION}); upgrade keeltui"
                )
            if version == 0:  # an empty SQLite file: no room yet
                conn.close()
                conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                conn.row_factory = sqlite3.Row
                self._migrate(conn, 0)
            return conn
        # The loop runs at least once and either returns or records its error.
        assert last is not None
        raise StoreError(dbfiles.describe(self.path, last, False, BUSY_TIMEOUT_MS / 1000))

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
        """Kinds for rows that were written without one; touches nothing else.

        Rows this version writes carry their kind from birth, and their text is never
        guessed at: a reply that begins like a summary stays a reply. Two passes:

        - by source, on every open, for rows an older build (still writing to the
          same file) added since the last open: a report's source is a fact;
        - by text, once per file, as a migration: a room from before kinds existed
          (a restored backup) had summaries known only by their prefix.

        Rows up to a stored high-water mark were checked by an earlier open, so a long
        room is not scanned at every start. Idempotent: each update re-checks NULL.
        """
        found = conn.execute("SELECT value FROM app_state WHERE key = ?", (BACKFILL_MARK_KEY,)).fetchone()
        # The build before this one said "classified by text" with a key of its own, and a
        # room it created may have that key and no mark yet.
        legacy = conn.execute("SELECT 1 FROM app_state WHERE key = ?", (LEGACY_KINDS_MIGRATED_KEY,)).fetchone()
        # A file with the mark was classified by text already, and its rows since carry kinds from birth.
        text_done = found is not None or legacy is not None
        mark = json.loads(found["value"]) if found else 0
        top = conn.execute("SELECT max(id) FROM messages").fetchone()[0] or 0
        if not isinstance(mark, int) or mark > top:
            mark = 0  # a mark from some other file: trust nothing
        if top == mark and text_done:
            return 0
        where = "source IS NOT NULL"
        params: list[Any] = [mark]
        if not text_done:
            like_prefixes = " OR ".join("content LIKE ? ESCAPE '\\'" for _ in turn_kinds.SUMMARY_PREFIXES)
            where += f" OR {like_prefixes}"
            params += [
                p.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
                for p in turn_kinds.SUMMARY_PREFIXES
            ]
        rows = conn.execute(
            "SELECT id, role, source, substr(content, 1, 64) AS head FROM messages "
            f"WHERE id > ? AND turn_kind IS NULL AND role = 'assistant' AND ({where})",
            params,
        ).fetchall()
        updates = [
            (kind, r["id"])
            for r in rows
            if (kind := classify(r["role"], None if text_done else r["head"], r["source"])) is not None
        ]
        with _immediate(conn):
            if updates:
                conn.executemany(
                    "UPDATE messages SET turn_kind = ? WHERE id = ? AND turn_kind IS NULL", updates
                )
            _set_state(conn, BACKFILL_MARK_KEY, top, time.time())
            if legacy is not None:
                conn.execute("DELETE FROM app_state WHERE key = ?", (LEGACY_KINDS_MIGRATED_KEY,))
        return len(updates)

    def backfill_turn_kinds(self) -> int:
        """The open's backfill again (rows an older build added since); a reader never writes."""
        if self.readonly:
            return 0
        with self._lock:
            try:
                return self._backfill_turn_kinds(self._conn)
            except sqlite3.DatabaseError as exc:
                raise self._translate(exc, writing=True) from None

    def close(self) -> None:
        with self._reading():
            self._conn.close()

    @property
    def schema_version(self) -> int:
        with self._reading():
            return self._conn.execute("PRAGMA user_version").fetchone()[0]

    def data_version(self) -> int:
        """Changes whenever another connection commits: the cheap 'anything new?' poll."""
        with self._reading():
            return self._conn.execute("PRAGMA data_version").fetchone()[0]

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write; any failure is a :class:`StoreWriteError` naming the file (nothing written)."""
        with self._lock:
            try:
                with _immediate(self._conn):
                    yield self._conn
            except sqlite3.DatabaseError as exc:
                raise self._translate(exc, writing=True) from None

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """A read; a damaged page is a :class:`StoreDamaged` naming the file and the way out."""
        with self._lock:
            try:
                yield
            except sqlite3.DatabaseError as exc:
                raise self._translate(exc, writing=False) from None

    def _translate(self, exc: sqlite3.DatabaseError, *, writing: bool) -> StoreError:
        line = dbfiles.describe(self.path, exc, writing, BUSY_TIMEOUT_MS / 1000)
        if dbfiles.is_damage(exc):
            return StoreDamaged(line)
        return StoreWriteError(line) if writing else StoreError(line)

    def quick_check(self) -> str | None:
        """None when ``PRAGMA quick_check`` passes; otherwise one line naming the file."""
        try:
            with self._lock:
                rows = self._conn.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as exc:
            return dbfiles.describe(self.path, exc, False, BUSY_TIMEOUT_MS / 1000)
        if len(rows) == 1 and rows[0][0] == "ok":
            return None
        return f"database damaged at {dbfiles.shown(self.path)}; {dbfiles.recover_hint(self.path)}"

    @staticmethod
    def quick_check_file(path: Path) -> str | None:
        """:meth:`quick_check` on a connection of its own (:func:`_side_connection`)."""
        try:
            with _side_connection(path) as conn:
                rows = conn.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as exc:
            return dbfiles.describe(Path(path), exc, False, BUSY_TIMEOUT_MS / 1000)
        if len(rows) == 1 and rows[0][0] == "ok":
            return None
        return f"database damaged at {dbfiles.shown(path)}; {dbfiles.recover_hint(path)}"

    def settle_interrupted(self, alive: Callable[[int], bool] = pid_alive) -> int:
        """Replies left ``streaming`` by a process that died are marked cut off (kept).

        Only rows from a stored mark on are looked at (the rows written since the last
        start, and any that were still live then), so a long room is not scanned at
        every start; a file without the mark is scanned once.
        """
        with self._reading():
            mark = self._conn.execute(
                "SELECT value FROM app_state WHERE key = ?", (SETTLE_MARK_KEY,)
            ).fetchone()
            mark = json.loads(mark["value"]) if mark else 0
            top = self._conn.execute("SELECT max(id) FROM messages").fetchone()[0] or 0
            if not isinstance(mark, int) or mark > top + 1:
                mark = 0  # a mark from some other file: trust nothing
            rows = self._conn.execute(
                "SELECT id, content, parts FROM messages WHERE id >= ? AND id <= ? AND status = 'streaming'",
                (mark, top),
            ).fetchall()
        settled = 0
        live = [top + 1]
        for row in rows:
            parts = json.loads(row["parts"]) if row["parts"] else []
            if not is_orphan(parts, os.getpid(), alive):
                live.append(row["id"])
                continue
            with self.transaction() as conn:
                settled += conn.execute(
                    "UPDATE messages SET status = ?, parts = ? WHERE id = ? AND status = 'streaming'",
                    ("partial" if row["content"] else "error", json.dumps(settled_parts(parts)), row["id"]),
                ).rowcount
        if min(live) != mark:
            self.set_state(SETTLE_MARK_KEY, min(live))
        return settled

    # -- conversations ------------------------------------------------------------

    def chief_id(self) -> int:
        """The Chief room, created on first use."""
        if self._chief_id is None and self.readonly:
            with self._reading():
                row = self._conn.execute(
                    "SELECT id FROM conversations WHERE kind = 'chief' ORDER BY id LIMIT 1"
                ).fetchone()
            return row["id"] if row else 0  # no room yet: every query is empty
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
        with self._reading():
            rows = self._conn.execute(
                "SELECT * FROM conversations WHERE kind = ? ORDER BY updated_at DESC, id DESC",
                (kind,),
            ).fetchall()
        return [Conversation(r["id"], r["kind"], r["title"], r["created_at"], r["updated_at"]) for r in rows]

    def conversation(self, conversation_id: int) -> Conversation | None:
        with self._reading():
            r = self._conn.execute(
                "SELECT * FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
        return Conversation(r["id"], r["kind"], r["title"], r["created_at"], r["updated_at"]) if r else None

    def rename_conversation(self, conversation_id: int, title: str) -> bool:
        """Retitle a conversation (its activity time stays); False for none or the Chief room."""
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE conversations SET title = ? WHERE id = ? AND kind != 'chief'",
                (title, conversation_id),
            )
            return cur.rowcount > 0

    def delete_conversation(self, conversation_id: int) -> bool:
        """Delete a conversation and all its rows at once; the Chief room is never deleted."""
        with self.transaction() as conn:
            found = conn.execute(
                "SELECT kind FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
            if found is None or found["kind"] == "chief":
                return False
            conn.execute("DELETE FROM messages WHERE conversation_id = ?", (conversation_id,))
            conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
            return True

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
        """Append a row; its kind is decided here from its source unless given (never from its text)."""
        if turn_kind is None:
            turn_kind = classify(role, None, source)
        if status == "streaming" and not parts:
            # Which process writes it, so a later start can tell a live stream from a dead one.
            parts = [{"type": WRITER_PART, "pid": os.getpid()}]
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
        thinking: str | None = None,
        thought_secs: float | None = None,
    ) -> None:
        sets: list[str] = []
        params: list[object] = []
        if thinking is not None:
            sets.append("thinking = ?")
            params.append(thinking)
        if thought_secs is not None:
            sets.append("thought_secs = ?")
            params.append(thought_secs)
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

    def message(self, message_id: int) -> Row | None:
        with self._reading():
            row = self._conn.execute("SELECT * FROM messages WHERE id = ?", (message_id,)).fetchone()
        return _to_row(row) if row else None

    def tail(self, conversation_id: int, limit: int, after_id: int = 0) -> list[Row]:
        """The latest ``limit`` rows (newer than ``after_id``), oldest first."""
        with self._reading():
            rows = self._conn.execute(
                "SELECT * FROM messages WHERE conversation_id = ? AND id > ? ORDER BY id DESC LIMIT ?",
                (conversation_id, after_id, limit),
            ).fetchall()
        return [_to_row(r) for r in reversed(rows)]

    def before(self, conversation_id: int, before_id: int, limit: int) -> list[Row]:
        """Up to ``limit`` rows older than ``before_id``, oldest first."""
        with self._reading():
            rows = self._conn.execute(
                "SELECT * FROM messages WHERE conversation_id = ? AND id < ? ORDER BY id DESC LIMIT ?",
                (conversation_id, before_id, limit),
            ).fetchall()
        return [_to_row(r) for r in reversed(rows)]

    def after(self, conversation_id: int, after_id: int, limit: int = -1) -> list[Row]:
        """Rows newer than ``after_id``, oldest first (at most ``limit``; -1: all)."""
        with self._reading():
            rows = self._conn.execute(
                "SELECT * FROM messages WHERE conversation_id = ? AND id > ? ORDER BY id LIMIT ?",
                (conversation_id, after_id, limit),
            ).fetchall()
        return [_to_row(r) for r in rows]

    def messages(self, conversation_id: int) -> list[Row]:
        return self.after(conversation_id, 0)

    def count(self, conversation_id: int) -> int:
        with self._reading():
            return self._conn.execute(
                "SELECT count(*) FROM messages WHERE conversation_id = ?", (conversation_id,)
            ).fetchone()[0]

    def latest_summary(self, conversation_id: int) -> Row | None:
        with self._reading():
            row = self._conn.execute(
                "SELECT * FROM messages WHERE conversation_id = ? AND turn_kind = 'summary' "
                "ORDER BY id DESC LIMIT 1",
                (conversation_id,),
            ).fetchone()
        return _to_row(row) if row else None

    def query(
        self,
        conversation_id: int,
        *,
        since: float | None = None,
        kind: str | None = None,
        limit: int | None = None,
    ) -> list[Row]:
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
        with self._reading():
            rows = self._conn.execute(sql, params).fetchall()
        return [_to_row(r) for r in reversed(rows)]

    def search(self, conversation_id: int, needle: str, *, before_id: int | None = None,
               after_id: int | None = None) -> Row | None:
        """The nearest row containing ``needle`` (case-insensitive) older than ``before_id``
        or newer than ``after_id``; the newest match when neither is given."""
        where = "conversation_id = ? AND instr(lower(content), lower(?)) > 0"
        params: list[Any] = [conversation_id, needle]
        if after_id is not None:
            sql = f"SELECT * FROM messages WHERE {where} AND id > ? ORDER BY id LIMIT 1"
            params.append(after_id)
        else:
            sql = f"SELECT * FROM messages WHERE {where} AND id < ? ORDER BY id DESC LIMIT 1"
            params.append(before_id if before_id is not None else 2**62)
        with self._reading():
            row = self._conn.execute(sql, params).fetchone()
        return _to_row(row) if row else None

    def count_matches(self, conversation_id: int, needle: str, *, from_id: int = 0) -> tuple[int, int]:
        """``(rows with id >= from_id, all rows)`` that contain ``needle`` (case-insensitive),
        in one scan of the room.

        On a read-only connection of its own: in a long room the scan takes a while, and
        on the shared connection its lock would hold every read of the UI (the store's
        poll, paging, the next match) for as long (:func:`_side_connection`)."""
        try:
            with _side_connection(self.path) as conn:
                found, total = conn.execute(
                    "SELECT total(id >= ?), count(*) FROM messages WHERE conversation_id = ? "
                    "AND instr(lower(content), lower(?)) > 0",
                    (from_id, conversation_id, needle),
                ).fetchone()
        except sqlite3.DatabaseError as exc:
            raise self._translate(exc, writing=False) from None
        return int(found), total

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
        with self._reading():
            rows = self._conn.execute(sql, params).fetchall()
        return [
            {"id": r["id"], "kind": r["kind"], "data": json.loads(r["data"]), "created_at": r["created_at"]}
            for r in reversed(rows)
        ]

    def events_between(self, kinds: tuple[str, ...], start: float, end: float) -> list[dict]:
        """Events of these kinds recorded in [start, end), oldest first (for `keeltui day`)."""
        marks = ", ".join("?" for _ in kinds)
        sql = f"SELECT * FROM events WHERE kind IN ({marks}) AND created_at >= ? AND created_at < ? ORDER BY id"
        with self._reading():
            rows = self._conn.execute(sql, (*kinds, start, end)).fetchall()
        return [
            {"id": r["id"], "kind": r["kind"], "data": json.loads(r["data"]), "created_at": r["created_at"]}
            for r in rows
        ]

    def get_state(self, key: str, default: Any = None) -> Any:
        with self._reading():
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
        # SQLite has already rolled back after some errors (a full disk, an I/O error);
        # a second ROLLBACK would fail and hide the error that matters.
        if conn.in_transaction:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")


def _new_id(cur: sqlite3.Cursor) -> int:
    """The id an INSERT just made (sqlite3 types ``lastrowid`` as optional)."""
    assert cur.lastrowid is not None, "an INSERT always sets lastrowid"
    return cur.lastrowid
