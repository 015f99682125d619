"""The soak measure's section of bench/RESULTS.md (see bench/measures/soak.py)."""

from __future__ import annotations

from bench.stats import Results

ROWS = (("rss_mb", "RSS (MB)"), ("fds", "open file descriptors"), ("threads", "threads"),
        ("wal_mb", "WAL (MB)"), ("db_mb", "database (MB)"), ("echo_ms", "keystroke echo (ms, median of 5)"))


def render(r: Results, add) -> None:
    if not any(key.startswith("soak.") for key in r.series):
        return
    add("## A week left open (issue 24)")
    add("")
    batches = r.facts.get("soak.batches", 200)
    add("One process in tmux 120x40, the ambient on, while 10 000 turns, 50 000 reports and 100 000 sentinel ticks'")
    add(f"evidence rows land in {batches} batches of a busy hour (written to its database; the app reads and draws each")
    add("batch). Every 20 batches, and before each figure, a person visits with keys only: pages the room to its first")
    add("row and back, types a question to the Chief and waits for the answer, searches the room (Ctrl+F, Enter, the")
    add("match and its count shown, Escape) and has one answered tutor turn (Ctrl+T there and back); the echo is typed")
    add("after it. Target: RSS within 10 MB of the first hour's, fds and threads constant, the WAL bounded, the echo")
    add("unchanged.")
    visits, failures = r.facts.get("soak.visits"), r.facts.get("soak.visit_failures", 0)
    if visits:
        add("")
        add(f"Visits: {visits}, of which {failures} stumbled (a step's screen never showed; the week went on).")
    add("")
    add("| Figure | start | first hour | middle | end |")
    add("| --- | --- | --- | --- | --- |")
    for key, label in ROWS:
        cells = []
        for phase in ("start", "hour", "middle", "end"):
            value = r.median(f"soak.{phase}.{key}")
            cells.append("—" if value is None else f"{value:.1f}")
        add(f"| {label} | " + " | ".join(cells) + " |")
    early, late = r.median("soak.sentinel.heap_early_kb"), r.median("soak.sentinel.heap_late_kb")
    if early is not None and late is not None:
        add("")
        add(f"The sentinel's core fast-forwarded alone (the real `Sentinel`, a simulated clock, 100 000 ticks): its "
            f"Python heap {early:.0f} KiB after 1 000 ticks, {late:.0f} KiB after 100 000.")
    secs = r.facts.get("soak.secs")
    if isinstance(secs, float):
        add("")
        add(f"The week took {secs:.0f} s of wall time; the app's own sentinel judged on its 5 s cadence meanwhile.")
    add("")
