"""A week in a few minutes: one keeltui process left open while a week of traffic lands.

The app runs in tmux 120x40 against the loopback server. A week is 10 000 turns (an owner's
message and the Chief's reply) and 50 000 reports, written to its database in batches the
size of a busy hour (as `keeltui report` and a second window would write them; the app
reads and draws each batch before the next lands: the UI is what is measured, not the
writer). Between batches a person pages up and back to the newest row and searches the
room. At the start, the middle and the end: the process's RSS, open file descriptors and
threads (from /proc), the WAL's and the database's size, and the keystroke echo (a key
typed into the composer until it shows, median of a few).

Not fast-forwarded here: the sentinel's 100 000 ticks and tutor turns run inside the app
on its own clock and cannot be hurried from outside; the bench's `sentinel` measure drives
the sentinel's core for a simulated day instead.
"""

from __future__ import annotations

import os
import statistics
import time

from bench.context import Context, err

TURNS = 10_000
REPORTS = 50_000
BATCHES = 200
"""Each batch: 50 turns and 250 reports (a busy hour of a week)."""
ECHO_SAMPLES = 5


def _proc(pid: int) -> dict[str, float]:
    status: dict[str, str] = {}
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            status[key] = value.strip()
    return {"rss_mb": int(status["VmRSS"].split()[0]) / 1024, "threads": float(status["Threads"]),
            "fds": float(len(os.listdir(f"/proc/{pid}/fd")))}


def _sizes(db: str) -> dict[str, float]:
    def size(path: str) -> float:
        return os.path.getsize(path) / 1024 / 1024 if os.path.exists(path) else 0.0

    return {"wal_mb": size(db + "-wal"), "db_mb": size(db)}


def _echo_ms(pane) -> float:  # nan: no key reached the composer
    """One key typed into the composer until it shows, in ms (the key is taken back after)."""
    # Back to the composer from wherever the paging and the search left the focus: Escape
    # leaves a text field (or closes the search), "i" from the room's rows is the composer.
    pane.send_keys("Escape")
    pane.send_keys("i")
    time.sleep(0.3)
    pane.send_keys("BSpace")  # an "i" typed into the composer, if it already had the focus
    time.sleep(0.2)
    samples = []
    for i in range(ECHO_SAMPLES):
        mark = f"echo{i}{os.getpid() % 97}q"
        t0 = time.monotonic()
        pane.send_keys(mark, literal=True)
        try:
            samples.append((pane.wait_for(mark, timeout=5, interval=0.005) - t0) * 1000)
        except TimeoutError:
            pass  # the key went elsewhere (the focus was not in the composer): not an echo to time
        for _ in mark:
            pane.send_keys("BSpace")
        time.sleep(0.1)
    return statistics.median(samples) if samples else float("nan")


def _land(store, batch: int, turns: int, reports: int) -> str:
    """One batch written as the app would see it from outside; returns the last row's text."""
    room = store.chief_id()
    last = ""
    for i in range(turns):
        asked = store.add_message(room, "user", f"week batch {batch} question {i}: what is next on the list?")
        store.add_message(room, "assistant", f"Batch {batch} answer {i}: the plumber on Tuesday, then the "
                                            "invoice. " * 2, reply_to=asked)
    for i in range(reports):
        last = f"soak {batch:03d} report {i:03d}: backups verified"
        store.add_report("cron:soak", last + ", all green.")
    return last


def run(ctx: Context) -> None:
    from keeltui.store import Store

    subject = ctx.keeltui("soak", "keeltui, a week left open")
    import tomllib

    with open(subject.argv[-1], "rb") as handle:  # the database the config names
        db = tomllib.load(handle)["paths"]["database"]
    turns, reports = TURNS // BATCHES, REPORTS // BATCHES
    try:
        with ctx.pane() as pane:
            pane.launch(subject.argv)
            pane.wait_for(*subject.ready, timeout=subject.timeout)
            time.sleep(3.0)  # the brain client loads after the first frame
            pid = pane.pane_pid()
            store = Store(db)
            started = time.monotonic()
            try:
                for batch in range(BATCHES + 1):
                    if batch in (0, BATCHES // 2, BATCHES):
                        phase = {0: "start", BATCHES // 2: "middle", BATCHES: "end"}[batch]
                        figures = {**_proc(pid), **_sizes(db), "echo_ms": _echo_ms(pane)}
                        for name, value in figures.items():
                            ctx.results.add(f"soak.{phase}.{name}", value)
                        ctx.say(f"soak {phase}: " + ", ".join(f"{k} {v:.1f}" for k, v in figures.items()))
                    if batch == BATCHES:
                        break
                    last = _land(store, batch, turns, reports)
                    pane.wait_for(last, timeout=60)
                    if batch % 20 == 10:  # a person pages back, returns, and searches the room
                        for _ in range(5):
                            pane.send_keys("PPage")
                        pane.send_keys("C-End")
                        pane.send_keys("C-f")
                        pane.send_keys(f"batch {batch - 5} answer", literal=True)
                        time.sleep(0.5)
                        pane.send_keys("Escape")
                        pane.wait_for(last, timeout=30)
            finally:
                store.close()
            ctx.results.facts["soak.secs"] = time.monotonic() - started
    except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
        ctx.results.fail("soak.end.rss_mb", err(exc))
        ctx.say(f"soak failed: {err(exc)}")
