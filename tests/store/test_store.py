"""The store on a real SQLite file: schema, backfill, concurrent writers, bad files."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from keeltui.store import SCHEMA_VERSION, Store, StoreError

ROOT = Path(__file__).resolve().parents[2]


def test_new_database_is_current_and_wal(tmp_path):
    store = Store(tmp_path / "k.db")
    assert store.schema_version == SCHEMA_VERSION
    mode = sqlite3.connect(tmp_path / "k.db").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_chief_is_created_once(store):
    first = store.chief_id()
    again = Store(store.path).chief_id()
    assert first == again
    assert len(store.conversations("chief")) == 1


def test_report_kind_is_set_where_the_row_is_born(store):
    coop = store.add_report("coop-notify:build", "built")
    follow = store.add_report("chief-report:followup:dentist", "call back")
    task = store.add_report("cron:backup", "backup ok")
    notice = store.add_notice("brain offline")
    user = store.add_message(store.chief_id(), "user", "hello")
    kinds = {row.id: row.turn_kind for row in store.messages(store.chief_id())}
    assert kinds == {coop: "coop", follow: "followup", task: "task", notice: "notice", user: None}


def _old_backup(path: Path) -> None:
    """A database as an older build left it: reports and a summary with no turn_kind."""
    seed = Store(path)
    room = seed.chief_id()
    seed.close()
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM app_state")  # an older build kept no migration marks
    rows = [
        ("assistant", "built fine", "coop-notify:ci"),
        ("assistant", "dentist tomorrow", "chief-report:followup:d"),
        ("assistant", "nightly backup ok", "chief-report:cron:backup"),
        ("assistant", "Summary of the conversation so far: we planned", None),
        ("assistant", "an ordinary reply", None),
        ("user", "an ordinary question", None),
    ]
    for role, content, source in rows:
        conn.execute(
            "INSERT INTO messages (conversation_id, role, content, source, created_at) VALUES (?, ?, ?, ?, 0)",
            (room, role, content, source),
        )
    conn.commit()
    conn.close()


def test_backfill_classifies_an_old_backup_on_open_and_is_idempotent(tmp_path):
    path = tmp_path / "old.db"
    _old_backup(path)
    store = Store(path)
    kinds = [row.turn_kind for row in store.messages(store.chief_id())]
    assert kinds == ["coop", "followup", "task", "summary", None, None]
    snapshot = sqlite3.connect(path).execute("SELECT * FROM messages ORDER BY id").fetchall()
    assert store.backfill_turn_kinds() == 0
    store.close()
    Store(path).close()
    assert sqlite3.connect(path).execute("SELECT * FROM messages ORDER BY id").fetchall() == snapshot


def test_backfill_never_overwrites_a_kind(tmp_path):
    store = Store(tmp_path / "k.db")
    row = store.add_message(store.chief_id(), "assistant", "x", source="coop-notify:a", turn_kind="task")
    store.close()
    assert Store(tmp_path / "k.db").message(row).turn_kind == "task"


def test_migration_from_version_1(tmp_path):
    path = tmp_path / "v1.db"
    from keeltui import store as store_module

    conn = sqlite3.connect(path)
    conn.executescript(store_module._MIGRATIONS[0])
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    assert Store(path).schema_version == SCHEMA_VERSION


def test_tail_before_after_and_query(store):
    room = store.chief_id()
    ids = [store.add_message(room, "user", f"m{i}") for i in range(50)]
    assert [r.id for r in store.tail(room, 5)] == ids[-5:]
    assert [r.id for r in store.before(room, ids[10], 3)] == ids[7:10]
    assert [r.id for r in store.after(room, ids[47])] == ids[48:]
    store.add_report("followup:x", "f")
    assert [r.content for r in store.query(room, kind="followup")] == ["f"]
    assert len(store.query(room, kind="conversation", limit=7)) == 7


def test_state_round_trip(store):
    store.set_state("quiet_mode", True)
    store.set_state("focus_session", {"commitment": "write"})
    assert store.get_state("quiet_mode") is True
    assert store.get_state("focus_session") == {"commitment": "write"}
    store.delete_state("quiet_mode")
    assert store.get_state("quiet_mode", False) is False


def test_data_version_sees_other_writers(tmp_path):
    a = Store(tmp_path / "k.db")
    b = Store(tmp_path / "k.db")
    before = a.data_version()
    b.add_report("cron:x", "hello")
    assert a.data_version() != before


_WRITER = textwrap.dedent(
    """
    import sys
    from keeltui.store import Store
    store = Store(sys.argv[1])
    for i in range(int(sys.argv[3])):
        store.add_report(f"cron:{sys.argv[2]}", f"{sys.argv[2]}-{i}")
        store.set_state(f"writer-{sys.argv[2]}", i)
    print("ok")
    """
)


def test_two_processes_writing_at_once_never_fail(tmp_path):
    path = tmp_path / "k.db"
    Store(path).close()
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(path), name, "400"],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for name in ("a", "b")
    ]
    results = [p.communicate(timeout=120) for p in procs]
    for out, err in results:
        assert out.strip() == "ok", err
        assert "locked" not in err
    store = Store(path)
    contents = {row.content for row in store.messages(store.chief_id())}
    assert {f"a-{i}" for i in range(400)} <= contents
    assert {f"b-{i}" for i in range(400)} <= contents


def test_not_a_database_is_a_clear_error_and_the_file_is_untouched(tmp_path):
    path = tmp_path / "k.db"
    payload = b"this is not sqlite at all\n" * 100
    path.write_bytes(payload)
    with pytest.raises(StoreError) as caught:
        Store(path)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == payload


def test_corrupt_database_is_a_clear_error_and_the_file_is_untouched(tmp_path):
    path = tmp_path / "k.db"
    store = Store(path)
    for i in range(200):
        store.add_report("cron:x", f"row {i}" * 20)
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the schema page
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError) as caught:
        Store(path)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == bytes(data)


def test_unreadable_database_is_a_clear_error(tmp_path):
    import os

    if os.geteuid() == 0:
        # root reads any file; a folder in the file's place is unreadable as a file for everyone.
        path = tmp_path / "k.db"
        path.mkdir()
    else:
        path = tmp_path / "k.db"
        path.write_bytes(b"")
        path.chmod(0)
    with pytest.raises(StoreError) as caught:
        Store(path)
    assert str(path) in str(caught.value)


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "k.db"
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer"):
        Store(path)


def _insert_unmarked_report(path: Path, text: str) -> None:
    """What an older keeltui (no turn_kind at birth) writing to the same file leaves."""
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO messages (conversation_id, role, content, source, created_at) "
                 "VALUES (1, 'assistant', ?, 'coop-notify:old', 0)", (text,))
    conn.commit()
    conn.close()


def test_backfill_marks_rows_an_older_writer_added_after_the_last_open(tmp_path):
    path = tmp_path / "k.db"
    store = Store(path)
    store.add_report("cron:a", "new-style row")
    store.close()
    _insert_unmarked_report(path, "written by an older build")
    reopened = Store(path)
    assert reopened.messages(1)[-1].turn_kind == "coop"
    assert reopened.get_state("backfill_checked_to") == reopened.messages(1)[-1].id


def test_backfill_distrusts_a_mark_beyond_the_rows(tmp_path):
    path = tmp_path / "k.db"
    store = Store(path)
    store.chief_id()
    store.set_state("backfill_checked_to", 10_000)  # e.g. app_state copied from another file
    store.close()
    _insert_unmarked_report(path, "unmarked")
    assert Store(path).messages(1)[-1].turn_kind == "coop"
