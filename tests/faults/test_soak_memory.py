"""Issue 24.1: an app left open for days stays flat. 2 000 turns and their reports land in
the open app batch by batch (written to its database, as another window and `keeltui report`
do), and the room is paged to its first row and back now and then; the process's RSS, open
file descriptors, threads and the WAL are read from /proc and the disk: growth is bounded,
not timed (the week's figures are `python -m bench --only soak`)."""

from __future__ import annotations

import os
import time

import pytest

from keeltui.store import Store
from tests.conftest import write_config
from tests.support.tmux import keeltui_command

BATCHES = 40
TURNS = 50
"""Per batch: 40 x 50 = 2 000 turns after the warm-up."""
REPORTS = 25
WARM_UP = 8
PAGE_EVERY = 10


def _proc(pid: int) -> dict:
    status = {}
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            status[key] = value.split()[0] if value.split() else ""
    return {"rss_mb": int(status["VmRSS"]) / 1024, "threads": int(status["Threads"]),
            "fds": len(os.listdir(f"/proc/{pid}/fd"))}


@pytest.mark.slow
def test_rss_fds_threads_and_wal_stay_bounded_as_reports_land_in_an_open_app(tmp_path, loopback, tmux, e2e_env):
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("no /proc: the process cannot be measured from outside here")
    db = tmp_path / "k.db"
    config = write_config(tmp_path / "c.toml", loopback.url,
                          f'[paths]\ndatabase = "{db}"\nstatus_file = "{tmp_path / "status"}"\n')
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text("Write to the Chief")
    # Start-up over: the brain client loaded and its check made (its connection stays
    # open). Reports land at once now, so the warm-up could end before it did.
    deadline = time.monotonic() + 120
    while loopback.gets < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert loopback.gets >= 1, "the app never checked the brain"
    pid = tmux.pane_pid()
    writer = Store(db)
    n = 0

    def land(batches: int) -> None:
        nonlocal n
        room = writer.chief_id()
        for _ in range(batches):
            n += 1
            for i in range(TURNS):
                asked = writer.add_message(room, "user", f"batch {n} question {i}: what is next on the list?")
                writer.add_message(room, "assistant", f"Batch {n} answer {i}: the plumber on Tuesday, then the invoice.",
                                   reply_to=asked)
            for i in range(REPORTS):
                writer.add_report("cron:soak", f"soak report {n:05d}-{i:02d}: " + "backup verified, all green. " * 3)
            tmux.wait_text(f"soak report {n:05d}-{REPORTS - 1:02d}")  # the app has read and drawn this batch
            if n % PAGE_EVERY == 0:  # the whole room paged, from its first row back to the newest
                tmux.send("Escape")
                tmux.wait_text("i Write")  # a row has the keys
                tmux.send("Home")
                tmux.wait_text("batch 1 question 0:")
                tmux.send("End")
                tmux.wait_text(f"soak report {n:05d}-{REPORTS - 1:02d}")

    try:
        land(WARM_UP)
        before = _proc(pid)
        land(BATCHES)
        after = _proc(pid)
    finally:
        writer.close()
    wal = db.with_name(db.name + "-wal")
    grew = after["rss_mb"] - before["rss_mb"]
    print(f"soak: {BATCHES * TURNS} turns, {BATCHES * REPORTS} reports: RSS {before['rss_mb']:.1f} → {after['rss_mb']:.1f} MB, "
          f"fds {before['fds']} → {after['fds']}, threads {before['threads']} → {after['threads']}, "
          f"WAL {wal.stat().st_size if wal.exists() else 0} bytes")
    assert after["fds"] == before["fds"] and after["threads"] == before["threads"]
    assert grew < 10.0, f"RSS grew {grew:.1f} MB over {BATCHES * TURNS} turns"
    assert not wal.exists() or wal.stat().st_size < 8 * 1024 * 1024
