"""bench/RESULTS.md: the machine, the targets (PASS/FAIL), then each measure's table."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable

from bench import side_by_side, soak_report
from bench.causes import CAUSES, measured
from bench.stats import Results, Series

PEER_KEYS = ("elia", "oterm")


# -- formatting -------------------------------------------------------------------------

def secs(v: float | None) -> str:
    if v is None:
        return "—"
    return f"{v * 1000:.0f} ms" if v < 1 else f"{v:.2f} s"


def mb(v: float | None) -> str:
    return "—" if v is None else f"{v:.1f} MB"


def pct(v: float | None) -> str:
    return "—" if v is None else (f"{v:.2f} %" if v < 10 else f"{v:.0f} %")


def times(v: float | None) -> str:
    return "—" if v is None else (f"{v:.2f}×" if v < 10 else f"{v:.0f}×")


def num(v: float | None) -> str:
    return "—" if v is None else (f"{v:.0f}" if float(v).is_integer() else f"{v:.2f}")


def spread(s: Series, fmt: Callable[[float | None], str]) -> str:
    if not s.samples:
        return "—"
    return f"{fmt(s.lo)} – {fmt(s.hi)}"


def ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


PAIRED_AT_LEAST = 5
"""Rounds with both starts before a first-frame line is judged on paired ratios."""


def frame_ratio(r: Results, key: str, base: str) -> tuple[float | None, str]:
    """``key``'s first frame over ``base``'s, and how to show it: the median of the rounds' own
    ratios (the two started back to back, at the same pace of the machine), the ratio of the
    medians beside it; the ratio of the medians alone with fewer than PAIRED_AT_LEAST rounds."""
    a, b = r.median(f"ttff.{key}"), r.median(f"ttff.{base}")
    medians = ratio(a, b)
    paired, rounds = r.paired_ratio("ttff", key, base)
    work = ratio(r.median(f"work.{key}"), r.median(f"work.{base}"))
    counted = f"; instructions to it {times(work)} (callgrind, the pace left out)" if work else ""
    if paired is None or rounds < PAIRED_AT_LEAST:
        return medians, (f"{secs(a)} vs {secs(b)} ({times(medians)}){counted}" if medians else "")
    return paired, (f"{times(paired)}: median of {rounds} rounds' own ratios (started back to back); "
                    f"medians {secs(a)} vs {secs(b)} ({times(medians)}){counted}")


def failed(s: Series) -> str:
    if s.errors and not s.samples:
        return f"failed: {s.errors[-1][:160]}"
    if s.errors:
        return f"{len(s.errors)} run(s) failed"
    return ""


# -- targets --------------------------------------------------------------------------------

@dataclass
class Verdict:
    key: str
    target: str
    measured: str
    ok: bool | None  # None: not measured
    near: bool = False
    """Passed, but within 10 % of the limit: one busy run away from failing."""


def _check(key: str, target: str, value: float | None, limit: float, shown: str, under: bool = False) -> Verdict:
    """PASS when ``value`` is within ``limit`` (``under``: strictly below it)."""
    if value is None:
        return Verdict(key, target, shown or "not measured", None)
    ok = value < limit if under else value <= limit
    return Verdict(key, target, shown, ok, near=ok and value >= 0.9 * limit)


def verdicts(r: Results) -> list[Verdict]:
    out: list[Verdict] = []
    for key, label in (("keeltui.empty", "empty store"), ("keeltui.100k", "100 000-row room, latest turn visible")):
        q, shown = frame_ratio(r, key, "floor")
        out.append(_check(f"ttff.{key}", f"first frame ≤ 1.3× the bare Textual floor ({label})", q, 1.3,
                          shown if q else failed(r.get(f"ttff.{key}"))))
    for key, label in (("keeltui.empty", "empty store"), ("keeltui.100k", "100 000-row room")):
        v = r.median(f"rss_brain.{key}")
        out.append(_check(f"rss.{key}", f"peak RSS < 70 MB after the brain client loaded ({label})", v, 70,
                          f"{mb(v)} (max {mb(r.get(f'rss_brain.{key}').hi)})" if v else failed(r.get(f"ttff.{key}")),
                          under=True))
    cold, warm = r.get("first_message.cold"), r.get("first_message.warm")
    if cold.samples and warm.samples:
        gap = cold.median - warm.median
        out.append(Verdict("first_message", "no pause on the first message (reply typed at the first frame lands "
                           "≤ 0.2 s later than a warm one)",
                           f"first {secs(cold.median)} vs warm {secs(warm.median)} (+{secs(max(gap, 0))})", gap <= 0.2))
    else:
        out.append(Verdict("first_message", "no pause on the first message", failed(cold) or "not measured", None))
    for variant, limit, label in (("paced", 0.1, "5 ms apart"), ("burst", 0.3, "burst")):
        s = r.get(f"stream.{variant}.lag")
        out.append(_check(f"stream.{variant}.lag", f"last chunk on screen ≤ {secs(limit)} after it was sent ({label})",
                          s.median, limit, f"{secs(s.median)} (max {secs(s.hi)})" if s.samples else failed(s)))
    s = r.get("stream.paced.cpu_pct")
    out.append(_check("stream.paced.cpu", "under 15 % of a core while streaming (2 000 chunks 5 ms apart)", s.median, 15,
                      f"{pct(s.median)} ({num(r.median('stream.paced.cpu'))} s CPU)" if s.samples
                      else failed(r.get("stream.paced.lag")), under=True))
    pins = r.get("stream.paced.pinned").samples + r.get("stream.burst.pinned").samples
    out.append(Verdict("stream.pinned", "view stays pinned to the bottom (last chunk on screen 1 s after the end)",
                       f"{int(sum(pins))} of {len(pins)} streams" if pins else "not measured",
                       (sum(pins) == len(pins)) if pins else None))
    for variant, label in (("paced", "5 ms apart"), ("burst", "burst")):
        s = r.get(f"stream.{variant}.bytes_ratio")
        out.append(_check(f"stream.{variant}.bytes", f"terminal bytes < 6× the reply's text ({label})", s.median, 6,
                          f"{times(s.median)}" if s.samples else failed(r.get(f"stream.{variant}.lag")), under=True))
    s = r.get("first_chunk.lag")
    together = r.get("first_chunk.together").samples
    out.append(_check("first_chunk", "first chunk of a short reply on screen ≤ 0.1 s after it was sent (slowest run), "
                      "with the message and the reply's header", s.hi if together and all(together) else
                      (None if not s.samples else float("inf")), 0.1,
                      f"median {secs(s.median)}, slowest {secs(s.hi)}; message and header on screen in "
                      f"{int(sum(together))} of {len(together)}" if s.samples else failed(s)))
    k, p = r.median("status.keeltui"), r.median("status.python")
    q = ratio(k, p)
    heavy = r.facts.get("status.heavy_imports")
    out.append(_check("status", "`keeltui status` ≤ 1.3× `python -c pass` (the app has run with this config)", q, 1.3,
                      f"{secs(k)} = {times(q)} ({secs(p)}); imports textual/openai: {', '.join(heavy) if heavy else 'none'}"
                      if q else failed(r.get("status.keeltui"))))
    s = r.get("report.screen")
    out.append(_check("report", "a report on screen within 1 s (slowest run)", s.hi, 1.0,
                      f"median {secs(s.median)}, slowest {secs(s.hi)}" if s.samples else failed(s)))
    s = r.get("idle.ambient.pct")
    out.append(_check("idle", "idle under 0.5 % of a core (sentinel, evidence polling and store watcher on)", s.median, 0.5,
                      f"{pct(s.median)} over {num(r.facts.get('idle.ambient.secs'))} s "
                      f"(ambient off: {pct(r.median('idle.off.pct'))}, floor: {pct(r.median('idle.floor.pct'))})"
                      if s.samples else failed(s), under=True))
    tally = r.facts.get("sentinel.tally")
    if tally is not None:
        steady = sum(tally.steady_calls.values())
        out.append(Verdict("sentinel.steady", "sentinel day: zero brain calls in steady deep work",
                           f"{steady} calls ({tally.calls} over the day)", steady == 0))
        away_calls = getattr(tally, "away_calls", None)
        if away_calls is not None:
            out.append(Verdict("sentinel.away", "sentinel day: zero judge calls while away from the keyboard",
                               f"{away_calls} calls over {tally.away_ticks} ticks away", away_calls == 0))
        out.append(Verdict("sentinel.toasts", "sentinel day: one toast per sustained drift episode, none otherwise",
                           f"{tally.toasts} toasts, {tally.sustained_drifts} sustained episodes",
                           tally.toasts == tally.sustained_drifts))
    else:
        out.append(Verdict("sentinel", "sentinel day", failed(r.get("sentinel.calls")) or "not measured", None))
    return out + more_verdicts(r)


def more_verdicts(r: Results) -> list[Verdict]:
    """Issue 14's targets that have no row above: RSS after a long reply, a never-run `status`, the 100k room."""
    out: list[Verdict] = []
    s = r.get("stream.paced.rss")
    out.append(_check("rss.stream", "peak RSS < 70 MB after a 2 000-chunk reply", s.median, 70,
                      f"{mb(s.median)} (max {mb(s.hi)})" if s.samples else failed(r.get("stream.paced.lag")), under=True))
    c, p = r.median("status.cold"), r.median("status.python")
    q = ratio(c, p)
    out.append(_check("cold_status", "`keeltui status` ≤ 1.3× `python -c pass` (the app has never run with this config)",
                      q, 1.3, f"{secs(c)} = {times(q)} ({secs(p)})" if q else failed(r.get("status.cold"))))
    q, shown = frame_ratio(r, "keeltui.100k", "keeltui.empty")
    out.append(_check("room.same", "100 000-row room: newest message on screen as fast as in an empty room "
                      "(within 5 %)", q, 1.05, shown if q else failed(r.get("ttff.keeltui.100k"))))
    s = r.get("long.pageup")
    out.append(_check("long.pageup", "100 000-row room: each PageUp answered within 50 ms (slowest press)", s.hi, 0.05,
                      f"median {secs(s.median)}, slowest {secs(s.hi)} over {len(s.samples)} presses; Home → first row "
                      f"{secs(r.median('long.home'))}" if s.samples else failed(s)))
    return out


