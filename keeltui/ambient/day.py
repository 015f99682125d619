"""Your day as text: the timeline (keeltui.ambient.timeline) for people and for scripts. Pure.

``keeltui day`` and the app's day view (F3) print the same lines; ``--json`` and
``--csv`` give scripts the same numbers. Every duration goes through
:func:`keeltui.text.durations.format_duration`, so one span reads the same everywhere.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from keeltui.text.durations import format_duration
from keeltui.text.textsafe import one_line

from .timeline import (
    AWAY, AWAY_KIND, CELL_SECS, DRIFT, EPISODE_KIND, FOCUS_KIND, STATES, TASK, TIMELINE_KINDS, UNKNOWN,
    Timeline, cell_state, totals_in,
)

DAY_KINDS = (EPISODE_KIND, AWAY_KIND, FOCUS_KIND)  # what `keeltui log --kind ambient` lists
QUERY_KINDS = TIMELINE_KINDS
# Records are stored when a span ends, ticks when they start: read a margin either side.
QUERY_BEFORE = 3600.0
QUERY_AFTER = 86400.0

CELLS_PER_HOUR = 3600 // CELL_SECS
GLYPHS = {TASK: "#", DRIFT: "~", AWAY: ".", UNKNOWN: " "}
WORDS = {TASK: "on task", DRIFT: "drifting", AWAY: "away", UNKNOWN: "no evidence"}
APPS_HEADING = "Apps (time in front, away excluded)"
LEGEND = "# on task  ~ drifting  . away  (blank) no evidence · one cell is 5 minutes"


@dataclass(frozen=True)
class Span:
    kind: str  # "drift" | "away" | "focus"
    start: float
    end: float
    data: dict


def spans(records: list[dict]) -> list[Span]:
    """The records as time spans, oldest first; unreadable records are skipped."""
    out = []
    names = {EPISODE_KIND: "drift", AWAY_KIND: "away", FOCUS_KIND: "focus"}
    for record in records:
        kind = names.get(record.get("kind", ""))
        data = record.get("data")
        if kind is None or not isinstance(data, dict):
            continue
        try:
            start, end = float(data["start"]), float(data["end"])
        except (KeyError, TypeError, ValueError):
            continue
        if end > start:
            out.append(Span(kind, start, end, data))
    return sorted(out, key=lambda s: s.start)


def day_bounds(date: str | None, now: float) -> tuple[float, float]:
    """Local midnight to midnight for ``YYYY-MM-DD`` (today when None); ValueError if unreadable."""
    if date:
        try:
            parsed = time.strptime(date, "%Y-%m-%d")
        except ValueError:
            raise ValueError(f"cannot read date {date!r} (expected YYYY-MM-DD)") from None
    else:
        parsed = time.localtime(now)
    start = time.mktime((parsed.tm_year, parsed.tm_mon, parsed.tm_mday, 0, 0, 0, 0, 0, -1))
    end = time.mktime((parsed.tm_year, parsed.tm_mon, parsed.tm_mday + 1, 0, 0, 0, 0, 0, -1))
    return start, end


def _clock(at: float) -> str:
    return time.strftime("%H:%M", time.localtime(at))


def _date(at: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(at))


def totals_text(totals: dict[str, float], states: tuple[str, ...] = STATES) -> str:
    return " · ".join(f"{WORDS[s]} {format_duration(totals[s])}" for s in states)


def has_evidence(timeline: Timeline) -> bool:
    return any(s.state != UNKNOWN for s in timeline.segments)


# --------------------------------------------------------------------- the hours


@dataclass(frozen=True)
class HourRow:
    hour: int
    start: float
    cells: list[str | None]  # a state per five minutes; None past the end of the timeline
    totals: dict[str, float]


def hour_rows(timeline: Timeline, day_start: float) -> list[HourRow]:
    """The hours from the first with evidence to the last (or the current one)."""
    rows = []
    for hour in range(24):
        h0 = day_start + hour * 3600
        if h0 >= timeline.end:
            break
        cells: list[str | None] = []
        for i in range(CELLS_PER_HOUR):
            c0 = h0 + i * CELL_SECS
            cells.append(cell_state(timeline, c0, min(c0 + CELL_SECS, timeline.end)) if c0 < timeline.end else None)
        rows.append(HourRow(hour, h0, cells, totals_in(timeline.segments, h0, min(h0 + 3600, timeline.end))))
    known = [i for i, row in enumerate(rows) if row.totals[UNKNOWN] < (min(row.start + 3600, timeline.end) - row.start)]
    if not known:
        return []
    return rows[min(known):]


def strip(row: HourRow) -> str:
    return "".join(GLYPHS[c] if c is not None else " " for c in row.cells)


def hour_summary(row: HourRow) -> str:
    parts = [f"{WORDS[s]} {format_duration(row.totals[s])}" for s in (TASK, DRIFT, AWAY) if row.totals[s] >= 1]
    return " · ".join(parts)


# --------------------------------------------------------------------- the day


@dataclass(frozen=True)
class DayText:
    """The day view's parts; :func:`render_day` joins them for ``keeltui day``."""

    title: str
    summary: list[str]  # the totals and the corrections, or why there is nothing
    hours: list[HourRow]
    focus: list[str]
    episodes: list[str]
    apps: list[str]


def day_text(timeline: Timeline, day_start: float, *, running: bool = False) -> DayText:
    until = f" (until {_clock(timeline.end)})" if running else ""
    title = f"Your day — {_date(day_start + 1)}{until}"
    if not has_evidence(timeline) and not timeline.focus:
        why = ("No evidence recorded: keeltui was not running, or it had no evidence source "
               "(see keeltui doctor).")
        return DayText(title, [why], [], [], [], [])
    summary = [totals_text(timeline.totals)]
    if timeline.corrections:
        summary.append(f"{timeline.corrections} judgement{'s' if timeline.corrections != 1 else ''} corrected (that was work)")
    apps = [f"  {one_line(name, 40):<40} {format_duration(secs)}" for name, secs in timeline.apps.items()]
    return DayText(title, summary, hour_rows(timeline, day_start), [focus_line(f) for f in timeline.focus],
                   [episode_line(e) for e in timeline.episodes], apps)


