"""Issue 10.2: reading never writes; an empty or damaged file is reported, not used."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess

import pytest

from keeltui.store import Store, StoreDamaged, StoreError
from tests.conftest import write_config
from keeltui_dev.loopback import free_port
from tests.support.pilot import screen_text, wait_for
from tests.support.tmux import run_keeltui

READERS = (["log"], ["export"], ["doctor"], ["status"], ["day"])


def _cfg(tmp_path, db):
    return write_config(tmp_path / "c.toml", f"http://127.0.0.1:{free_port()}/v1",
                        f'[paths]\ndatabase = "{db}"\nstatus_file = "{tmp_path / "state" / "status"}"\n')


def _folder_snapshot(folder) -> dict:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def _room(db, rows: int = 5) -> None:
    store = Store(db)
    room = store.chief_id()
    for i in range(rows):
        store.add_message(room, "user" if i % 2 else "assistant", f"row {i} " + "lorem ipsum " * 80)
    store.close()


@contextlib.contextmanager
def read_only(path):
    """A folder or file made unwritable for real: chattr +i as root (who ignores modes), else a mode."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)]).returncode != 0:
            pytest.skip("needs chattr on a filesystem that supports it (running as root)")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)])
    else:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)


def test_log_export_doctor_status_leave_the_folder_byte_identical(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    db = data / "k.db"
    _room(db)
    cfg = _cfg(tmp_path, db)
    before = _folder_snapshot(data)
    for args in READERS:
        out = run_keeltui(cfg, *args)
        assert "Traceback" not in out.stderr, (args, out.stderr)
    assert _folder_snapshot(data) == before  # no -wal, no -shm, no changed byte or mtime
    assert "row 4" in run_keeltui(cfg, "log").stdout


def test_readers_work_on_read_only_media(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    db = data / "k.db"
    _room(db)
    cfg = _cfg(tmp_path, db)
    with read_only(data):
        log = run_keeltui(cfg, "log")
        export = run_keeltui(cfg, "export")
        doctor = run_keeltui(cfg, "doctor")
        day = run_keeltui(cfg, "day")
    assert log.returncode == 0 and "row 4" in log.stdout, log.stderr
    assert export.returncode == 0 and "row 4" in export.stdout, export.stderr
    assert "[ok  ] database:" in doctor.stdout, doctor.stdout
    assert day.returncode == 0 and "Traceback" not in day.stderr, day.stderr


def test_a_zero_byte_database_is_reported_and_left_alone(tmp_path):
    db = tmp_path / "k.db"
    db.write_bytes(b"")
    cfg = _cfg(tmp_path, db)
    for args in ([], ["log"], ["report", "--source", "cron:x", "hello"]):
        out = run_keeltui(cfg, *args)
        assert out.returncode == 1, (args, out.stdout)
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and str(db) in lines[0] and "empty (0 bytes)" in lines[0], (args, out.stderr)
    assert db.read_bytes() == b""
    with pytest.raises(StoreError, match="empty"):
        Store(db)


def test_a_rejected_file_is_not_changed_by_opening_it(tmp_path):
    db = tmp_path / "k.db"
    conn = sqlite3.connect(db)  # a rollback-journal database from a newer keeltui
    conn.execute("CREATE TABLE t (x)")
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    cfg = _cfg(tmp_path, db)
    for args in ([], ["report", "--source", "cron:x", "hello"], ["log"]):
        out = run_keeltui(cfg, *args)
        assert out.returncode == 1 and "newer" in out.stderr
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("k.db")) == ["k.db"]


def _damaged_room(db, rows: int = 300) -> None:
    """A room with one early page overwritten: the newest rows still read, older ones do not."""
    _room(db, rows)
    with open(db, "r+b") as handle:
        handle.seek(4096 * 20)
        handle.write(b"\xde\xad\xbe\xef" * 1024)


def test_a_partly_damaged_database_says_how_to_recover(tmp_path):
    db = tmp_path / "k.db"
    _damaged_room(db)
    cfg = _cfg(tmp_path, db)
    recover = f"sqlite3 {db} .recover"
    for args in (["log"], ["export"]):
        out = run_keeltui(cfg, *args)
        assert out.returncode == 1, args
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and recover in lines[0] and "Traceback" not in out.stderr, (args, out.stderr)
    before = db.read_bytes()
    report = run_keeltui(cfg, "report", "--source", "cron:x", "must not land in a damaged file")
    assert report.returncode == 1 and "report not written" in report.stderr and recover in report.stderr
    assert db.read_bytes() == before
    doctor = run_keeltui(cfg, "doctor")
    assert "[FAIL] database:" in doctor.stdout and recover in doctor.stdout
    with pytest.raises(StoreDamaged):
        Store(db, readonly=True).messages(1)


async def test_the_room_says_so_at_open_and_survives_paging_into_a_bad_page(tmp_path, make_app):
    db = tmp_path / "k.db"
    _damaged_room(db)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: ".recover" in app.status_line.message, timeout=20, what="the damage said at open")
        assert str(db) in app.status_line.message
        for _ in range(12):  # page back until the bad page (the log reads older rows ahead)
            app.room.page(-1)
            await pilot.pause(0.1)
        assert app.is_running
        assert "row 299" in "".join(str(r.content) for r in app.store.tail(1, 1))
        assert "database damaged" in screen_text(app)  # the path after it may be clipped


