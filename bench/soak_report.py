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
    add("One process in tmux 120x40 while 10 000 turns and 50 000 reports land in 200 batches (written to its")
    add("database; the app reads and draws each batch), paging and a search every 20 batches. Target: RSS within")
    add("10 MB of the start, fds and threads constant, the WAL bounded, the echo unchanged.")
    add("")
    add("| Figure | start | middle | end |")
    add("| --- | --- | --- | --- |")
    for key, label in ROWS:
        cells = []
        for phase in ("start", "middle", "end"):
            value = r.median(f"soak.{phase}.{key}")
            cells.append("—" if value is None else f"{value:.1f}")
        add(f"| {label} | " + " | ".join(cells) + " |")
    secs = r.facts.get("soak.secs")
    if isinstance(secs, float):
        add("")
        add(f"The week took {secs:.0f} s of wall time. The sentinel's ticks and tutor turns are not fast-forwarded "
            "(they run on the app's own clock).")
    add("")
