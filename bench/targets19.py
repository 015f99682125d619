"""Issue 19's targets ("The Chief room at any size"): PASS/FAIL with the figure, and the
tables of the measures it added (paging, the code-block stream, `keeltui status` in four
cases, the whole idle cost with tmux's status line)."""

from __future__ import annotations

from bench.report import Verdict, _check, failed, frame_ratio, mb, pct, ratio, secs, times
from bench.stats import Results, percentile

STATUS_CASES = (
    ("status.keeltui", "a config file, the app running"),
    ("status.config_stopped", "a config file, no app running"),
    ("status.noconfig_app", "no config file, the app running"),
    ("status.noconfig", "no config file, no app running"),
)


def _p(r: Results, key: str, q: float) -> float | None:
    return percentile(r.get(key).samples, q)


def verdicts(r: Results) -> list[Verdict]:
    out: list[Verdict] = []
    for key, label in (("keeltui.empty", "empty room"), ("keeltui.1m", "1 000 000-row room")):
        q, shown = frame_ratio(r, key, "floor")
        out.append(_check(f"ttff.{key}", f"first frame ≤ 1.3× the bare Textual floor ({label})", q, 1.3,
                          shown if q else failed(r.get(f"ttff.{key}"))))
    q, shown = frame_ratio(r, "keeltui.1m", "keeltui.empty")
    out.append(_check("room.1m", "1 000 000-row room: first frame within 5 % of the empty room's", q, 1.05,
                      shown if q else failed(r.get("ttff.keeltui.1m"))))
    s = r.get("paging.home")
    out.append(_check("paging.home", "1 000 000-row room: Home → first row ≤ 50 ms (median)", s.median, 0.05,
                      f"median {secs(s.median)}, slowest {secs(s.hi)}" if s.samples else failed(r.get("paging.held.pages"))))
    s = r.get("paging.held.pages")
    out.append(Verdict("paging.held", "a held PageUp (40 presses, 30 ms apart) moves ≥ 95 % of 40 pages (worst run)",
                       f"{s.lo:.1f} of 40 pages (best run {s.hi:.1f}; a page = "
                       f"{r.median('paging.held.rows_per_page') or 0:.0f} rows)" if s.samples else failed(s) or "not measured",
                       None if not s.samples else s.lo >= 38))
    answers = r.get("paging.held.answer").samples
    unanswered = int(sum(r.get("paging.held.unanswered").samples))
    load = ", ".join(str(x) for x in r.facts.get("paging.held.load", []))
    for q_, limit in ((95, 0.016), (99, 0.05)):
        v = _p(r, "paging.held.answer", q_) if not unanswered else float("inf")
        out.append(_check(f"paging.p{q_}", f"each PageUp answered ≤ {secs(limit)} at p{q_} (load average: {load or '?'})",
                          v if answers else None, limit,
                          f"p{q_} {secs(_p(r, 'paging.held.answer', q_))} over {len(answers)} presses"
                          + (f", {unanswered} never answered" if unanswered else "") if answers else failed(s)))
    d = r.get("paging.memory.delta")
    out.append(_check("paging.memory", "memory flat: paging the 100 000-row room to the top and back ends within "
                      "10 MB of the RSS before", None if not d.samples else abs(d.hi), 10.0,
                      f"{mb(r.median('paging.memory.before'))} → {mb(r.median('paging.memory.after'))} "
                      f"({'+' if d.hi >= 0 else ''}{d.hi:.1f} MB, worst run)" if d.samples else failed(d)))
    over = r.get("paging.held.gc_over_20ms").samples + r.get("paging.memory.gc_over_20ms").samples
    worst = max(r.get("paging.held.gc_max_ms").samples + r.get("paging.memory.gc_max_ms").samples, default=None)
    out.append(Verdict("paging.gc", "no collection pause over 20 ms while paging",
                       f"{int(sum(over))} pauses over 20 ms (longest {worst:.0f} ms)" if over and worst is not None
                       else failed(r.get("paging.held.pages")) or "not measured", None if not over else sum(over) == 0))
    s = r.get("stream.room.rss")
    out.append(_check("stream.room.rss", "peak RSS < 70 MB after a 2 000-chunk reply in a 100 000-row room", s.median, 70,
                      f"{mb(s.median)} (max {mb(s.hi)})" if s.samples else failed(r.get("stream.room.lag")), under=True))
    echo = r.get("code.echo")
    v = _p(r, "code.echo", 95)
    lines = r.facts.get("code.echo.lines") or []
    out.append(_check("code.echo", "a 5 000-line code block streaming at 500 lines/s: keystroke echo ≤ 50 ms at p95", v, 0.05,
                      f"p95 {secs(v)}, median {secs(echo.median)} over {len(echo.samples)} keys typed between code lines "
                      + ", ".join(f"{a}–{b}" for a, b in lines) if echo.samples else failed(echo)))
    stop = r.get("code.stop")
    out.append(_check("code.stop", "… and Escape stops it within 100 ms (at 5 %, 50 % and 95 % of the block; slowest)",
                      stop.hi, 0.1, f"slowest {secs(stop.hi)}, median {secs(stop.median)} over {len(stop.samples)} stops"
                      if stop.samples else failed(stop)))
    for key, limit, label in (("stream.paced.lag", 0.05, "last chunk on screen ≤ 50 ms after it was sent (5 ms apart)"),):
        s = r.get(key)
        out.append(_check(f"19.{key}", label, s.median, limit, f"{secs(s.median)} (max {secs(s.hi)})" if s.samples else failed(s)))
    s = r.get("stream.paced.cpu_pct")
    out.append(_check("19.stream.cpu", "… under 10 % of a core", s.median, 10, f"{pct(s.median)}" if s.samples
                      else failed(r.get("stream.paced.lag")), under=True))
    s = r.get("stream.paced.bytes_ratio")
    out.append(_check("19.stream.bytes", "… terminal bytes < 4× the text", s.median, 4, f"{times(s.median)}" if s.samples
                      else failed(r.get("stream.paced.lag")), under=True))
    s = r.get("stream.burst.bytes_ratio")
    out.append(_check("19.stream.burst", "… burst: terminal bytes ≤ 1× the text", s.median, 1.0, f"{times(s.median)}"
                      if s.samples else failed(r.get("stream.burst.lag"))))
    p = r.median("status.python")
    for key, label in STATUS_CASES:
        k = r.median(key)
        q = ratio(k, p)
        out.append(_check(f"19.{key}", f"`keeltui status` ≤ 1.3× `python -c pass` ({label})", q, 1.3,
                          f"{secs(k)} = {times(q)} ({secs(p)})" if q else failed(r.get(key))))
    s = r.get("idle.tmux_status.pct")
    out.append(_check("idle.tmux_status", "the whole idle cost (app + tmux calling `keeltui status` every 5 s) < 0.5 % "
                      "of a core", s.median, 0.5,
                      f"{pct(s.median)} (app {pct(r.median('idle.tmux_status.app_pct'))}, tmux and the status calls "
                      f"{pct(r.median('idle.tmux_status.tmux_pct'))})" if s.samples else failed(s), under=True))
    return out


