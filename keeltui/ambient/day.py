"""Your day: time on task, drifting and away per hour, from the stored records.

Pure: takes the day's event records (``ambient_episode``, ``ambient_away``,
``focus_session``, as dicts with ``data``) and returns text. ``keeltui day`` and the
app's day view (F3) print the same lines.

"On task" is time inside a focus session that no drift or away period overlaps; time outside
every record is simply not counted (the sentinel only knows what it judged).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from keeltui.durations import format_duration
from keeltui.textsafe import one_line

EPISODE_KIND = "ambient_episode"
AWAY_KIND = "ambient_away"
FOCUS_KIND = "focus_session"
DAY_KINDS = (EPISODE_KIND, AWAY_KIND, FOCUS_KIND)

# One cell per hour: the share of the hour spent drifting / away / on task.
BAR_WIDTH = 12


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


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def _merged(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The union of the intervals, as disjoint intervals, oldest first."""
    out: list[tuple[float, float]] = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _minus(keep: list[tuple[float, float]], cut: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """``keep`` with every moment in ``cut`` taken out (both disjoint and sorted)."""
    out = []
    for start, end in keep:
        for c0, c1 in cut:
            if c1 <= start or c0 >= end:
                continue
            if c0 > start:
                out.append((start, c0))
            start = max(start, c1)
        if end > start:
            out.append((start, end))
    return out


def hour_totals(items: list[Span], day_start: float) -> list[dict[str, float]]:
    """Per hour of the day: seconds drifting, away and on task.

    On task is the focus time that no drift or away period overlaps, taken as
    intervals: a drift just after a focus session takes nothing off it.
    """
    def of(*kinds: str) -> list[tuple[float, float]]:
        return _merged([(s.start, s.end) for s in items if s.kind in kinds])

    on_task = _minus(of("focus"), of("drift", "away"))
    hours = []
    for hour in range(24):
        h0 = day_start + hour * 3600
        h1 = h0 + 3600
        drift = sum(_overlap(s.start, s.end, h0, h1) for s in items if s.kind == "drift")
        away = sum(_overlap(s.start, s.end, h0, h1) for s in items if s.kind == "away")
        task = sum(_overlap(start, end, h0, h1) for start, end in on_task)
        hours.append({"task": task, "drift": min(drift, 3600), "away": min(away, 3600)})
    return hours


def _bar(hour: dict[str, float]) -> str:
    """``#`` on task, ``~`` drifting, ``.`` away, space unknown: BAR_WIDTH cells per hour."""
    cells = {k: round(v / 3600 * BAR_WIDTH) for k, v in hour.items()}
    out = "#" * cells["task"] + "~" * cells["drift"] + "." * cells["away"]
    return out[:BAR_WIDTH].ljust(BAR_WIDTH)


def _clock(at: float) -> str:
    return time.strftime("%H:%M", time.localtime(at))


def render_day(records: list[dict], day_start: float) -> list[str]:
    """The day as lines of plain text (see the module docstring)."""
    items = [s for s in spans(records) if _overlap(s.start, s.end, day_start, day_start + 86400)]
    date = time.strftime("%Y-%m-%d", time.localtime(day_start + 1))
    if not items:
        return [f"{date}: nothing recorded (no drift episodes, focus sessions or away periods)."]
    hours = hour_totals(items, day_start)
    total = {k: sum(h[k] for h in hours) for k in ("task", "drift", "away")}
    lines = [
        f"{date} · on task {format_duration(total['task'])} · drifting {format_duration(total['drift'])}"
        f" · away {format_duration(total['away'])}",
        "",
        f"hour  {'#' + ' on task  ~ drifting  . away':<{BAR_WIDTH}}",
    ]
    used = [i for i, h in enumerate(hours) if any(h.values())]
    for hour in range(min(used), max(used) + 1):
        lines.append(f"{hour:02d}    |{_bar(hours[hour])}|")
    lines.append("")
    lines.extend(_span_line(span) for span in items)
    return lines


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
