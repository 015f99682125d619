"""Paging a very long room, as a person holds a key (issue 19).

1 000 000-row room, a fresh keeltui per run: Escape hands the keys to the room, two
unhurried PageUps tell how many rows a page is, then a held PageUp: 40 presses 30 ms
apart (a paced loop of ``tmux send-keys``, like key repeat). Recorded: the pages moved of
the 40 asked (the row numbers on screen before and after, once the view settles), each
press's answer time (from the key leaving tmux to the app's next write to the terminal,
``pipe-pane`` stamped), with the load average; then Home → the first row on screen.

Memory, in the 100 000-row room: RSS (VmRSS) before, then paging to the top (PageUp in
bursts of ``tmux send-keys -N``, bounded in time; Home if the top was not reached) and back
(End), RSS after. Collection pauses over 20 ms while paging, from the app's own recorder
(keeltui/infra/gc_pauses.py, switched on with KEEL_BENCH_GC_LOG for these runs only).
"""

from __future__ import annotations

import time
from pathlib import Path

from bench import machine
from bench.context import Context, Subject, err
from bench.env import LAST_ROW_MARK
from bench.procs import peak_rss_mb, rss_mb
from bench.screen_reading import answer_times, gc_pauses, pages_moved, top_row
from bench.stats import percentile

PRESSES = 40
GAP_SECS = 0.03
FIRST_ROW = "Turn 0:"
PAUSE_MS = 20.0
SETTLE_SECS = 0.6
TOP_BUDGET_SECS = 60.0
BURST = 100


def _with_gc_log(subject: Subject, log: Path) -> Subject:
    subject.env = {**subject.env, "KEEL_BENCH_GC_LOG": str(log)}
    return subject


def settled(pane, timeout: float = 20.0) -> str:
    """The screen once it has not changed for SETTLE_SECS (the view has stopped moving)."""
    deadline = time.monotonic() + timeout
    last, since = pane.capture(), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        now = pane.capture()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= SETTLE_SECS:
            return now
    raise TimeoutError(f"the view was still moving after {timeout:.0f} s")


def _open(ctx: Context, pane, subject: Subject) -> int:
    pane.launch(subject.argv)
    pane.wait_for(*subject.ready, timeout=subject.timeout)
    time.sleep(1.0)  # the rows behind the first frame page in right after it
    pane.send_keys("Escape")  # the newest row takes the keys
    settled(pane)
    return pane.pane_pid()


def _top(pane, what: str) -> int:
    row = top_row(settled(pane))
    if row is None:
        raise RuntimeError(f"no numbered row on screen {what}")
    return row


def _pauses_since(log: Path, offset: int) -> list[tuple[int, float, float | None]]:
    """(generation, ms, CPU ms) of each collection logged after ``offset``."""
    try:
        with open(log, encoding="ascii", errors="replace") as f:
            f.seek(offset)
            return gc_pauses(f.read())
    except OSError:
        return []


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def held_once(ctx: Context) -> None:
    if ctx.room_db_1m is None:
        raise RuntimeError("no 1 000 000-row room (seeding failed)")
    where = ctx.workspace.fresh_dir("paging-held")
    log, pipe = where / "gc.log", where / "terminal.bytes"
    pipe.touch()
    subject = _with_gc_log(ctx.keeltui("paging.1m", "keeltui, 1 000 000-row room", ctx.room_db_1m,
                                       ready_extra=(LAST_ROW_MARK,)), log)
    r = ctx.results
    with ctx.pane(subject) as pane:
        _open(ctx, pane, subject)
        start = _top(pane, "at the start")
        for _ in range(2):  # unhurried: each press waits for the view to settle
            pane.send_keys("PageUp")
            settled(pane)
        calibrated = _top(pane, "after two unhurried PageUps")
        per_page = (start - calibrated) / 2
        if per_page <= 0:
            raise RuntimeError(f"two unhurried PageUps did not move the view (row {start} stayed on top)")
        gc_offset = _size(log)
        pane.pipe_to(str(pipe), stamped=True)
        time.sleep(0.2)
        load = machine.load()
        presses: list[float] = []
        t0 = time.monotonic()
        for i in range(PRESSES):
            delay = t0 + i * GAP_SECS - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            pane.send_keys("PageUp")
            presses.append(time.monotonic())  # tmux has written the key to the app's terminal
        end = _top(pane, "after the held PageUp")
        pane.stop_pipe()
        writes = _writes(Path(str(pipe) + ".times"))
        answers = answer_times(presses, writes)
        answered = [a for a in answers if a is not None]
        moved = pages_moved(calibrated, end, per_page)
        r.add("paging.held.pages", moved)
        r.add("paging.held.rows_per_page", per_page)
        for a in answered:
            r.add("paging.held.answer", a)
        r.add("paging.held.unanswered", float(len(answers) - len(answered)))
        r.facts.setdefault("paging.held.load", []).append(load)
        t = time.monotonic()
        pane.send_keys("Home")
        r.add("paging.home", pane.wait_for(FIRST_ROW, timeout=30, interval=0.005) - t)
        pauses = _record_pauses(ctx, "paging.held", _pauses_since(log, gc_offset))
    ctx.say(f"paging 1M: held PageUp moved {moved:.1f} of {PRESSES} pages ({per_page:.0f} rows a page), "
            f"answer p95 {_ms(percentile(answered, 95))} p99 {_ms(percentile(answered, 99))}, "
            f"{len(answers) - len(answered)} unanswered; Home {r.get('paging.home').samples[-1] * 1000:.0f} ms; "
            f"load {load}; collections over {PAUSE_MS:.0f} ms: {sum(p > PAUSE_MS for p in pauses)}")