def render(r: Results, add) -> None:
    """The targets table, then the new measures' own tables (only those that ran)."""
    from bench.report import _mark, spread

    add("## Targets (issue 19: the Chief room at any size)")
    add("")
    add("| Target | Measured | Result |")
    add("| --- | --- | --- |")
    for v in verdicts(r):
        add(f"| {v.target} | {v.measured} | {_mark(v)} |")
    add("")
    if r.get("paging.held.pages").samples or r.get("paging.memory.delta").samples:
        add("## Paging a long room")
        add("")
        add("1 000 000-row room: two unhurried PageUps measure a page, then 40 presses 30 ms apart (`tmux send-keys` in a")
        add("paced loop); pages moved from the row numbers on screen once the view settles; each press answered = the")
        add("app's next write to the terminal (`pipe-pane`, stamped). 100 000-row room: VmRSS before and after paging to")
        add("the top (PageUp bursts, bounded) and back (End). Collection pauses: the app's own recorder (KEEL_BENCH_GC_LOG).")
        add("")
        add("| | median | min – max | runs |")
        add("| --- | --- | --- | --- |")
        for key, label, fmt in (
            ("paging.held.pages", "pages moved of 40 (held PageUp)", lambda v: "—" if v is None else f"{v:.1f}"),
            ("paging.held.rows_per_page", "rows a page (unhurried press)", lambda v: "—" if v is None else f"{v:.0f}"),
            ("paging.held.answer", "press → the app's next write", secs),
            ("paging.home", "Home → first row on screen", secs),
            ("paging.memory.before", "RSS before paging (100 000 rows)", mb),
            ("paging.memory.after", "RSS after the top and back", mb),
            ("paging.memory.peak", "peak RSS (VmHWM) after it", mb),
            ("paging.memory.up_secs", "time to reach the top", secs),
            ("paging.held.gc_max_ms", "longest collection while holding PageUp, ms", lambda v: "—" if v is None else f"{v:.1f}"),
            ("paging.memory.gc_max_ms", "longest collection paging to the top and back, ms",
             lambda v: "—" if v is None else f"{v:.1f}"),
        ):
            s = r.get(key)
            add(f"| {label} | {fmt(s.median)} | {spread(s, fmt)} | {len(s.samples)} {failed(s)} |")
        answers = r.get("paging.held.answer").samples
        add(f"| press answer p95 / p99 | {secs(percentile(answers, 95))} / {secs(percentile(answers, 99))} | | "
            f"{len(answers)} presses |")
        add("")
        for note in r.notes.get("paging", []):
            add(f"- {note}")
        if r.notes.get("paging"):
            add("")
    echo, stop = r.get("code.echo"), r.get("code.stop")
    if echo.samples or echo.errors or stop.samples or stop.errors:
        add("## A 5 000-line code block streaming at 500 lines/s")
        add("")
        add("| | median | p95 | max | samples |")
        add("| --- | --- | --- | --- | --- |")
        for s, label in ((echo, "keystroke → echo in the composer"), (stop, "Escape → the last new code line")):
            add(f"| {label} | {secs(s.median)} | {secs(percentile(s.samples, 95))} | {secs(s.hi)} | "
                f"{len(s.samples)} {failed(s)} |")
        add("")
        for note in r.notes.get("code_stream", []):
            add(f"- {note}")
        if r.notes.get("code_stream"):
            add("")
    if any(r.get(key).samples for key, _ in STATUS_CASES):
        p = r.median("status.python")
        add("## `keeltui status`, four cases")
        add("")
        add("| Case | median | min – max | × `python -c pass` |")
        add("| --- | --- | --- | --- |")
        for key, label in STATUS_CASES:
            s = r.get(key)
            add(f"| {label} | {secs(s.median)} | {spread(s, secs)} | {times(ratio(s.median, p))} {failed(s)} |")
        add("")
