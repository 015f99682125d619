"""A week in a few minutes: one keeltui process left open while a week of traffic lands.

The app runs in tmux 120x40 against the loopback server, with the ambient on (the
sentinel judging on its 5 s cadence, the evidence poll and its ticks). A week is 10 000
turns (an owner's message and the Chief's reply), 50 000 reports and 100 000 sentinel
ticks' evidence rows, written to its database in 200 batches the size of a busy hour (as
`keeltui report`, a second window and the evidence would write them; the app reads and
draws each batch before the next lands: the UI is what is measured, not the writer).
Every 20 batches a person visits, with keys only: pages to the first row of the room and
back to the newest, types a question to the Chief and waits for its answer, searches the
room (Ctrl+F, a word every answer shares, Enter: the newest match and the count show,
Escape), and has a tutor turn (Ctrl+T, the session started at the first visit, one answered
turn, Ctrl+T back). Each step waits on what the screen shows; a visit that stumbles is
counted (soak.visit_failures) and the week goes on.

At the start, after the first hour (one batch), the middle and the end: the process's
RSS, open file descriptors and threads (from /proc), the WAL's and the database's size,
and the keystroke echo in the composer (median of a few) — taken right after the
visit's paging, where focus has wandered (the composer is found again by
what the footer shows, never assumed).

The sentinel's core is fast-forwarded in this process as well: 100 000 ticks of the real
``Sentinel`` on a simulated clock, its Python heap measured before and after (the app's
own sentinel runs on the app's clock and cannot be hurried from outside).
"""

from __future__ import annotations

import os
import statistics
import time

from bench.context import Context, err
from keeltui_dev.loopback import Reply

TURNS = 10_000
REPORTS = 50_000
TICKS = 100_000
BATCHES = 200
"""Each batch: 50 turns, 250 reports and 500 ticks' rows (a busy hour of a week)."""
QUICK_BATCHES = 40
VISIT_EVERY = 20
ECHO_SAMPLES = 5
FIRST_ROW = "week batch 0 question 0:"
COMPOSER_KEYS = "Leave input"
EMPTY_COMPOSER = "Write to the Chief…"
SEARCH_WORD = "plumber"
"""In every answer of the week (and in the visit's own, the newest match)."""
CHIEF_STOP = "esc Stop"
"""The footer's offer while a Chief reply streams."""
TUTOR_INPUT = "Answer, ask, or note"
"""The tutor session's empty input."""
ROW_KEYS = "i Write"
"""The footer's label while a row of the room has the keys (gone once the composer has them)."""


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


def _footer(pane) -> str:
    """The footer once it has held still for a moment (it follows the focus a frame or two
    late: a key chosen from a stale footer lands somewhere else)."""
    deadline = time.monotonic() + 10
    last = None
    while True:
        screen = pane.capture().rstrip()
        footer = screen.splitlines()[-1] if screen else ""
        if footer == last or time.monotonic() > deadline:
            return footer
        last = footer
        time.sleep(0.15)


def _to_composer(pane) -> None:
    """Give the composer the keys from wherever a visit left them, and empty it: each step
    is read from the footer (a row's keys offer "i Write", the composer's "Leave input"),
    never assumed, so no key meant for the focus lands as text."""
    deadline = time.monotonic() + 30
    while True:
        footer = _footer(pane)
        if COMPOSER_KEYS in footer and ROW_KEYS not in footer:
            break
        if time.monotonic() > deadline:
            raise TimeoutError(f"the composer never took the keys; footer: {footer.strip()}")
        pane.send_keys("i" if ROW_KEYS in footer else "Escape")  # Escape closes a search, leaves a field
    for _ in range(40):
        if EMPTY_COMPOSER in pane.capture():
            return
        pane.send_keys("BSpace")  # a key typed before the composer had them
        time.sleep(0.05)
    raise TimeoutError("the composer kept text it should not have")


def _echo_ms(pane) -> float:
    """One key typed into the composer until it shows, in ms (what was typed is taken back)."""
    _to_composer(pane)
    samples = []
    for i in range(ECHO_SAMPLES):
        mark = f"echo{i}{os.getpid() % 97}q"
        t0 = time.monotonic()
        pane.send_keys(mark, literal=True)
        samples.append((pane.wait_for(mark, timeout=10, interval=0.005) - t0) * 1000)
        for _ in mark:
            pane.send_keys("BSpace")
        deadline = time.monotonic() + 10
        while mark[:2] in pane.capture() and time.monotonic() < deadline:
            time.sleep(0.01)
    return statistics.median(samples)


