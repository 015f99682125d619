"""Issue 9.6: a reply left ``streaming`` by a process that died is settled as cut off."""

from __future__ import annotations

import os
import subprocess
import sys

from keeltui.adapters.process_probe import pid_alive
from keeltui.chief.interrupted import WRITER_PART, is_orphan
from keeltui.chief.review import format_log, format_markdown
from keeltui.store import Store
from tests.conftest import write_config
from keeltui_dev.loopback import Reply
from tests.support.need import need_binary
from tests.support.tmux import Tmux, keeltui_command, run_keeltui

PLACEHOLDER = "Write to the Chief"


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _streaming_row(store: Store, text: str, pid: int | None) -> int:
    parts = [{"type": WRITER_PART, "pid": pid}] if pid is not None else None
    user = store.add_message(store.chief_id(), "user", "question")
    return store.add_message(store.chief_id(), "assistant", text, status="streaming", reply_to=user, parts=parts)


def test_a_dead_writers_reply_is_settled_and_a_live_ones_is_not(tmp_path):
    store = Store(tmp_path / "k.db")
    dead = _streaming_row(store, "half a thought", _dead_pid())
    empty = _streaming_row(store, "", _dead_pid())
    legacy = store._conn.execute(  # as an older build wrote it: no writer recorded
        "INSERT INTO messages (conversation_id, role, content, status, created_at) "
        "VALUES (1, 'assistant', 'from an older build', 'streaming', 0)").lastrowid
    live = _streaming_row(store, "still coming", os.getpid())
    assert store.settle_interrupted() == 3
    assert store.message(dead).status == "partial" and store.message(dead).content == "half a thought"
    assert store.message(empty).status == "error"
    assert store.message(legacy).status == "partial"
    assert store.message(live).status == "streaming"
    assert store.settle_interrupted() == 0
    # A writer alive at one start and dead at the next: its row is looked at again.
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    other = _streaming_row(store, "another process streams this", child.pid)
    for _ in range(50):
        store.add_report("cron:x", "rows keep landing")
    assert store.settle_interrupted() == 0 and store.message(other).status == "streaming"
    child.kill()
    child.wait()
    assert store.settle_interrupted() == 1 and store.message(other).status == "partial"
    store.close()


def test_a_new_streaming_row_names_its_writer(store):
    row = store.add_message(store.chief_id(), "assistant", "", status="streaming")
    assert not is_orphan(store.message(row).parts, os.getpid(), pid_alive)


def test_log_and_export_mark_a_dead_writers_reply_before_any_restart(tmp_path):
    db = tmp_path / "k.db"
    store = Store(db)
    _streaming_row(store, "half a thought", _dead_pid())
    store.close()
    cfg = write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1", f'[paths]\ndatabase = "{db}"\n')
    log = run_keeltui(cfg, "log")
    assert log.returncode == 0 and "half a thought [cut off: keeltui was closed before the reply finished" in log.stdout
    export = run_keeltui(cfg, "export")
    assert "half a thought\n\n*[cut off: keeltui was closed before the reply finished" in export.stdout


def test_settled_rows_are_marked_in_log_and_export():
    from keeltui.store import Row

    row = Row(1, 1, "assistant", "partial words", status="partial", created_at=0)
    assert format_log([row], "Owner", "Chief")[0].endswith("partial words [cut off: the reply did not finish: F5 retries]")
    assert "*[cut off: the reply did not finish: F5 retries]*" in format_markdown([row], "Owner", "Chief")


def _persisted(db, asked: str) -> str:
    """The reply to ``asked`` as stored so far."""
    store = Store(db, readonly=True)
    try:
        last = store.tail(1, 2)
        if len(last) == 2 and last[0].content == asked and last[1].role == "assistant":
            return last[1].content
        return ""
    finally:
        store.close()


def test_kill_9_mid_stream_then_restart_shows_the_partial_reply_cut_off(tmp_path, loopback, e2e_env):
    need_binary("tmux", "tmux")
    streaming = Reply(chunks=["Partial", " words", " from", " the", " brain", " never sent"], chunk_delay=0.3,
                      stall_after=5, stall_secs=60)  # then silence: the process dies mid-reply
    loopback.default = streaming
    cfg = write_config(tmp_path / "c.toml", loopback.url,
                       f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    for width, height in ((80, 24), (120, 40)):
        first = Tmux(width, height)
        try:
            first.start(keeltui_command(cfg), e2e_env)
            first.wait_text(PLACEHOLDER)
            first.type(f"tell me something at {width}")
            first.send("Enter")
            asked = f"tell me something at {width}"
            first.wait_for(lambda _: _persisted(tmp_path / "k.db", asked).startswith("Partial words"),
                           what="the partial reply persisted")
            kept = _persisted(tmp_path / "k.db", asked)
            first.kill9()
        finally:
            first.close()
        loopback.default = Reply(text="unused")
        again = Tmux(width, height)
        try:
            again.start(keeltui_command(cfg), e2e_env)
            screen = again.wait_for(lambda text: asked in text and kept in text[text.index(asked):]
                                    and "cut off: keeltui was closed" in text[text.index(asked):], what="the settled reply")
            # keeltui's own death is not blamed on the brain (issue 20, trap 5)
            assert "brain stopped" not in screen
        finally:
            again.close()
        loopback.default = streaming
    store = Store(tmp_path / "k.db", readonly=True)
    replies = [r for r in store.messages(1) if r.role == "assistant" and r.turn_kind is None]
    assert [r.status for r in replies] == ["partial", "partial"]
    log = run_keeltui(cfg, "log")
    assert log.stdout.count("[cut off: keeltui was closed before the reply finished") == 2
