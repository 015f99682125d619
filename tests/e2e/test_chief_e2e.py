"""The real keeltui in tmux, against the loopback brain."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

from keeltui.chief.quiet import QUIET_MODE_REFUSAL
from keeltui.store import Store
from tests.conftest import write_config
from keeltui_dev.loopback import Reply
from tests.support.tmux import keeltui_command, run_keeltui

PLACEHOLDER = "Write to the Chief"


def _config(tmp_path, loopback, extra: str = ""):
    return write_config(
        tmp_path / "config.toml", loopback.url,
        extra + f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
    )


def test_type_a_message_and_see_the_streamed_reply(tmp_path, loopback, tmux, e2e_env):
    loopback.queue(Reply(text="The tide turns at seven tonight.", chunk_delay=0.02))
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("when is the tide?")
    tmux.send("Enter")
    tmux.wait_text("The tide turns at seven tonight.")
    log = run_keeltui(config, "log")
    assert log.returncode == 0, log.stderr
    assert "Owner: when is the tide?" in log.stdout
    assert "Chief: The tide turns at seven tonight." in log.stdout


def test_kill_mid_stream_keeps_the_users_message(tmp_path, loopback, tmux, e2e_env):
    loopback.queue(Reply(chunks=[f"word{i} " for i in range(400)], chunk_delay=0.02))
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("write me a long answer")
    tmux.send("Enter")
    tmux.wait_text("word30")
    tmux.kill9()
    store = Store(tmp_path / "k.db")
    rows = store.messages(store.chief_id())
    assert any(r.role == "user" and r.content == "write me a long answer" for r in rows)
    reply = [r for r in rows if r.role == "assistant"]
    assert reply and reply[0].content.startswith("word0 word1")  # persisted while streaming
    store.close()


def test_report_lands_in_the_open_app(tmp_path, loopback, tmux, e2e_env):
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    out = run_keeltui(config, "report", "--source", "followup:plumber", "The plumber confirmed Tuesday")
    assert out.returncode == 0 and out.stdout.strip().isdigit()
    screen = tmux.wait_text("The plumber confirmed Tuesday")
    assert "Follow-up" in screen


def test_quiet_mode_round_trip_across_processes(tmp_path, loopback, tmux, e2e_env):
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    assert run_keeltui(config, "quiet", "on").returncode == 0
    tmux.wait_text(QUIET_MODE_REFUSAL)
    assert run_keeltui(config, "report", "--source", "cron:nightly", "Backups verified").returncode == 0
    for doorway in (["log"], ["export"], ["chat", "hello"]):
        refused = run_keeltui(config, *doorway)
        assert refused.returncode == 3, doorway
        assert refused.stderr.strip() == QUIET_MODE_REFUSAL
        assert "Backups verified" not in refused.stdout
    # A later write that shows in Quiet Mode: a tutor session, in the tutor's list. Once it
    # is on screen the app's store watcher has read past the report too (one pass reads both).
    marker = Store(tmp_path / "k.db")
    marker.create_conversation("tutor", "written after the report")
    marker.close()
    tmux.send("C-t")
    tmux.wait_text("written after the report")
    tmux.send("C-t")
    screen = tmux.wait_text(QUIET_MODE_REFUSAL)
    assert "Backups verified" not in screen
    assert run_keeltui(config, "status").stdout.strip() == "◌ Quiet Mode"
    assert run_keeltui(config, "quiet", "off").returncode == 0
    tmux.wait_text("Backups verified")
    assert "Backups verified" in run_keeltui(config, "log").stdout


def _wakeups(pid: int) -> int:
    """The times the process's threads went to sleep and were woken (voluntary switches)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that just ended
            for line in (task / "status").read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    total += int(line.split()[1])
    return total


def test_an_untouched_app_sleeps_until_something_happens(tmp_path, loopback, tmux, e2e_env):
    """Open all day: Textual's input thread woke ten times a second to look at its exit flag;
    keeltui's sleeps in poll(2) until a key, its parser's deadline or its exit. The app kept
    two clocks of its own, once a second each: the ambient controller's (now set only while
    a focus session or a snooze runs) and a look at the terminal for a hang-up (now told by
    the input thread). What is left: the store's safety poll (10 s) and the status file's
    heartbeat (60 s). Before: 11.7 wake-ups a second, then 2.3."""
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.wait_text("model: loop-model")
    time.sleep(2.0)  # the start-up work (the tutor's tab, the brain check) is done
    pid = tmux.pane_pid()
    before, start = _wakeups(pid), time.monotonic()
    time.sleep(8.0)
    woken = (_wakeups(pid) - before) / (time.monotonic() - start)
    assert woken < 1.2, f"{woken:.1f} wake-ups a second in an untouched app"
    tmux.type("still here")  # and the sleeping thread reads keys as ever
    tmux.wait_text("still here")


def test_an_idle_app_writes_nothing_to_the_terminal(tmp_path, loopback, tmux, e2e_env):
    """Over SSH every byte counts: no blinking cursor, no repaint without a change."""
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    # The start-up work has settled: the status line is drawn whole (ambient off names no
    # judge), and then the terminal has had nothing for 2 s (the tutor's tab mounted, the
    # brain check answered; under load that takes longer than any fixed pause).
    tmux.wait_text("model: loop-model")
    sink = tmp_path / "written"
    sink.touch()
    tmux._tmux("pipe-pane", "-o", f"cat >> {sink}")
    deadline, size, quiet_since = time.monotonic() + 60, -1, time.monotonic()
    while time.monotonic() - quiet_since < 2.0:
        assert time.monotonic() < deadline, f"the app never stopped writing: {sink.read_bytes()[-200:]!r}"
        if sink.stat().st_size != size:
            size, quiet_since = sink.stat().st_size, time.monotonic()
        time.sleep(0.1)
    time.sleep(3.0)  # several store polls and status ticks
    tmux._tmux("pipe-pane")
    written = sink.read_bytes()[size:]
    assert len(written) < 64, written[:200]