def _mark(v: Verdict) -> str:
    if v.ok is None:
        return "—"
    return ("**PASS** (close to the line)" if v.near else "**PASS**") if v.ok else "**FAIL**"


def summary_text(r: Results) -> str:
    from bench import targets19

    return "\n".join(f"{('NEAR' if v.near else 'PASS') if v.ok else ('----' if v.ok is None else 'FAIL')}  "
                     f"{v.target}: {v.measured}" for v in verdicts(r) + targets19.verdicts(r))


# -- the document ---------------------------------------------------------------------------

def render(r: Results, info: dict[str, str], args) -> str:
    lines: list[str] = []
    add = lines.append
    add("# keeltui benchmarks")
    add("")
    add("Written by `make bench` (`python -m bench`); do not edit by hand. Every figure comes from the same run,")
    add("measured side by side: the real programs in tmux 120x40 (`capture-pane` polled every 20 ms), a loopback")
    add("OpenAI-compatible server on 127.0.0.1, median and min – max over the runs.")
    add("")
    add(f"- **Date**: {info['date']} · **runs per measure**: {info['runs']} · **took**: {info['duration']}"
        + (f" · **measures**: {info['only']}" if info.get("only") else ""))
    add(f"- **Machine**: {info['uname']} · {info['cpu']} · 1-min load average {info.get('load', '?')}")
    add(f"- **Pace** (a fixed Rich Markdown render in a fresh interpreter, median of five; compare runs by it: "
        f"the load average misses a busy host): {info.get('pace', '?')}")
    add(f"- **Wake-up** (a fresh interpreter waits 10 ms, 300 times: what the idle and streaming figures are mostly made "
        f"of, and what moved most on a bad day): {info.get('wake', '?')}")
    add(f"- **Software**: Python {info['python']} · Textual {info['textual']} · Rich {info['rich']} · {info['tmux']}"
        f" · keeltui at `{info['keeltui']}`")
    add("")
    add("## Targets (issue 14)")
    add("")
    add("| Target | Measured (median) | Result |")
    add("| --- | --- | --- |")
    vs = verdicts(r)
    for v in vs:
        add(f"| {v.target} | {v.measured} | {_mark(v)} |")
    add("")
    for title, chosen in (("Gaps and their causes", [v for v in vs if v.ok is False]),
                          ("Close to the line (passed within 10 % of the limit)", [v for v in vs if v.near])):
        if not chosen:
            continue
        add(f"### {title}")
        add("")
        for v in chosen:
            cause = next((text for prefix, text in CAUSES.items() if v.key.startswith(prefix)), None)
            found = measured(v.key, r)
            add(f"- **{v.target}** — {v.measured}. " + (f"*Measured in this run:* {found}. " if found else "")
                + (cause or "Cause not analysed yet."))
        add("")
    from bench import targets19  # issue 19's targets and the measures it added

    targets19.render(r, add)
    side_by_side.render(r, add)
    _first_frame(r, add)
    _first_frame_work(r, add)
    _first_message(r, add)
    _streaming(r, add)
    _first_chunk(r, add)
    _status(r, add)
    _report(r, add)
    _idle(r, add)
    _sentinel(r, add)
    soak_report.render(r, add)
    _peers(r, add)
    errors = [(k, e) for k, s in r.series.items() for e in s.errors]
    if errors:
        add("## Failed runs")
        add("")
        for k, e in errors:
            add(f"- `{k}`: {e}")
        add("")
    return "\n".join(lines)


