"""The real keeltui in tmux: drift line, snooze, and focus silencing the sentinel.

Evidence comes from a ``command`` source that cats a file the test rewrites; the
loopback brain answers the ambient judgement with drift. Judge calls are counted
from the loopback server's requests.
"""

from __future__ import annotations

import json
import os
import time

from keeltui.ambient.judges import AMBIENT_SYSTEM, FOCUS_SYSTEM
from keeltui.store import Store
from keeltui_dev.loopback import Reply
from tests.support.need import need_binary
from tests.support.tmux import Tmux, keeltui_command, run_keeltui

PLACEHOLDER = "Write to the Chief"
JUDGE_MODEL = "judge-model"
DRIFT = "Twenty minutes of YouTube; the grant report is waiting."
CADENCE = 1
SHORT_SNOOZE = 5


def _calls(loopback, system: str) -> int:
    return sum(1 for r in list(loopback.requests)
               if r.get("model") == JUDGE_MODEL and r.get("messages", [{}])[0].get("content") == system)


def _respond(request: dict) -> Reply:
    system = request.get("messages", [{}])[0].get("content", "")
    if system == AMBIENT_SYSTEM:
        return Reply(text=json.dumps({"drifting": True, "message": DRIFT}))
    if system == FOCUS_SYSTEM:
        return Reply(text=json.dumps({"drifting": False, "message": ""}))
    return Reply(text="Hello.")


def _show(path, title: str, wm_class: str = "firefox") -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(f"{wm_class}\t{title}\n", encoding="utf-8")
    os.replace(tmp, path)


def _wait_tick(db, wm_class: str, timeout: float = 20.0) -> None:
    """Until the app has stored an evidence tick for a window of ``wm_class``."""
    store = Store(db)
    try:
        deadline = time.monotonic() + timeout
        while not any(e["data"].get("class") == wm_class for e in store.events("ambient_tick")):
            assert time.monotonic() < deadline, f"no evidence tick for {wm_class}"
            time.sleep(0.05)
    finally:
        store.close()


def _status(config) -> str:
    out = run_keeltui(config, "status")
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _wait_status(config, predicate, what: str, timeout: float = 20.0) -> str:
    """Poll ``keeltui status``; the timeout only bounds a hang."""
    deadline = time.monotonic() + timeout
    line = ""
    while time.monotonic() < deadline:
        line = _status(config)
        if predicate(line):
            return line
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}; status was {line!r}")


def test_drift_snooze_and_focus_in_tmux(tmp_path, loopback, tmux, e2e_env):
    loopback.responder = _respond
    window = tmp_path / "window.txt"
    _show(window, "keeltui - terminal", "xterm")
    config = tmp_path / "config.toml"
    config.write_text(
        f'[brain]\nbase_url = "{loopback.url}"\nmodel = "loop-model"\ntimeout_secs = 5.0\n'
        f'[brain.models]\njudge = "{JUDGE_MODEL}"\n'
        f'[ambient]\nmode = "notify"\ncadence_secs = {CADENCE}\n'
        f'[evidence]\nsource = "command"\ncommand = "cat {window}"\npoll_secs = 0.2\n'
        f"[focus]\ngrace_secs = 0\nnudge_debounce_secs = 300\n"
        f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
        encoding="utf-8",
    )
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)

    # Drift: the ⚠ line on screen and in `keeltui status`.
    _show(window, "YouTube - cat videos")
    tmux.wait_text("⚠ " + DRIFT)
    assert _wait_status(config, lambda s: s.startswith("⚠"), "the drift status") == "⚠ " + DRIFT

    # Escape leaves the composer; z snoozes: the screen and the status clear.
    tmux.send("Escape")
    # ESC then z at once would read as Alt+z: wait until the footer offers the keys.
    tmux.wait_text("z Snooze 1h")
    tmux.send("z")
    tmux.wait_for(lambda text: DRIFT not in text, what="the drift line to clear")
    # Snoozed is shown as such, with its end, never as a bare "idle".
    assert _wait_status(config, lambda s: s.startswith("◌ snoozed until "), "snoozed after the snooze")

    # Lift the snooze from the CLI and drift again, so that silence below is focus's doing.
    assert run_keeltui(config, "snooze", "off").returncode == 0
    _show(window, "YouTube - more cat videos")
    tmux.wait_text("⚠ " + DRIFT)

    # A focus session started from the CLI: the app shows it and the sentinel goes silent.
    started = run_keeltui(config, "focus", "start", "write the grant report")
    assert started.returncode == 0, started.stderr
    tmux.wait_text("◎ Focus: write the grant report")
    tmux.wait_for(lambda text: DRIFT not in text, what="focus to clear the drift line")
    assert _wait_status(config, lambda s: s.startswith("◎"), "the focus status").startswith(
        "◎ Focus: write the grant report · 25m left"
    )
    ambient = _calls(loopback, AMBIENT_SYSTEM)
    _show(window, "Reddit - r/aww")
    # The focus coach judges the off-task window (grace 0): the app saw it...
    deadline = time.monotonic() + 20
    while _calls(loopback, FOCUS_SYSTEM) == 0:
        assert time.monotonic() < deadline, "the focus judge was never asked"
        time.sleep(0.05)
    # ...and the sentinel, ticking every second all along, asks its judge nothing while the
    # focus runs. Its silent ticks leave no trace; what does: each new off-task window the
    # app saw is stored as an evidence tick by the app's own one-second timer. Three new
    # windows in turn, each waited for in the store, give the sentinel new titles to judge
    # and several ticks of its one-second cadence. Then the focus ends and its first
    # judgement names the drift again (its loop was live throughout): not one ambient
    # request came before the stop.
    for wm_class, title in (("chromium", "Reddit - r/pics"), ("mpv", "cats.mkv"), ("steam", "Steam")):
        _show(window, title, wm_class)
        _wait_tick(tmp_path / "k.db", wm_class)
    assert DRIFT not in tmux.capture()
    asked_in_focus = _calls(loopback, AMBIENT_SYSTEM)
    assert run_keeltui(config, "focus", "stop").returncode == 0
    tmux.wait_text("⚠ " + DRIFT)
    assert asked_in_focus == ambient
    assert _calls(loopback, AMBIENT_SYSTEM) > ambient
    assert not tmux.pane_dead()


