"""`keeltui doctor` tells the truth about evidence, toasts and recent errors;
`keeltui day` and `keeltui log --kind ambient` show the stored day (issue 13)."""

from __future__ import annotations

import json
import logging
import stat
import subprocess
import time
from pathlib import Path

from keeltui.infra.logfile import LOG_NAME, install_log_file, last_errors
from keeltui.store import Store
from tests.support.tmux import VENV_BIN


def keeltui(config: Path, *args: str, env: dict) -> subprocess.CompletedProcess:
    """Run keeltui with exactly ``env`` (no inherited TMUX, DISPLAY or D-Bus)."""
    return subprocess.run([str(VENV_BIN / "keeltui"), "--config", str(config), *args],
                          capture_output=True, text=True, timeout=60, env=env)


def bare_env(tmp_path: Path, **extra: str) -> dict:
    env = {"PATH": f"{VENV_BIN}:/usr/bin:/bin", "HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(tmp_path / "run")}
    env.update(extra)
    return env


def config(tmp_path: Path, loopback, evidence: str) -> Path:
    path = tmp_path / "c.toml"
    path.write_text(
        f'[brain]\nbase_url = "{loopback.url}"\nmodel = "loop-model"\n'
        f"[evidence]\n{evidence}\n"
        f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "state" / "status"}"\n',
        encoding="utf-8",
    )
    return path


def test_doctor_tmux_outside_tmux_is_a_failure_with_the_fix(tmp_path, loopback):
    out = keeltui(config(tmp_path, loopback, 'source = "tmux"'), "doctor", env=bare_env(tmp_path))
    assert out.returncode == 1
    assert "[FAIL] evidence: tmux cannot be read: not inside tmux" in out.stdout
    assert "run keeltui inside tmux" in out.stdout


def test_doctor_command_exiting_127_is_a_failure_with_the_fix(tmp_path, loopback):
    cfg = config(tmp_path, loopback, 'source = "command"\ncommand = "no-such-window-reader-xyz"')
    out = keeltui(cfg, "doctor", env=bare_env(tmp_path))
    assert out.returncode == 1
    assert "[FAIL] evidence: command cannot be read: exit status 127" in out.stdout
    assert "could not find the command" in out.stdout


def test_doctor_ewmh_without_a_display_is_a_failure_with_the_fix(tmp_path, loopback):
    out = keeltui(config(tmp_path, loopback, 'source = "ewmh"'), "doctor", env=bare_env(tmp_path))
    assert out.returncode == 1
    assert "[FAIL] evidence: ewmh cannot be read" in out.stdout
    assert "run under X11" in out.stdout


def test_doctor_names_the_missing_session_bus(tmp_path, loopback):
    out = keeltui(config(tmp_path, loopback, 'source = "none"'), "doctor", env=bare_env(tmp_path))
    assert "notifier: none — toasts are off: no D-Bus session bus" in out.stdout