def _subjects(r: Results) -> list[tuple[str, str]]:
    rows = [("floor", "bare Textual app (floor: Header, one Static, Footer)"),
            ("keeltui.empty", "keeltui, empty store"),
            ("keeltui.100k", "keeltui, 100 000-row Chief room (last row on screen)"),
            ("keeltui.1m", "keeltui, 1 000 000-row Chief room (last row on screen)")]
    for key in PEER_KEYS:
        if f"ttff.{key}" in r.series:
            rows.append((key, str(r.facts.get(f"peer.{key}", key)).split(":")[0]))
    return rows


def _first_frame(r: Results, add) -> None:
    if not any(k.startswith("ttff.") for k in r.series):
        return
    floor = r.median("ttff.floor")
    add("## Time to first frame")
    add("")
    add("From `respawn-pane` to the known text on screen (keeltui: the composer's placeholder; with 100 000 rows,")
    add("also the last row's text), dated by the piece of the pane's output that completed it (`pipe-pane`, each")
    add("piece stamped on arrival; the 20 ms screen poll only tells that it is there). One unrecorded warm-up")
    add("start per subject first. The subjects start one after another in rounds (each round in another order);")
    add("\"× floor, paired\" is the median of each round's own ratio to the floor's start in that round.")
    add("")
    add("| Subject | median | min – max | runs | × floor (medians) | × floor, paired (rounds) |")
    add("| --- | --- | --- | --- | --- | --- |")
    for key, label in _subjects(r):
        s = r.get(f"ttff.{key}")
        paired, rounds = r.paired_ratio("ttff", key, "floor")
        add(f"| {label} | {secs(s.median)} | {spread(s, secs)} | {len(s.samples)} | "
            f"{times(ratio(s.median, floor)) if key != 'floor' else '1×'} {failed(s)} | "
            f"{f'{times(paired)} ({rounds})' if key != 'floor' and paired else '—'} |")
    for note in r.notes.get("first_frame", []):
        add(f"\n{note}")
    add("")
    add("## Peak RSS (VmHWM)")
    add("")
    add("| Subject | at the first frame | 3 s later (keeltui: brain client loaded) |")
    add("| --- | --- | --- |")
    for key, label in _subjects(r):
        a, b = r.get(f"rss.{key}"), r.get(f"rss_brain.{key}")
        later = f"{mb(b.median)} ({spread(b, mb)})" if b.samples else "—"
        add(f"| {label} | {mb(a.median)} ({spread(a, mb)}) | {later} |")
    add("")