def _land(store, batch: int, turns: int, reports: int, ticks: int) -> str:
    """One batch written as the app would see it from outside; returns the last row's text."""
    room = store.chief_id()
    last = ""
    for i in range(turns):
        asked = store.add_message(room, "user", f"week batch {batch} question {i}: what is next on the list?")
        store.add_message(room, "assistant", f"Batch {batch} answer {i}: the plumber on Tuesday, then the "
                                            "invoice. " * 2, reply_to=asked)
    now = time.time()
    for i in range(ticks):
        store.add_event("ambient_tick", {"at": now - (ticks - i) * 6, "span": 90, "class": "xterm"})
    for i in range(reports):
        last = f"soak {batch:03d} report {i:03d}: backups verified"
        store.add_report("cron:soak", last + ", all green.")
    return last


def _visit(ctx: Context, pane, batch: int, last: str, tutor_open: list[bool]) -> None:
    """A visit that may stumble on the focus (under load the footer, the only sign of where
    the keys are, can lag the focus): a failed step is counted and the week goes on."""
    facts = ctx.results.facts
    facts["soak.visits"] = int(facts.get("soak.visits", 0) or 0) + 1
    try:
        _visit_steps(ctx, pane, batch, tutor_open)
    except (TimeoutError, OSError) as exc:
        ctx.results.facts["soak.visit_failures"] = int(ctx.results.facts.get("soak.visit_failures", 0) or 0) + 1
        ctx.say(f"soak: the visit at batch {batch} stumbled: {err(exc)[:160]}")
        for key in ("Escape", "Escape", "End"):
            pane.send_keys(key)
            time.sleep(0.3)
        pane.wait_for(last, timeout=60)


def _visit_steps(ctx: Context, pane, batch: int, tutor_open: list[bool]) -> None:
    """A person drops by: pages the room to its first row and back, asks the Chief, searches
    the room and has a tutor turn, with keys only. Each key waits for what the screen shows
    of the focus it is meant for (keys typed right behind Ctrl+F or Ctrl+T land where those
    send them)."""
    pane.send_keys("Escape")  # from the composer, the newest row takes the keys
    pane.wait_for(ROW_KEYS, timeout=10)
    pane.send_keys("Home")
    pane.wait_for(FIRST_ROW, timeout=60)
    pane.send_keys("End")
    said = _chief_turn(ctx, pane, batch)
    _search(pane, said)
    _tutor_turn(ctx, pane, batch, tutor_open)
    pane.wait_for(said, timeout=60)  # back in the room, at its newest rows


def _chief_turn(ctx: Context, pane, batch: int) -> str:
    """A question typed into the composer and sent; returns the answer's unique words once
    they show. The answer names the plumber, as every turn of the week does, so the search
    that follows finds it first."""
    said = f"visit {batch} answered in full"
    ctx.brain.expect(Reply(chunks=["Noted: ", "the plumber ", "comes Tuesday. ", said]))
    _to_composer(pane)
    asked = f"what is left for visit {batch}?"
    pane.send_keys(asked, literal=True)
    pane.wait_for(asked, timeout=30)
    pane.send_keys("Enter")
    pane.wait_for(said, timeout=120)
    _wait_gone(pane, CHIEF_STOP, timeout=60)  # the reply has settled: the footer no longer offers to stop it
    return said


def _search(pane, said: str) -> None:
    """Ctrl+F, a word the week's answers share, Enter: the newest match (this visit's answer)
    and the count of all of them show; Escape closes the bar."""
    pane.send_keys("C-f")
    pane.send_keys(SEARCH_WORD, literal=True)  # right behind Ctrl+F: the field has the keys at once
    pane.wait_for(f"Find: {SEARCH_WORD}", timeout=30)  # in the field, not only in the rows
    pane.send_keys("Enter")
    pane.wait_for("1 of ", "(newest first)", said, timeout=120)
    pane.send_keys("Escape")
    _wait_gone(pane, "(newest first)", timeout=30)


def _wait_gone(pane, text: str, timeout: float) -> None:
    """Poll until ``text`` is off the screen (a bar closed, a button back)."""
    deadline = time.monotonic() + timeout
    while text in pane.capture():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{text!r} still on screen after {timeout:.0f} s")
        time.sleep(0.1)


def _tutor_turn(ctx: Context, pane, batch: int, tutor_open: list[bool]) -> None:
    """Ctrl+T to the tutor, one answered turn, Ctrl+T back. The first visit starts the
    session (Enter right behind Ctrl+T picks "+ New session": the list has the keys as it
    shows); later visits find it open with its input waiting."""
    taught = f"tutor answer {batch} done"
    ctx.brain.expect(Reply(chunks=["Think of ", "the invoice ", "as a ledger line. ", taught]))
    if not tutor_open:
        pane.send_keys("C-t", "Enter")
        pane.wait_for("What do you want to learn?", timeout=30)
        asked = "bookkeeping for a small household"
        tutor_open.append(True)
    else:
        pane.send_keys("C-t")
        pane.wait_for(TUTOR_INPUT, timeout=30)
        asked = f"and what about week {batch}?"
    pane.send_keys(asked, literal=True)
    pane.wait_for(asked, timeout=30)
    pane.send_keys("Enter")
    pane.wait_for(taught, timeout=120)
    _wait_gone(pane, "Wait…", timeout=60)  # the tutor's reply has settled
    pane.send_keys("C-t")
    pane.wait_for(EMPTY_COMPOSER, timeout=30)  # the Chief room is in front again
    _to_composer(pane)


