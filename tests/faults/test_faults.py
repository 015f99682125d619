"""Faults: killed mid-stream, concurrent writers, a failing endpoint, a broken database."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from keeltui.store import Store
from tests.conftest import write_config
from keeltui_dev.loopback import Reply, free_port
from tests.support.pilot import screen_text, wait_for
from tests.support.tmux import Tmux, keeltui_command, run_keeltui

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = "Write to the Chief"


def _config(tmp_path, url, extra=""):
    return write_config(tmp_path / "config.toml", url,
                        extra + f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')


@pytest.mark.slow
def test_kill_9_mid_stream_twenty_times_loses_no_user_turn(tmp_path, loopback, tmux, e2e_env):
    loopback.default = Reply(chunks=[f"tok{i} " for i in range(2000)], chunk_delay=0.01)
    config = _config(tmp_path, loopback.url)
    for attempt in range(20):
        session = Tmux()
        try:
            session.start(keeltui_command(config), e2e_env)
            session.wait_text(PLACEHOLDER)
            sent_before = loopback.chunks_sent
            session.type(f"message number {attempt}")
            session.send("Enter")
            session.wait_for(lambda _: loopback.chunks_sent >= sent_before + 20, what="this reply streaming")
            session.kill9()
        finally:
            session.close()
    store = Store(tmp_path / "k.db")
    users = [r.content for r in store.messages(store.chief_id()) if r.role == "user"]
    assert users == [f"message number {i}" for i in range(20)]
    assert store._conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    store.close()


_WRITER = textwrap.dedent(
    """
    import sys
    from keeltui.store import Store
    store = Store(sys.argv[1])
    for i in range(1000):
        store.add_report("cron:" + sys.argv[2], f"{sys.argv[2]} report {i}")
    print("done")
    """
)


@pytest.mark.slow
def test_two_writers_of_a_thousand_reports_while_the_app_is_open(tmp_path, loopback, tmux, e2e_env):
    config = _config(tmp_path, loopback.url)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    writers = [subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path / "k.db"), name],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for name in ("alpha", "beta")]
    for writer in writers:
        out, err = writer.communicate(timeout=180)
        assert out.strip() == "done" and "locked" not in err, err
    # The newest report of each writer reaches the open app's screen.
    last = max(("alpha report 999", "beta report 999"),
               key=lambda text: next(r.id for r in Store(tmp_path / "k.db").query(1, kind="task") if r.content == text))
    tmux.wait_text(last, timeout=30)
    assert not tmux.pane_dead()
    log = run_keeltui(config, "log", "--kind", "task")
    assert log.returncode == 0
    lines = log.stdout.splitlines()
    assert len(lines) == 2000
    for name in ("alpha", "beta"):
        assert sum(f"{name} report " in line for line in lines) == 1000


async def test_failing_endpoint_is_said_once_and_the_app_recovers(make_app, loopback):
    state = {"mode": "down"}

    def responder(request):
        if state["mode"] == "500":
            return Reply(status=500, error_message="overloaded")
        if state["mode"] == "garbage":
            return Reply(raw_body="<html>bad gateway</html>")
        if state["mode"] == "stall":
            return Reply(text="half an answer then nothing", stall_after=3, stall_secs=15)
        return Reply(text="I am back.")

    loopback.responder = responder
    # The stall must outlast the client timeout; a loaded machine must not (3 s of slack).
    app = make_app(timeout=3.0)
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.brain_online is True, what="brain check")
        for mode in ("500", "garbage", "stall"):
            state["mode"] = mode
            app.room.composer.focus_input()
            app.room.composer.input.insert(f"try {mode}")
            await pilot.press("enter")
            await wait_for(pilot, lambda: not app.room.composer.busy, what=f"{mode} turn ends")
            assert app.status_line.message, mode
            await pilot.press("ctrl+t", "ctrl+t")  # keys still work
        notices = [r for r in app.store.messages(app.store.chief_id()) if r.turn_kind == "notice"]
        assert len(notices) == 1  # said once, not per failure
        users = [r.content for r in app.store.messages(app.store.chief_id()) if r.role == "user"]
        assert users == ["try 500", "try garbage", "try stall"]
        stalled = [r for r in app.store.messages(app.store.chief_id()) if r.status == "partial"]
        assert stalled and stalled[-1].content.startswith("half an ")
        assert app.ambient_line == ""  # no drift invented from failures
        state["mode"] = "ok"
        app.room.composer.input.insert("hello again")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "I am back." in screen_text(app), what="recovery")
        assert app.brain_online is True and app.status_line.message == ""


def test_app_with_a_corrupt_database_says_so_and_leaves_the_file(tmp_path):
    db = tmp_path / "k.db"
    payload = b"\x00\x01 not a database \xff" * 500
    db.write_bytes(payload)
    config = _config(tmp_path, f"http://127.0.0.1:{free_port()}/v1")
    out = run_keeltui(config)
    assert out.returncode == 1
    assert out.stderr.strip().startswith(f"keeltui: {db}: not a keeltui database")
    assert "Traceback" not in out.stderr
    assert db.read_bytes() == payload


def test_app_with_an_unreadable_database_path(tmp_path):
    (tmp_path / "k.db").mkdir()
    config = _config(tmp_path, f"http://127.0.0.1:{free_port()}/v1")
    out = run_keeltui(config)
    assert out.returncode == 1 and str(tmp_path / "k.db") in out.stderr and "Traceback" not in out.stderr