def test_a_drift_still_on_screen_after_the_snooze_is_named_again(tmp_path, loopback, e2e_env):
    """Drift; F6 from inside the composer (short snooze via config); the snooze ends
    with the same window still in front: the drift is named again, on screen and in
    `keeltui status`. At 80x24, the smallest pane keeltui supports."""
    need_binary("tmux", "tmux")
    loopback.responder = _respond
    window = tmp_path / "window.txt"
    _show(window, "keeltui - terminal", "xterm")
    config = tmp_path / "config.toml"
    config.write_text(
        f'[brain]\nbase_url = "{loopback.url}"\nmodel = "loop-model"\ntimeout_secs = 5.0\n'
        f'[brain.models]\njudge = "{JUDGE_MODEL}"\n'
        f'[ambient]\nmode = "status"\ncadence_secs = {CADENCE}\nsnooze_secs = {SHORT_SNOOZE}\n'
        f'[evidence]\nsource = "command"\ncommand = "cat {window}"\npoll_secs = 0.2\n'
        f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
        encoding="utf-8",
    )
    tmux = Tmux(80, 24)
    try:
        tmux.start(keeltui_command(config), e2e_env)
        tmux.wait_text(PLACEHOLDER)
        tmux.type("draft")  # the composer has the keyboard and keeps it
        _show(window, "YouTube - cat videos")
        screen = tmux.wait_text("F6 snooze 5s")
        assert "F7 start focus" in screen and DRIFT[:30] in screen
        judged = _calls(loopback, AMBIENT_SYSTEM)
        tmux.send("F6")
        tmux.wait_for(lambda text: "F6 snooze" not in text and DRIFT[:30] not in text, what="the snooze")
        assert _wait_status(config, lambda s: s.startswith("◌ snoozed until "), "snoozed")
        # F6 typed nothing into the composer: the next letter lands right after the draft.
        tmux.type("X")
        tmux.wait_text("draftX")
        # The same window stays in front; the snooze ends: named again, no key pressed.
        tmux.wait_text("F6 snooze 5s", timeout=SHORT_SNOOZE + 25)
        assert _wait_status(config, lambda s: s.startswith("⚠"), "the drift again") == "⚠ " + DRIFT
        assert _calls(loopback, AMBIENT_SYSTEM) > judged
        assert not tmux.pane_dead()
    finally:
        tmux.close()


def test_a_terminal_that_hangs_up_ends_the_app_the_orderly_way(tmp_path, loopback, e2e_env):
    """The tmux server goes (an SSH link drops, the pane is killed): the kernel sends the app
    SIGHUP and SIGCONT, and Textual's SIGCONT handler starts a second input thread. keeltui
    leaves by its ordinary exit, which stores that its watching ended (the day's timeline
    ends there), not by the 5 s watchdog's os._exit, which stores nothing. The quiet input
    thread once slept through the exit beside the second one, and the watchdog had to act."""
    loopback.responder = _respond
    window = tmp_path / "window.txt"
    _show(window, "keeltui - terminal", "xterm")
    db = tmp_path / "k.db"
    config = tmp_path / "config.toml"
    config.write_text(
        f'[brain]\nbase_url = "{loopback.url}"\nmodel = "loop-model"\ntimeout_secs = 5.0\n'
        f'[ambient]\nmode = "status"\ncadence_secs = {CADENCE}\n'
        f'[evidence]\nsource = "command"\ncommand = "cat {window}"\npoll_secs = 0.2\n'
        f'[paths]\ndatabase = "{db}"\nstatus_file = "{tmp_path / "status"}"\n',
        encoding="utf-8",
    )
    for attempt in range(3):  # the two input threads race: give the race more than one chance
        terminal = Tmux()
        try:
            terminal.start(keeltui_command(config), e2e_env)
            terminal.wait_text(PLACEHOLDER)
            _wait_tick(db, "xterm")
            pid = terminal.pane_pid()
        finally:
            terminal.close()  # tmux kill-server: the pane's terminal hangs up
        deadline = time.monotonic() + 30
        while os.path.exists(f"/proc/{pid}") and "Z" not in _state(pid):
            assert time.monotonic() < deadline, f"keeltui (pid {pid}) still runs 30 s after its terminal went"
            time.sleep(0.05)
        store = Store(db)
        try:
            last = store.events("ambient_tick", limit=1)[0]["data"]
        finally:
            store.close()
        assert last.get("end") is True, f"attempt {attempt}: the app left without its orderly exit: {last}"
        log = tmp_path / "keeltui.log"  # beside the status file
        said = log.read_text() if log.exists() else ""
        assert "left by hand" not in said, f"attempt {attempt}: the exit watchdog had to act:\n{said}"


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0]
    except OSError:
        return "gone"
