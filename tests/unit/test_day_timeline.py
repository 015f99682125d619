"""One timeline of the day: every second exactly one state, totals adding up to the time
covered, checked to the second against hand-computed days (keeltui.ambient.timeline)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keeltui.ambient.timeline import (
    AWAY, AWAY_KIND, CORRECTION_KIND, DRIFT, EPISODE_KIND, FOCUS_KIND, STATES, TASK, TICK_KIND, UNKNOWN,
    Live, build_timeline, cell_state, state_at,
)
from keeltui.text.durations import format_duration
from keeltui.ambient.focus import FocusSession, focus_report_text

DAY = 1_000_000.0 - 1_000_000.0 % 86400
NINE = DAY + 9 * 3600


def at(minutes: float, seconds: float = 0) -> float:
    return NINE + minutes * 60 + seconds


def rec(kind: str, **data) -> dict:
    return {"kind": kind, "data": data}


def ticks(start: float, end: float, wm_class: str, every: float = 60, span: float = 90) -> list[dict]:
    out, t = [], start
    while t < end:
        out.append(rec(TICK_KIND, at=t, span=span, **{"class": wm_class}))
        t += every
    return out


def hand_day() -> tuple[list[dict], Live]:
    """09:00 the app starts; a minute's ticks; the evidence runs live from 10:00 to now (10:05)."""
    records = (ticks(at(0), at(20), "xterm") + ticks(at(20), at(40), "firefox") + ticks(at(40), at(60), "xterm")
               + [
                   rec(AWAY_KIND, start=at(-10), end=at(5)),  # began before the app did: 300 s count
                   rec(FOCUS_KIND, start=at(10), end=at(30), commitment="write the report"),
                   rec(EPISODE_KIND, start=at(20), end=at(22, 37), titles=["YouTube"], focus="write the report"),
                   rec(EPISODE_KIND, start=at(40), end=at(50), titles=["news"]),
                   rec(AWAY_KIND, start=at(45), end=at(47)),  # inside that drift: counted once, as away
               ])
    live = Live(now=at(65), evidence_since=at(60), window_class="xterm", focus_since=at(55), focus_commitment="tidy")
    return records, live


def test_a_hand_computed_day_to_the_second():
    records, live = hand_day()
    day = build_timeline(records, NINE, DAY + 86400, live)
    assert day.end == at(65)
    # 65 minutes: away 300 + 120; drift 157 in focus + 600 - 120 outside; the rest on task.
    assert day.totals == {TASK: 2843, DRIFT: 637, AWAY: 420, UNKNOWN: 0}
    assert sum(day.totals.values()) == day.end - day.start
    first, running = day.focus
    assert (first.totals[TASK], first.totals[DRIFT], first.running) == (1043, 157, False)  # drift inside focus
    assert (running.totals[TASK], running.end, running.running) == (600, at(65), True)  # counted live
    assert day.apps == {"xterm": 900 + 1080 + 300, "firefox": 1200}
    whole = build_timeline(records, DAY, DAY + 86400, live)
    assert whole.totals[UNKNOWN] == 9 * 3600  # before the app started: no evidence, not away
    assert state_at(whole, at(-5)) == UNKNOWN and state_at(whole, at(2)) == AWAY


def test_work_outside_focus_counts_as_on_task():
    day = build_timeline(ticks(at(0), at(30), "xterm"), DAY, DAY + 86400, Live(now=at(30)))
    assert day.totals[TASK] == 30 * 60 and not day.focus


def test_a_gap_in_the_ticks_is_no_evidence_and_an_end_tick_closes_coverage():
    records = [*ticks(at(0), at(2), "xterm"), rec(TICK_KIND, at=at(2), end=True), *ticks(at(10), at(11), "xterm")]
    day = build_timeline(records, NINE, at(12))
    # 0–2 covered; the tick at 10:00 covers 90 s past it, as its span says (then 11:00's does).
    assert day.totals[TASK] == 120 + 90 and day.totals[UNKNOWN] == 12 * 60 - 210


def test_a_corrected_episode_counts_as_work():
    records = [*ticks(at(0), at(10), "firefox"), rec(EPISODE_KIND, start=at(2), end=at(5), titles=["docs"]),
               rec(CORRECTION_KIND, start=at(2))]
    day = build_timeline(records, NINE, at(10))
    assert day.totals[DRIFT] == 0 and day.totals[TASK] == 600 and day.corrections == 1
    assert day.episodes[0].corrected


def test_a_75_second_drift_shows_in_its_five_minute_cell():
    records = [*ticks(at(0), at(10), "firefox"), rec(EPISODE_KIND, start=at(1), end=at(2, 15))]
    day = build_timeline(records, NINE, at(10))
    assert cell_state(day, at(0), at(5)) == DRIFT and cell_state(day, at(5), at(10)) == TASK


def test_one_formatter_for_a_227_second_session():
    report = focus_report_text(FocusSession("x", NINE), NINE + 227)
    assert format_duration(227) == "3m47s" and "— 3m47s," in report


# ---------------------------------------------------------------- properties

moment = st.integers(0, 3 * 3600)
span = st.tuples(moment, st.integers(1, 1800)).map(lambda p: (NINE + p[0], NINE + p[0] + p[1]))


@settings(max_examples=150, deadline=None)
@given(
    tick_times=st.lists(moment, max_size=30),
    drift=st.lists(span, max_size=4),
    away=st.lists(span, max_size=4),
    focus=st.lists(span, max_size=3),
    now=st.integers(0, 4 * 3600),
    live_away=st.one_of(st.none(), moment),
)
def test_every_second_is_exactly_one_state_and_totals_add_up(tick_times, drift, away, focus, now, live_away):
    records = [rec(TICK_KIND, at=NINE + t, span=90, **{"class": "c"}) for t in tick_times]
    records += [rec(EPISODE_KIND, start=a, end=b) for a, b in drift]
    records += [rec(AWAY_KIND, start=a, end=b) for a, b in away]
    records += [rec(FOCUS_KIND, start=a, end=b, commitment="x") for a, b in focus]
    live = Live(now=NINE + now, away_since=None if live_away is None else NINE + live_away)
    day = build_timeline(records, NINE, NINE + 5 * 3600, live)
    assert sum(day.totals.values()) == pytest.approx(day.end - day.start)
    # The segments tile the range: contiguous, no overlap, one state each.
    position = day.start
    for segment in day.segments:
        assert segment.start == position and segment.end > segment.start and segment.state in STATES
        position = segment.end
    assert position == day.end or (not day.segments and day.end == day.start)
    for f in day.focus:
        assert sum(f.totals.values()) == pytest.approx(min(f.end, day.end) - max(f.start, day.start))
    # A drift with no tick under it names no window: the apps hold at most the time present.
    assert sum(day.apps.values()) <= day.totals[TASK] + day.totals[DRIFT] + 1e-6


def test_a_timed_session_past_its_end_counts_to_its_planned_end_not_to_now():
    live = Live(now=at(40), focus_since=at(0), focus_until=at(25), focus_commitment="x")
    (session,) = build_timeline(ticks(at(0), at(40), "xterm"), NINE, at(40), live).focus
    assert (session.end, session.running, session.totals[TASK]) == (at(25), False, 25 * 60)