def test_the_real_app_opens_a_damaged_room_says_so_and_tightens_it(tmp_path, e2e_env):
    from tests.support.need import need_binary
    from tests.support.tmux import Tmux, keeltui_command

    need_binary("tmux", "tmux")
    db = tmp_path / "k.db"
    _damaged_room(db)
    os.chmod(db, 0o644)  # as an earlier version left it
    cfg = _cfg(tmp_path, db)
    session = Tmux(120, 40)
    try:
        session.start(keeltui_command(cfg), e2e_env)
        session.wait_text("database damaged at")
        # The one-line notice, in the room; it names the file, so where it wraps depends on
        # the temporary path's length: match it with the line breaks taken out.
        session.wait_for(lambda text: "was readable by others (0644); made private" in " ".join(text.split()),
                         what="the notice that the file was made private")
        session.send("Escape")
        for _ in range(10):  # scroll back into the bad page
            session.send("Home")
            session.wait_for(lambda text: "database damaged at" in text, what="still running")
        assert not session.pane_dead()
        assert "Traceback" not in session.capture()
    finally:
        session.close()
    assert oct(db.stat().st_mode & 0o777) == "0o600"


def _damaged_events(db, events: int = 300) -> None:
    """A file whose events fill most pages, one of them overwritten."""
    store = Store(db)
    store.chief_id()
    for i in range(events):
        store.add_event("drift", {"title": f"event {i} " + "lorem ipsum " * 80})
    store.close()
    with open(db, "r+b") as handle:
        handle.seek(4096 * 20)
        handle.write(b"\xde\xad\xbe\xef" * 1024)


def test_every_read_says_damage_the_same_way(tmp_path):
    """search, count_matches and events_between read like every other read: damage is a
    StoreDamaged naming the way out, never a raw sqlite3 error (a traceback in the CLI)."""
    rows, events = tmp_path / "rows.db", tmp_path / "events.db"
    _damaged_room(rows)
    _damaged_events(events)
    store = Store(rows, readonly=True)
    for read in (lambda: store.search(1, "no such text"), lambda: store.count_matches(1, "no such text")):
        with pytest.raises(StoreDamaged, match="recover"):
            read()
    with pytest.raises(StoreDamaged, match="recover"):
        Store(events, readonly=True).events_between(("drift",), 0, float("inf"))


def test_a_read_only_store_never_backfills(tmp_path):
    (tmp_path / "data").mkdir()
    db = tmp_path / "data" / "k.db"
    _room(db)
    conn = sqlite3.connect(db)  # rows an older build wrote: no kind, no marks
    conn.execute("DELETE FROM app_state")
    conn.execute("INSERT INTO messages (conversation_id, role, content, source, created_at) "
                 "VALUES (1, 'assistant', 'built', 'coop-notify:ci', 0)")
    conn.commit()
    conn.close()
    before = _folder_snapshot(db.parent)
    store = Store(db, readonly=True)
    assert store.backfill_turn_kinds() == 0
    store.close()
    assert _folder_snapshot(db.parent) == before