def _first_frame_work(r: Results, add) -> None:
    if not any(k.startswith("work.") for k in r.series) and not r.notes.get("first_frame_work"):
        return
    add("## Work to the first frame")
    add("")
    add("The work to the same first frame, counted: instructions executed up to it under valgrind (callgrind),")
    add("in the same pane, the program ended by the frame itself (bench/frame_exit). The machine's pace does not")
    add("enter (the same start counts the same within ~0.3 %); the kernel's part (page faults, reading files) does")
    add("not either, which the time includes.")
    add("")
    add("| Subject | instructions | × floor | × empty room |")
    add("| --- | --- | --- | --- |")
    floor, empty = r.median("work.floor"), r.median("work.keeltui.empty")
    for key, label in _subjects(r):
        s = r.get(f"work.{key}")
        if not s.samples and not s.errors:
            continue
        shown = f"{s.median / 1e6:.0f} M" if s.samples else "—"
        add(f"| {label} | {shown} {failed(s)} | {times(ratio(s.median, floor)) if key != 'floor' else '1×'} | "
            f"{times(ratio(s.median, empty)) if key.startswith('keeltui.') and key != 'keeltui.empty' else '—'} |")
    for line in r.notes.get("first_frame_work", []):
        add(f"\n{line}")
    add("")


