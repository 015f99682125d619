"""One timeline of the day, derived from the stored evidence and judgements. Pure.

Every second of the range is exactly one state:

* ``unknown`` — no evidence: the app was not running, or it had no evidence source;
* ``away``    — an away period (no keyboard or mouse), inside covered time;
* ``drift``   — a drift episode the owner did not correct ("that was work"), in or out
  of a focus session;
* ``task``    — covered by evidence and neither away nor drifting.

Evidence is the ``ambient_tick`` records the app writes while its evidence source
answers: each covers from its ``at`` until the next tick, at most ``span`` seconds
(a tick with ``end`` closes the coverage when the app stops). A drift episode is
evidence too (it was judged from windows). An away period is not: it starts at the
last input, which may be before the app started; only its covered part counts.
Priority where spans overlap: away > drift > task, so nothing counts twice.

Focus sessions are a layer on top (listed with their own on-task / drift split);
the running session, the open episode, the current away period and the evidence
since the last tick are passed in as :class:`Live` and count up to ``now``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import itertools

TICK_KIND = "ambient_tick"
EPISODE_KIND = "ambient_episode"
AWAY_KIND = "ambient_away"
FOCUS_KIND = "focus_session"
CORRECTION_KIND = "ambient_correction"
TIMELINE_KINDS = (TICK_KIND, EPISODE_KIND, AWAY_KIND, FOCUS_KIND, CORRECTION_KIND)

TASK, DRIFT, AWAY, UNKNOWN = "task", "drift", "away", "unknown"
STATES = (TASK, DRIFT, AWAY, UNKNOWN)
PRIVATE_CLASS = "(private)"

Interval = tuple[float, float]


@dataclass(frozen=True)
class Segment:
    """``[start, end)`` in one state."""

    start: float
    end: float
    state: str

    @property
    def secs(self) -> float:
        return self.end - self.start


@dataclass(frozen=True)
class Episode:
    """A drift episode as the day shows it (``corrected`` when the owner said it was work)."""

    start: float
    end: float
    titles: tuple[str, ...]
    message: str
    focus: str  # the commitment it broke, "" outside a focus session
    corrected: bool


@dataclass(frozen=True)
class Focus:
    """A focus session and how its time split (``running`` until it is stopped)."""

    start: float
    end: float
    commitment: str
    running: bool
    totals: dict[str, float]


@dataclass(frozen=True)
class Live:
    """What the running app knows that is not stored yet; all times up to ``now``."""

    now: float
    evidence_since: float | None = None  # the evidence source answers, since the last tick or start
    window_class: str = ""
    drift_since: float | None = None  # the open drift episode
    drift_titles: tuple[str, ...] = ()
    drift_focus: str = ""
    away_since: float | None = None
    focus_since: float | None = None  # the running focus session
    focus_until: float | None = None  # its planned end, for a timed one
    focus_commitment: str = ""


@dataclass(frozen=True)
class Timeline:
    start: float
    end: float
    segments: list[Segment]
    totals: dict[str, float]
    episodes: list[Episode]
    focus: list[Focus]
    apps: dict[str, float] = field(default_factory=dict)  # seconds in front per window class, away excluded
    corrections: int = 0


# --------------------------------------------------------------------- interval maths


def _merged(intervals: list[Interval]) -> list[Interval]:
    out: list[Interval] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _overlap(a: Interval, b: Interval) -> float:
    return max(0.0, min(a[1], b[1]) - max(a[0], b[0]))


def _inside(intervals: list[Interval], point: float) -> bool:
    return any(start <= point < end for start, end in intervals)


def _num(data: dict, key: str) -> float | None:
    try:
        value = float(data[key])
    except (KeyError, TypeError, ValueError):
        return None
    return value if value == value and abs(value) != float("inf") else None  # NaN and inf are no time


# --------------------------------------------------------------------- reading the records


def _coverage(records: list[dict], live: Live | None) -> tuple[list[Interval], list[tuple[Interval, str]]]:
    """Covered intervals, and the same cut per window class (for the per-app totals)."""
    ticks = []
    for record in records:
        data = record.get("data")
        if record.get("kind") != TICK_KIND or not isinstance(data, dict):
            continue
        at = _num(data, "at")
        if at is None:
            continue
        span = 0.0 if data.get("end") else max(0.0, _num(data, "span") or 0.0)
        ticks.append((at, span, str(data.get("class") or PRIVATE_CLASS)))
    ticks.sort(key=lambda t: t[0])
    classed: list[tuple[Interval, str]] = []
    live_from = live.evidence_since if live is not None and live.evidence_since is not None else None
    for i, (at, span, wm_class) in enumerate(ticks):
        end = at + span
        if i + 1 < len(ticks):
            end = min(end, ticks[i + 1][0])
        if live_from is not None:
            end = min(end, live_from)  # the live part owns the time since the last tick
        if end > at:
            classed.append(((at, end), wm_class))
    if live is not None and live_from is not None and live.now > live_from:
        classed.append(((live_from, live.now), live.window_class or PRIVATE_CLASS))
    return _merged([c[0] for c in classed]), classed


def _corrected_starts(records: list[dict]) -> set[float]:
    starts = set()
    for record in records:
        data = record.get("data")
        if record.get("kind") == CORRECTION_KIND and isinstance(data, dict) and (at := _num(data, "start")) is not None:
            starts.add(round(at, 3))
    return starts


def _episodes(records: list[dict], live: Live | None, corrected: set[float]) -> list[Episode]:
    out = []
    for record in records:
        data = record.get("data")
        if record.get("kind") != EPISODE_KIND or not isinstance(data, dict):
            continue
        start, end = _num(data, "start"), _num(data, "end")
        if start is None or end is None or end <= start:
            continue
        raw = data.get("titles")
        titles: list = raw if isinstance(raw, list) else []
        out.append(Episode(start, end, tuple(str(t) for t in titles), str(data.get("message") or ""),
                           str(data.get("focus") or ""), round(start, 3) in corrected))
    if live is not None and live.drift_since is not None and live.now > live.drift_since:
        out.append(Episode(live.drift_since, live.now, live.drift_titles, "", live.drift_focus,
                           round(live.drift_since, 3) in corrected))
    return sorted(out, key=lambda e: e.start)


def _spans(records: list[dict], kind: str) -> list[tuple[float, float, dict]]:
    out = []
    for record in records:
        data = record.get("data")
        if record.get("kind") != kind or not isinstance(data, dict):
            continue
        start, end = _num(data, "start"), _num(data, "end")
        if start is not None and end is not None and end > start:
            out.append((start, end, data))
    return sorted(out, key=lambda s: s[0])


# --------------------------------------------------------------------- the timeline


def _segments(start: float, end: float, covered: list[Interval], away: list[Interval],
              drift: list[Interval]) -> list[Segment]:
    """Cut [start, end) at every boundary; each piece takes the first state that holds."""
    cuts = {start, end}
    for intervals in (covered, away, drift):
        for a, b in intervals:
            cuts.update(p for p in (a, b) if start < p < end)
    points = sorted(cuts)
    out: list[Segment] = []
    for a, b in itertools.pairwise(points):
        mid = (a + b) / 2
        if not _inside(covered, mid):
            state = UNKNOWN
        elif _inside(away, mid):
            state = AWAY
        elif _inside(drift, mid):
            state = DRIFT
        else:
            state = TASK
        if out and out[-1].state == state:
            out[-1] = Segment(out[-1].start, b, state)
        else:
            out.append(Segment(a, b, state))
    return out


def totals_in(segments: list[Segment], start: float, end: float) -> dict[str, float]:
    """Seconds per state inside ``[start, end)``."""
    totals = dict.fromkeys(STATES, 0.0)
    for segment in segments:
        totals[segment.state] += _overlap((segment.start, segment.end), (start, end))
    return totals


def build_timeline(records: list[dict], start: float, end: float, live: Live | None = None) -> Timeline:
    """The day between ``start`` and ``end`` (cut at ``live.now`` when it is earlier)."""
    if live is not None:
        end = max(start, min(end, live.now))
    corrected = _corrected_starts(records)
    episodes = _episodes(records, live, corrected)
    covered, classed = _coverage(records, live)
    # A drift was judged from windows: it is evidence even where a tick was lost.
    covered = _merged(covered + [(e.start, e.end) for e in episodes])
    away = [(a, b) for a, b, _ in _spans(records, AWAY_KIND)]
    if live is not None and live.away_since is not None:
        away.append((live.away_since, live.now))
    drift = _merged([(e.start, e.end) for e in episodes if not e.corrected])
    segments = _segments(start, end, covered, _merged(away), drift)
    focus = [Focus(a, b, str(data.get("commitment") or ""), False, totals_in(segments, a, b))
             for a, b, data in _spans(records, FOCUS_KIND)]
    if live is not None and live.focus_since is not None and live.now > live.focus_since:
        until = live.now if live.focus_until is None else max(live.focus_since, min(live.now, live.focus_until))
        focus.append(Focus(live.focus_since, until, live.focus_commitment, until == live.now,
                           totals_in(segments, live.focus_since, until)))
    day = (start, end)
    apps: dict[str, float] = {}
    present = [s for s in segments if s.state in (TASK, DRIFT)]
    for interval, wm_class in classed:
        secs = sum(_overlap(interval, (s.start, s.end)) for s in present if _overlap((s.start, s.end), day))
        if secs > 0:
            apps[wm_class] = apps.get(wm_class, 0.0) + secs
    return Timeline(
        start, end, segments, totals_in(segments, start, end),
        [e for e in episodes if _overlap((e.start, e.end), day)],
        [f for f in focus if _overlap((f.start, f.end), day)],
        dict(sorted(apps.items(), key=lambda kv: -kv[1])),
        sum(1 for e in episodes if e.corrected and _overlap((e.start, e.end), day)),
    )


def state_at(timeline: Timeline, at: float) -> str:
    for segment in timeline.segments:
        if segment.start <= at < segment.end:
            return segment.state
    return UNKNOWN


# --------------------------------------------------------------------- cells


CELL_SECS = 300  # one cell of the day's strip: five minutes


def cell_state(timeline: Timeline, start: float, end: float) -> str:
    """What one cell shows: drift if any second of it drifted (a 75 s drift must not
    vanish in a five-minute cell), else the state that held longest in it."""
    totals = totals_in(timeline.segments, start, end)
    if totals[DRIFT] > 0:
        return DRIFT
    return max((TASK, AWAY, UNKNOWN), key=lambda state: totals[state])