def sentinel_heap_kb(ticks: int = TICKS) -> tuple[float, float]:
    """The real sentinel's Python heap after 1 000 ticks and after ``ticks`` (KiB), on a
    simulated clock with a window change every few polls and a judge that says on track."""
    import asyncio
    import gc
    import tracemalloc

    from keeltui.ambient.window import WindowSnapshot
    from keeltui.sentinel import Sentinel

    clock = [1_000_000.0]
    titles = ["sentinel.py — keeltui — code", "pytest -q — keeltui", "asyncio — Python docs — Firefox"]

    async def judge(frame: str, seen: list[str]) -> str:
        return ""

    class _Quiet:
        name = "bench-quiet"

        def notify(self, title: str, body: str) -> None:
            pass

    sentinel = Sentinel(clock=lambda: clock[0], judge=judge, frame=lambda: "Today: the week's soak.",
                        notifier=_Quiet(), record_event=lambda kind, data: None, focus_active=lambda: False,
                        mode="status", cadence_secs=5)

    async def run(n: int) -> None:
        for i in range(n):
            sentinel.on_window(WindowSnapshot("xterm", titles[(i // 3) % len(titles)] + f" {i % 50}", clock[0]))
            clock[0] += 5
            await sentinel.evaluate()

    async def measure() -> tuple[float, float]:
        await run(1_000)
        gc.collect()
        early = tracemalloc.get_traced_memory()[0] / 1024
        await run(ticks - 1_000)
        gc.collect()
        return early, tracemalloc.get_traced_memory()[0] / 1024

    tracemalloc.start()
    try:
        return asyncio.run(measure())
    finally:
        tracemalloc.stop()


def run(ctx: Context) -> None:
    from keeltui.store import Store

    subject = ctx.keeltui("soak", "keeltui, a week left open", ambient=True)
    import tomllib

    with open(subject.argv[-1], "rb") as handle:  # the database the config names
        db = tomllib.load(handle)["paths"]["database"]
    batches = QUICK_BATCHES if ctx.quick else BATCHES
    turns, reports, ticks = TURNS // BATCHES, REPORTS // BATCHES, TICKS // BATCHES
    phases = {0: "start", 1: "hour", batches // 2: "middle", batches: "end"}
    ctx.results.facts["soak.batches"] = batches
    ctx.results.facts["soak.visit_failures"] = 0  # reported as 0, not left out, when none stumbles
    try:
        early, late = sentinel_heap_kb()
        ctx.results.add("soak.sentinel.heap_early_kb", early)
        ctx.results.add("soak.sentinel.heap_late_kb", late)
        ctx.say(f"soak: the sentinel's heap after 1 000 ticks {early:.0f} KiB, after {TICKS} {late:.0f} KiB")
    except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
        ctx.results.fail("soak.sentinel.heap_late_kb", err(exc))
    try:
        with ctx.pane() as pane:
            pane.launch(subject.argv)
            pane.wait_for(*subject.ready, timeout=subject.timeout)
            time.sleep(3.0)  # the brain client loads after the first frame
            pid = pane.pane_pid()
            store = Store(db)
            started = time.monotonic()
            tutor_open: list[bool] = []
            last = ""
            try:
                for batch in range(batches + 1):
                    if batch in phases:
                        if batch:
                            _visit(ctx, pane, batch, last, tutor_open)  # the figures follow a visit
                        try:
                            echo = _echo_ms(pane)
                        except TimeoutError as exc:
                            echo = float("nan")
                            ctx.results.fail(f"soak.{phases[batch]}.echo_ms", err(exc))
                        figures = {**_proc(pid), **_sizes(db), "echo_ms": echo}
                        for name, value in figures.items():
                            if value == value:  # a nan echo is recorded as a failure above
                                ctx.results.add(f"soak.{phases[batch]}.{name}", value)
                        ctx.say(f"soak {phases[batch]}: " + ", ".join(f"{k} {v:.1f}" for k, v in figures.items()))
                    if batch == batches:
                        break
                    last = _land(store, batch, turns, reports, ticks)
                    pane.wait_for(last, timeout=60)
                    if batch % VISIT_EVERY == VISIT_EVERY // 2:
                        _visit(ctx, pane, batch, last, tutor_open)
            finally:
                store.close()
            ctx.results.facts["soak.secs"] = time.monotonic() - started
    except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
        ctx.results.fail("soak.end.rss_mb", err(exc))
        ctx.say(f"soak failed: {err(exc)}")