def _first_message(r: Results, add) -> None:
    cold, warm = r.get("first_message.cold"), r.get("first_message.warm")
    if not (cold.samples or cold.errors):
        return
    add("## First message")
    add("")
    late = r.get("first_message.after_load")
    add("From Enter to the owner's own turn on screen (echo) and to the (4-chunk, unpaced) reply's last word on")
    add("screen. The brain client loads in the background right after the first frame.")
    add("")
    add("| Case | reply: median | min – max | own turn on screen: median | min – max | runs |")
    add("| --- | --- | --- | --- | --- | --- |")
    for label, series in (("first message, typed at the first frame", cold),
                          ("first message, typed 2.5 s after the first frame", late),
                          ("second message (same app as the first row)", warm)):
        key = next((k for k, v in r.series.items() if v is series), "")
        echo = r.get(f"{key}_echo")
        add(f"| {label} | {secs(series.median)} | {spread(series, secs)} | {secs(echo.median)} | {spread(echo, secs)} | "
            f"{len(series.samples)} {failed(series)} |")
    add("")


def _streaming(r: Results, add) -> None:
    if not any(k.startswith("stream.") for k in r.series):
        return
    text_bytes = r.facts.get("stream.text_bytes")
    add("## Streaming 2 000 chunks (keeltui)")
    add("")
    add("A fresh keeltui per run (empty store, brain loaded); one message; the loopback server streams 2 000")
    add(f"word-sized chunks ({num(text_bytes)} bytes of text, a paragraph every 80 words) whose last chunk is a")
    add("unique marker. CPU: the app process (all threads) from the request's arrival to the marker on screen.")
    add("Bytes: everything the app wrote to its terminal (`tmux pipe-pane`) from the request to 1 s after the end.")
    add("")
    add("| | 5 ms apart (median, min – max) | burst (median, min – max) |")
    add("| --- | --- | --- |")

    def cell(key: str, fmt) -> str:
        s = r.get(key)
        return f"{fmt(s.median)} ({spread(s, fmt)})" if s.samples else (failed(r.get(key.rsplit('.', 1)[0] + '.lag')) or "—")

    rows = [
        ("last chunk sent → on screen", "lag", secs),
        ("request → last chunk on screen", "wall", secs),
        ("app CPU", "cpu", lambda v: "—" if v is None else f"{v:.2f} s"),
        ("app CPU, % of a core", "cpu_pct", pct),
        ("terminal bytes, × reply text", "bytes_ratio", times),
        ("terminal bytes", "bytes", lambda v: "—" if v is None else f"{v / 1e6:.2f} MB"),
    ]
    for label, key, fmt in rows:
        add(f"| {label} | {cell(f'stream.paced.{key}', fmt)} | {cell(f'stream.burst.{key}', fmt)} |")
    pins = [r.get(f"stream.{v}.pinned").samples for v in ("paced", "burst")]
    add(f"| pinned to the bottom at the end | {int(sum(pins[0]))} of {len(pins[0])} | {int(sum(pins[1]))} of {len(pins[1])} |")
    runs = [len(r.get(f"stream.{v}.lag").samples) for v in ("paced", "burst")]
    add(f"| runs | {runs[0]} | {runs[1]} |")
    add("")
    add("Not measured: that the view stays where the owner scrolled to when they scroll up during a stream.")
    add("")
    add("elia and oterm, measured the same way in the same run: the Side by side table.")
    add("")