def _record_pauses(ctx: Context, key: str, logged: list[tuple[int, float, float | None]]) -> list[float]:
    """Record the pauses' figures; the longest one's generation and CPU time go to the notes
    (a pause far longer than its CPU time is the system's doing, not the collector's)."""
    pauses = [ms for _, ms, _ in logged]
    ctx.results.add(f"{key}.gc_over_20ms", float(sum(p > PAUSE_MS for p in pauses)))
    ctx.results.add(f"{key}.gc_max_ms", max(pauses, default=0.0))
    ctx.results.add(f"{key}.gc_count", float(len(pauses)))
    if logged:
        gen, ms, cpu = max(logged, key=lambda entry: entry[1])
        full = [entry[1] for entry in logged if entry[0] == 2]
        cpu_text = f", {cpu:.1f} ms of it on the CPU" if cpu is not None else ""
        text = (f"{key}: {len(logged)} collections ({len(full)} full, the longest full one "
                f"{max(full, default=0.0):.1f} ms); the longest of all, {ms:.1f} ms, was generation {gen}{cpu_text}")
        ctx.say(text)
        ctx.results.note("paging", text)
    return pauses


def _writes(times: Path) -> list[float]:
    out = []
    try:
        for line in times.read_text().splitlines():
            at, _ = line.split()
            out.append(float(at))
    except (OSError, ValueError):
        pass
    return out


def _ms(v: float | None) -> str:
    return "—" if v is None else f"{v * 1000:.0f} ms"


def memory_once(ctx: Context) -> None:
    if ctx.room_db is None:
        raise RuntimeError("no 100 000-row room (seeding failed)")
    log = ctx.workspace.fresh_dir("paging-memory") / "gc.log"
    subject = _with_gc_log(ctx.keeltui("paging.100k", "keeltui, 100 000-row room", ctx.room_db,
                                       ready_extra=(LAST_ROW_MARK,)), log)
    r = ctx.results
    with ctx.pane(subject) as pane:
        pid = _open(ctx, pane, subject)
        time.sleep(1.0)
        before = rss_mb(pid)
        gc_offset = _size(log)
        started = time.monotonic()
        reached = False
        while time.monotonic() - started < TOP_BUDGET_SECS:
            pane.tmux("send-keys", "-t", pane.target, "-N", str(BURST), "PageUp")
            screen = settled(pane, timeout=60)
            if FIRST_ROW in screen:
                reached = True
                break
        if not reached:
            highest = top_row(pane.capture())
            ctx.results.note("paging", f"paging to the top of the 100 000-row room stopped at row {highest} after "
                                       f"{TOP_BUDGET_SECS:.0f} s of PageUp bursts; Home took it the rest of the way")
            pane.send_keys("Home")
            pane.wait_for(FIRST_ROW, timeout=60)
        up_secs = time.monotonic() - started
        pane.send_keys("End")
        pane.wait_for(LAST_ROW_MARK, timeout=60)
        settled(pane)
        time.sleep(1.0)
        after = rss_mb(pid)
        r.add("paging.memory.before", before)
        r.add("paging.memory.after", after)
        r.add("paging.memory.delta", after - before)
        r.add("paging.memory.peak", peak_rss_mb(pid))
        r.add("paging.memory.up_secs", up_secs)
        pauses = _record_pauses(ctx, "paging.memory", _pauses_since(log, gc_offset))
    ctx.say(f"paging 100k memory: RSS {before:.1f} MB before, {after:.1f} MB after the top and back "
            f"({after - before:+.1f} MB; {'paged' if reached else 'Home'} to the top in {up_secs:.0f} s); "
            f"collections over {PAUSE_MS:.0f} ms: {sum(p > PAUSE_MS for p in pauses)}")


def run(ctx: Context) -> None:
    for i in range(max(1, ctx.runs // 2)):
        # The memory run pages a whole room: once is enough to tell, and it is the long one.
        plan = [("held", held_once, "paging.held.pages")] + ([("memory", memory_once, "paging.memory.delta")] if i == 0 else [])
        for name, once, key in plan:
            try:
                once(ctx)
            except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
                ctx.results.fail(key, err(exc))
                ctx.say(f"paging {name}: run {i + 1} failed: {err(exc)}")