def hour_head(row: HourRow) -> str:
    return f"{row.hour:02d}    |"


def hour_tail(row: HourRow) -> str:
    return f"|  {hour_summary(row)}".rstrip()


def render_day(timeline: Timeline, day_start: float, *, running: bool = False) -> list[str]:
    """The day as lines of plain text (the day view colours the same parts)."""
    text = day_text(timeline, day_start, running=running)
    lines = [text.title, *text.summary]
    if text.hours:
        lines += ["", f"hour  {LEGEND}"]
        lines += [hour_head(row) + strip(row) + hour_tail(row) for row in text.hours]
    for heading, part in (("Focus sessions", text.focus), ("Drift episodes", text.episodes), (APPS_HEADING, text.apps)):
        if part:
            lines += ["", heading, *part]
    return lines


def focus_line(focus) -> str:
    end = "now" if focus.running else _clock(focus.end)
    state = " (running)" if focus.running else ""
    split = totals_text(focus.totals, tuple(s for s in STATES if focus.totals[s] >= 1)) or "no time"
    return (f'{_clock(focus.start)}–{end}  focus {format_duration(focus.end - focus.start)} '
            f'"{one_line(focus.commitment, 60)}"{state}: {split}')


def episode_line(episode) -> str:
    titles = ", ".join(one_line(t, 50) for t in episode.titles[-3:]) or "no titles"
    where = f' in focus "{one_line(episode.focus, 40)}"' if episode.focus else ""
    mark = " — that was work" if episode.corrected else ""
    return f"{_clock(episode.start)}–{_clock(episode.end)}  drift {format_duration(episode.end - episode.start)}{where}: {titles}{mark}"


def render_week(days: list[tuple[float, Timeline]]) -> list[str]:
    """``keeltui day --week``: a line per day, oldest first, and the week's totals."""
    lines = []
    week = dict.fromkeys(STATES, 0.0)
    for day_start, timeline in days:
        for state in STATES:
            week[state] += timeline.totals[state]
        label = time.strftime("%a %Y-%m-%d", time.localtime(day_start + 1))
        body = totals_text(timeline.totals, (TASK, DRIFT, AWAY)) if has_evidence(timeline) else "no evidence"
        lines.append(f"{label}  {body}")
    lines.append(f"week            {totals_text(week, (TASK, DRIFT, AWAY))}")
    return lines


# --------------------------------------------------------------------- for scripts


def day_json(timeline: Timeline, day_start: float) -> dict:
    """Seconds as whole numbers; times as epoch seconds."""
    def secs(totals: dict[str, float]) -> dict[str, int]:
        return {state: round(totals[state]) for state in STATES}

    return {
        "date": _date(day_start + 1),
        "start": timeline.start,
        "end": timeline.end,
        "totals": secs(timeline.totals),
        "corrections": timeline.corrections,
        "segments": [{"start": s.start, "end": s.end, "state": s.state, "secs": round(s.secs)} for s in timeline.segments],
        "focus": [{"start": f.start, "end": f.end, "commitment": f.commitment, "running": f.running, "totals": secs(f.totals)}
                  for f in timeline.focus],
        "episodes": [{"start": e.start, "end": e.end, "titles": list(e.titles), "focus": e.focus, "corrected": e.corrected}
                     for e in timeline.episodes],
        "apps": {name: round(value) for name, value in timeline.apps.items()},
    }


def day_csv_rows(timeline: Timeline, day_start: float) -> list[list[str]]:
    rows = [["date", "start", "end", "state", "secs"]]
    date = _date(day_start + 1)
    for s in timeline.segments:
        rows.append([date, time.strftime("%H:%M:%S", time.localtime(s.start)),
                     time.strftime("%H:%M:%S", time.localtime(s.end)), s.state, str(round(s.secs))])
    return rows


def week_csv_rows(days: list[tuple[float, Timeline]]) -> list[list[str]]:
    rows = [["date", *STATES]]
    for day_start, timeline in days:
        rows.append([_date(day_start + 1), *(str(round(timeline.totals[s])) for s in STATES)])
    return rows


# --------------------------------------------------------------------- the log


def render_log(records: list[dict], limit: int | None = None) -> list[str]:
    """``keeltui log --kind ambient``: one dated line per episode, away period and focus session."""
    items = spans(records)
    if limit:
        items = items[-limit:]
    return [f"{time.strftime('%Y-%m-%d', time.localtime(s.start))} {_span_line(s)}" for s in items]


def _span_line(span: Span) -> str:
    took = format_duration(span.end - span.start)
    when = f"{_clock(span.start)}–{_clock(span.end)}"
    if span.kind == "drift":
        titles = ", ".join(one_line(str(t), 60) for t in span.data.get("titles", [])[-3:]) or "no titles"
        told = "sustained" if span.data.get("sustained") else "one check"
        return f"{when}  drift {took} ({told}): {titles}"
    if span.kind == "away":
        return f"{when}  away {took}"
    commitment = one_line(str(span.data.get("commitment", "")), 80)
    drifts = int(span.data.get("drifts") or 0)
    planned = span.data.get("minutes")
    outcome = f"{drifts} drift{'s' if drifts != 1 else ''}"
    if planned:
        outcome += f", {format_duration(float(planned) * 60)} planned"
    return f'{when}  focus {took} "{commitment}" ({outcome})'