def _first_chunk(r: Results, add) -> None:
    s = r.get("first_chunk.lag")
    if not (s.samples or s.errors):
        return
    add("## First chunk visible")
    add("")
    add("A fresh keeltui per run (empty store, brain loaded); one message; a short reply in three chunks 0.2 s")
    add("apart. From the first chunk leaving the loopback server to it on screen (`capture-pane` every 20 ms).")
    add("")
    add("| | median | min – max | runs |")
    add("| --- | --- | --- | --- |")
    add(f"| first chunk sent → on screen | {secs(s.median)} | {spread(s, secs)} | {len(s.samples)} {failed(s)} |")
    together = r.get("first_chunk.together").samples
    add(f"| message, header and first chunk on screen together | {int(sum(together))} of {len(together)} | | |")
    add("")


def _status(r: Results, add) -> None:
    k, p = r.get("status.keeltui"), r.get("status.python")
    if not (k.samples or k.errors):
        return
    add("## `keeltui status`")
    add("")
    add("Wall time of the whole process, the venv's Python for both; keeltui open in a pane with the same config")
    add("(as when tmux's `status-right` runs it).")
    add("")
    add("| Command | median | min – max | runs | ratio |")
    add("| --- | --- | --- | --- | --- |")
    add(f"| `keeltui status` | {secs(k.median)} | {spread(k, secs)} | {len(k.samples)} | {times(ratio(k.median, p.median))} {failed(k)} |")
    add(f"| `python -c pass` | {secs(p.median)} | {spread(p, secs)} | {len(p.samples)} | 1× |")
    c = r.get("status.cold")
    if c.samples or c.errors:
        add(f"| `keeltui status`, a config no running app has opened yet (the first call validates and stamps it) | "
            f"{secs(c.median)} | {spread(c, secs)} | {len(c.samples)} | {times(ratio(c.median, p.median))} {failed(c)} |")
    heavy = r.facts.get("status.heavy_imports")
    add("")
    add(f"Heavy modules imported by `keeltui status` (`-X importtime`): {', '.join(heavy) if heavy else 'none'}.")
    add("")


def _report(r: Results, add) -> None:
    s, cli = r.get("report.screen"), r.get("report.cli")
    if not (s.samples or s.errors):
        return
    add("## Report to screen")
    add("")
    add("One open app; `keeltui report --source cron:bench TEXT` run from outside at random moments; from the")
    add("command returning to TEXT on screen (the app polls the store every 0.5 s).")
    add("")
    add("| | median | min – max | runs |")
    add("| --- | --- | --- | --- |")
    add(f"| report returned → on screen | {secs(s.median)} | {spread(s, secs)} | {len(s.samples)} {failed(s)} |")
    add(f"| `keeltui report` itself | {secs(cli.median)} | {spread(cli, secs)} | {len(cli.samples)} |")
    add("")


