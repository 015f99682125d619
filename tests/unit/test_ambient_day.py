"""On-task time in the day view: focus minus the drift and away that overlap it,
measured as intervals (not as hourly totals, which count drift beside focus)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keeltui.ambient.day import AWAY_KIND, EPISODE_KIND, FOCUS_KIND, hour_totals, spans

DAY = 1_000_000.0 - 1_000_000.0 % 86400  # any midnight-aligned start; the maths is local to it
NINE = DAY + 9 * 3600


def at(minutes: float) -> float:
    return NINE + minutes * 60


def record(kind: str, start: float, end: float) -> dict:
    return {"kind": kind, "data": {"start": start, "end": end}}


def on_task_minutes(records: list[dict]) -> float:
    return sum(h["task"] for h in hour_totals(spans(records), DAY)) / 60


FOCUS = record(FOCUS_KIND, at(0), at(30))  # 09:00–09:30


@pytest.mark.parametrize(("other", "expected"), [
    (record(EPISODE_KIND, at(30), at(50)), 30),  # drift beside focus: none of it is taken off
    (record(EPISODE_KIND, at(10), at(15)), 25),  # drift inside focus
    (record(EPISODE_KIND, at(20), at(40)), 20),  # drift straddling the end of focus
    (record(EPISODE_KIND, at(-10), at(5)), 25),  # drift straddling the start
    (record(AWAY_KIND, at(5), at(15)), 20),      # away inside focus
    (record(AWAY_KIND, at(-60), at(-10)), 30),   # away an hour before, in another hour
], ids=["drift-beside", "drift-inside", "drift-straddles-end", "drift-straddles-start", "away-inside", "away-before"])
def test_on_task_is_focus_minus_what_overlaps_it(other, expected):
    assert on_task_minutes([FOCUS, other]) == pytest.approx(expected)


def test_drift_and_away_over_the_same_minutes_are_taken_off_once():
    both = [FOCUS, record(EPISODE_KIND, at(5), at(15)), record(AWAY_KIND, at(10), at(20))]
    assert on_task_minutes(both) == pytest.approx(15)


def test_a_focus_across_the_hour_is_split_by_the_hour():
    hours = hour_totals(spans([record(FOCUS_KIND, at(50), at(70)), record(EPISODE_KIND, at(55), at(65))]), DAY)
    assert hours[9]["task"] == pytest.approx(5 * 60) and hours[10]["task"] == pytest.approx(5 * 60)


interval = st.tuples(st.integers(0, 600), st.integers(1, 240)).map(lambda p: (at(p[0]), at(p[0] + p[1])))


@given(
    focus=st.lists(interval, min_size=1, max_size=4),
    drift=st.lists(interval, max_size=4),
    away=st.lists(interval, max_size=4),
)
def test_on_task_never_exceeds_focus_and_is_never_negative(focus, drift, away):
    records = ([record(FOCUS_KIND, a, b) for a, b in focus] + [record(EPISODE_KIND, a, b) for a, b in drift]
               + [record(AWAY_KIND, a, b) for a, b in away])
    for hour in hour_totals(spans(records), DAY):
        assert hour["task"] >= 0
    on_task = on_task_minutes(records)
    focus_only = on_task_minutes([record(FOCUS_KIND, a, b) for a, b in focus])
    assert 0 <= on_task <= focus_only + 1e-9
