"""Issue 10.1: a failed write loses nothing.

Disk full (SQLite's ``PRAGMA max_page_count`` on the app's own connection: a real
"database or disk is full" without root), a lock held past the busy timeout, a
database opened read-only: the app keeps running, the typed text stays in the
composer, one line names the file, and the message is sent once the user retries.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from keeltui.store import Store, StoreWriteError
from tests.conftest import write_config
from keeltui_dev.loopback import Reply
from tests.support.pilot import screen_text, wait_for
from tests.support.tmux import run_keeltui

SIZE = (100, 30)
MESSAGE = "my carefully typed message about the quarterly plan"


def _fill_the_disk(store: Store) -> None:
    """Cap the file at its current size, then fill the free space until a write fails."""
    filler = store.create_conversation("tutor", "filler")  # the same table, off screen
    conn = store._conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages + 2}")
    for size in (900, 200, 50, 10, 0):  # smaller and smaller, until not even a tiny row fits
        with pytest.raises(StoreWriteError, match="disk full"):
            for _ in range(1000):
                store.add_message(filler, "user", "x" * size)


def _free_the_disk(store: Store) -> None:
    store._conn.execute("PRAGMA max_page_count = 1073741823")


async def _type_and_send(app, pilot, text: str) -> None:
    app.room.composer.focus_input()
    app.room.composer.input.insert(text)
    await pilot.press("enter")


async def test_disk_full_keeps_the_text_says_where_and_sends_on_retry(make_app, loopback, tmp_path):
    loopback.default = Reply(text="Got it, the plan is noted.")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.brain_online is True, what="brain check")
        _fill_the_disk(app.store)
        await _type_and_send(app, pilot, MESSAGE)
        await wait_for(pilot, lambda: "disk full" in screen_text(app), what="the failure on screen")

        assert "not sent" in screen_text(app)
        assert str(tmp_path / "k.db") in app.status_line.message  # clipped on screen: the path is long
        assert app.is_running
        assert app.room.composer.input.text == MESSAGE  # nothing lost
        assert not app.room.composer.busy
        assert [r for r in app.store.messages(app.store.chief_id()) if r.role == "user"] == []
        app.set_brain_online(False, "no brain answers")  # a later line does not hide the failure
        await pilot.pause(0.1)
        assert "not sent" in app.status_line.message

        _free_the_disk(app.store)
        await pilot.press("enter")  # the retry: the same text, nothing retyped
        await wait_for(pilot, lambda: "Got it, the plan is noted." in screen_text(app), what="the reply")
        users = [r.content for r in app.store.messages(app.store.chief_id()) if r.role == "user"]
        assert users == [MESSAGE]
        assert app.room.composer.input.text == ""


async def test_a_lock_held_past_the_busy_timeout_keeps_the_text(make_app, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.brain_online is True, what="brain check")
        app.store._conn.execute("PRAGMA busy_timeout = 300")
        holder = sqlite3.connect(tmp_path / "k.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            await _type_and_send(app, pilot, MESSAGE)
            await wait_for(pilot, lambda: "locked" in app.status_line.message, timeout=20, what="the lock failure")
            assert str(tmp_path / "k.db") in app.status_line.message
            assert app.room.composer.input.text == MESSAGE
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(r.role == "user" for r in app.store.messages(1)), what="the retry stored")
        assert [r.content for r in app.store.messages(1) if r.role == "user"] == [MESSAGE]


async def test_a_read_only_database_keeps_the_text(make_app, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.brain_online is True, what="brain check")
        app.store._conn.execute("PRAGMA query_only = ON")  # SQLite refuses writes as for a read-only file
        await _type_and_send(app, pilot, MESSAGE)
        await wait_for(pilot, lambda: "read-only" in app.status_line.message, what="the read-only failure")
        assert app.room.composer.input.text == MESSAGE and app.is_running


_LOCK_HOLDER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.readline()
"""