def test_doctor_names_a_bus_without_notify_send(tmp_path, loopback):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    env = bare_env(tmp_path, DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent/bus")
    env["PATH"] = f"{VENV_BIN}:{bindir}"  # python and keeltui, but no notify-send
    out = keeltui(config(tmp_path, loopback, 'source = "none"'), "doctor", env=env)
    assert "a session bus, but no notify-send" in out.stdout and "libnotify-bin" in out.stdout


def test_doctor_shows_the_last_errors_from_the_log(tmp_path, loopback):
    cfg = config(tmp_path, loopback, 'source = "none"')
    log = tmp_path / "state" / LOG_NAME
    log.parent.mkdir(parents=True)
    log.write_text("2026-11-30 10:00:00,000 WARNING keeltui.sentinel: sentinel: brain judge failed: timed out\n")
    out = keeltui(cfg, "doctor", env=bare_env(tmp_path))
    assert "brain judge failed: timed out" in out.stdout


def test_the_log_file_is_private_and_rotated(tmp_path):
    import os

    path = tmp_path / "state" / LOG_NAME
    old_umask = os.umask(0o022)  # an open umask: the state folder must still be the owner's
    try:
        handler = install_log_file(path)
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700  # the app creates it here first
    assert handler is not None
    try:
        handler.maxBytes = 2000
        logger = logging.getLogger("keeltui.test")
        for i in range(100):
            logger.warning("judge failed %d %s", i, "x" * 40)
        handler.flush()
    finally:
        logging.getLogger("keeltui").removeHandler(handler)
        handler.close()
    files = sorted(path.parent.glob(LOG_NAME + "*"))
    assert len(files) == 3  # the live file and two rotations, no more
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
    assert last_errors(path, 2)[-1].endswith("judge failed 99 " + "x" * 40)


def test_day_and_log_kind_ambient_show_the_stored_day(tmp_path, loopback):
    cfg = config(tmp_path, loopback, 'source = "none"')
    store = Store(tmp_path / "k.db")
    now = time.time()
    t = time.localtime(now - 86400)  # yesterday: a whole day, nothing running
    nine = time.mktime((t.tm_year, t.tm_mon, t.tm_mday, 9, 0, 0, 0, 0, -1))
    for minute in range(0, 90):  # the app saw windows from 09:00 to 10:30
        store.add_event("ambient_tick", {"at": nine + minute * 60, "span": 90, "class": "xterm"})
    store.add_event("ambient_tick", {"at": nine + 5400, "end": True})
    store.add_event("focus_session", {"start": nine, "end": nine + 3000, "secs": 3000,
                                      "commitment": "write the report", "minutes": 50, "drifts": 1})
    store.add_event("ambient_episode", {"start": nine + 600, "end": nine + 1200, "secs": 600, "sustained": True,
                                        "titles": ["YouTube - cats", "excluded"], "message": "m"})
    store.add_event("ambient_away", {"start": nine + 3600, "end": nine + 5400, "secs": 1800})
    store.close()
    date = time.strftime("%Y-%m-%d", t)
    day = keeltui(cfg, "day", "--date", date, env=bare_env(tmp_path))
    assert day.returncode == 0, day.stderr
    text = day.stdout
    # On task counts outside the focus session too: 09:50–10:00 is work with no F7.
    assert "on task 50m · drifting 10m · away 30m · no evidence 22h30m" in text
    assert "09    |##~~########|  on task 50m · drifting 10m" in text
    assert "10    |......      |  away 30m" in text
    assert '09:00–09:50  focus 50m "write the report": on task 40m · drifting 10m' in text
    assert "09:10–09:20  drift 10m: YouTube - cats, excluded" in text
    as_json = json.loads(keeltui(cfg, "day", "--date", date, "--json", env=bare_env(tmp_path)).stdout)
    assert as_json["totals"] == {"task": 3000, "drift": 600, "away": 1800, "unknown": 86400 - 5400}
    assert as_json["apps"] == {"xterm": 3600}
    rows = keeltui(cfg, "day", "--date", date, "--csv", env=bare_env(tmp_path)).stdout.splitlines()
    assert rows[0] == "date,start,end,state,secs" and f"{date},09:10:00,09:20:00,drift,600" in rows
    week = keeltui(cfg, "day", "--week", env=bare_env(tmp_path)).stdout.splitlines()
    assert len(week) == 8 and week[-2].endswith("no evidence")  # today: nothing stored
    assert f"{date}  on task 50m · drifting 10m · away 30m" in week[-3]
    assert week[-1].split() == ["week", "on", "task", "50m", "·", "drifting", "10m", "·", "away", "30m"]
    log = keeltui(cfg, "log", "--kind", "ambient", env=bare_env(tmp_path))
    assert log.returncode == 0, log.stderr
    assert len(log.stdout.splitlines()) == 3 and "away 30m" in log.stdout
    bad = keeltui(cfg, "day", "--date", "yesterday", env=bare_env(tmp_path))
    assert bad.returncode == 2 and "YYYY-MM-DD" in bad.stderr and "Traceback" not in bad.stderr