def _idle(r: Results, add) -> None:
    rows = [("ambient", "keeltui, ambient on: sentinel (mode status, 5 s cadence), `command` evidence every 5 s"),
            ("off", "keeltui, ambient off"), ("floor", "bare Textual app (floor)")]
    rows += [(key, f"{key}, on a chat screen") for key in PEER_KEYS]
    if not any(r.get(f"idle.{k}.pct").samples or r.get(f"idle.{k}.pct").errors for k, _ in rows):
        return
    add("## Idle cost")
    add("")
    add("The app untouched after it settled (3 s at least, then until a second passes with under 5 ms of CPU, 20 s at")
    add("most: start-up work a slower machine stretches stays out of the window); the store watcher is told of writes")
    add("(inotify) and polls every 10 s. CPU of the app process")
    add("(all threads, plus reaped children such as the evidence command); bytes written to its terminal.")
    add("")
    add("| Subject | period | % of a core | six windows: median (min – max) | terminal bytes/s |")
    add("| --- | --- | --- | --- | --- |")
    for key, label in rows:
        s, w, b = r.get(f"idle.{key}.pct"), r.get(f"idle.{key}.window_pct"), r.get(f"idle.{key}.bytes_per_s")
        if not (s.samples or s.errors):
            continue
        add(f"| {label} | {num(r.facts.get(f'idle.{key}.secs'))} s | {pct(s.median)} {failed(s)} | "
            f"{pct(w.median)} ({spread(w, pct)}) | {f'{b.median:.0f}' if b.samples else '—'} |")
    add("")
    for note in r.notes.get("idle", []):
        add(f"- {note}")
    if r.notes.get("idle"):
        add("")


def _sentinel(r: Results, add) -> None:
    tally = r.facts.get("sentinel.tally")
    if tally is None and not r.notes.get("sentinel") and not r.get("sentinel.calls").errors:
        return
    add("## Sentinel day")
    add("")
    add("A synthetic 8-hour day (bench/sentinel_day.py) replayed through `keeltui.sentinel.Sentinel` with a fake")
    add("clock: a window snapshot every 5 s, a tick every 300 s, a counting fake judge (drift when the latest")
    add("title is a time sink) and a counting notifier (mode `notify`).")
    add("")
    for note in r.notes.get("sentinel", []):
        add(f"- {note}")
    if tally is None:
        add(f"- {failed(r.get('sentinel.calls'))}")
        add("")
        return
    add("| Stretch kind | ticks | brain calls | calls after the stretch's first tick |")
    add("| --- | --- | --- | --- |")
    for kind in tally.ticks_by_kind:
        steady = tally.steady_calls.get(kind, "—")
        add(f"| {kind} | {tally.ticks_by_kind[kind]} | {tally.calls_by_kind.get(kind, 0)} | {steady} |")
    add(f"| **day** | {tally.ticks} | {tally.calls} | |")
    add("")
    if getattr(tally, "away_ticks", None) is not None:
        add(f"Away from the keyboard (idle ≥ 300 s, lunch with a YouTube tab in front included): "
            f"{tally.away_ticks} ticks, {tally.away_calls} judge calls.")
        add("")
    add(f"Toasts: {tally.toasts} · drift episodes (line set): {tally.episodes} · `ambient_nudge` events: "
        f"{tally.nudges} · drift stretches: {tally.drift_stretches} ({tally.sustained_drifts} long enough for two "
        "ticks) · a 3-minute glance at a time sink between ticks costs nothing and says nothing.")
    add("")


def _peers(r: Results, add) -> None:
    facts = [(k, v) for k, v in r.facts.items() if k.startswith("peer.")]
    notes = r.notes.get("peers", [])
    if not facts and not notes:
        return
    add("## Peers")
    add("")
    for _, text in facts:
        add(f"- {text}")
    for note in notes + r.notes.get("dropped_keys", []) + r.notes.get("profile", []):
        add(f"- {note}")
    add("- Driven like keeltui: each run in its own XDG home, the config written before the start (elia: a model")
    add("  `openai/loop-model` on the loopback server as the default; oterm: a saved chat on `loop-model:latest`,")
    add("  which it opens as a tab at start), messages typed into the focused prompt (elia sends with Ctrl+J).")
    add(f"  Peers run fewer times than keeltui where one run takes long (streaming, first message, first chunk, "
        f"long chat: {r.facts.get('peer_runs', '?')} runs).")
    add("")