def test_cli_writers_say_one_line_naming_the_file_when_the_lock_is_held(tmp_path):
    db = tmp_path / "k.db"
    cfg = write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1",
                       f'[paths]\ndatabase = "{db}"\nstatus_file = "{tmp_path / "status"}"\n')
    Store(db).chief_id()
    holder = subprocess.Popen([sys.executable, "-c", _LOCK_HOLDER, str(db)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        commands = [["report", "--source", "cron:x", "a report"], ["quiet", "on"], ["snooze", "1h"],
                    ["focus", "start", "write the plan"], ["chat", MESSAGE]]
        with ThreadPoolExecutor(len(commands)) as pool:  # each waits out the busy timeout
            results = list(pool.map(lambda args: run_keeltui(cfg, *args), commands))
    finally:
        holder.communicate("\n", timeout=30)
    for args, out in zip(commands, results, strict=False):
        assert out.returncode == 1, (args, out.stdout, out.stderr)
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and str(db) in lines[0] and "locked" in lines[0], (args, out.stderr)
        assert "Traceback" not in out.stderr + out.stdout


async def test_an_unexpected_error_ends_the_app_with_one_line_and_no_locals(make_app, capfd):
    app = make_app()
    secret = "the owner's private words"

    def explode() -> None:
        owner_text = secret  # a local a rich traceback would print
        raise ValueError("boom " + str(len(owner_text)))

    with pytest.raises(ValueError):
        async with app.run_test(size=SIZE) as pilot:
            app.call_later(explode)
            await pilot.pause(0.5)
    text = capfd.readouterr().err
    assert "ValueError: boom" in text and "Traceback" not in text
    assert secret not in text and "owner_text" not in text
    assert text.startswith("keeltui stopped on an unexpected error")


@pytest.mark.parametrize("what", ["folder", "file"])
def test_cli_writers_into_a_read_only_folder_or_file_say_one_line(tmp_path, what):
    from tests.faults.test_reading_never_writes import read_only

    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "k.db"
    earlier = Store(db)
    earlier.add_report("cron:x", "already here")
    earlier.close()
    cfg = write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1", f'[paths]\ndatabase = "{db}"\n')
    with read_only(folder if what == "folder" else db):
        results = [run_keeltui(cfg, *args) for args in (["report", "--source", "cron:x", "new"], ["quiet", "on"],
                                                        ["snooze", "1h"], ["focus", "start", "x"])]
        log = run_keeltui(cfg, "log")
    for out in results:
        lines = out.stderr.strip().splitlines()
        assert out.returncode == 1 and len(lines) == 1, out.stderr
        assert "read-only" in lines[0] and str(db) in lines[0] and "Traceback" not in out.stderr
    assert log.returncode == 0 and "already here" in log.stdout  # reading still works


async def test_disk_full_mid_reply_keeps_what_was_shown_marked_cut_off(make_app, loopback):
    loopback.default = Reply(chunks=["Shown", " before", " the", " disk", " filled"] + [" more"] * 400, chunk_delay=0.05)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.brain_online is True, what="brain check")
        await _type_and_send(app, pilot, "a long answer please")
        await wait_for(pilot, lambda: loopback.chunks_sent >= 8, what="the reply streaming")
        _fill_the_disk(app.store)
        await wait_for(pilot, lambda: "disk full" in app.status_line.message, timeout=20, what="the failure said")
        # The reply streams on to the screen (marked not saved at its end).
        await wait_for(pilot, lambda: not app.room.composer.busy, timeout=60, what="the composer free again")
        # Every word streamed stays on screen (the row's head scrolled above: it is long).
        log = app.room.log_view
        reply = [row for row in log.window.rows if row.role == "assistant"][-1]
        assert log.streaming_row_id is None  # drawn from the row the screen holds, not the stream
        assert reply.status == "partial" and reply.content.startswith("Shown before the disk filled more")
        assert reply.content.count(" more") == 400 and reply.parts[0]["kind"] == "unsaved"
        assert app.is_running
        assert [r.content for r in app.store.messages(1) if r.role == "user"] == ["a long answer please"]
