"""On-task time inside a focus session (the day's focus layer): the session minus the
drift and away that overlap it, measured on the one timeline (keeltui.ambient.timeline)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keeltui.ambient.timeline import AWAY_KIND, EPISODE_KIND, FOCUS_KIND, TASK, TICK_KIND, build_timeline

DAY = 1_000_000.0 - 1_000_000.0 % 86400  # any midnight-aligned start; the maths is local to it
NINE = DAY + 9 * 3600


def at(minutes: float) -> float:
    return NINE + minutes * 60


def record(kind: str, start: float, end: float) -> dict:
    return {"kind": kind, "data": {"start": start, "end": end}}


# keeltui watched from 08:00 to 20:00: every second of it has evidence.
WATCHED = [{"kind": TICK_KIND, "data": {"at": at(-60), "span": 12 * 3600, "class": "xterm"}}]


def focus_on_task_minutes(records: list[dict]) -> float:
    day = build_timeline(WATCHED + records, DAY, DAY + 86400)
    return sum(f.totals[TASK] for f in day.focus) / 60


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
    assert focus_on_task_minutes([FOCUS, other]) == pytest.approx(expected)


def test_drift_and_away_over_the_same_minutes_are_taken_off_once():
    both = [FOCUS, record(EPISODE_KIND, at(5), at(15)), record(AWAY_KIND, at(10), at(20))]
    assert focus_on_task_minutes(both) == pytest.approx(15)


interval = st.tuples(st.integers(0, 600), st.integers(1, 240)).map(lambda p: (at(p[0]), at(p[0] + p[1])))


@given(
    focus=st.lists(interval, min_size=1, max_size=4),
    drift=st.lists(interval, max_size=4),
    away=st.lists(interval, max_size=4),
)
def test_on_task_in_focus_never_exceeds_focus_and_is_never_negative(focus, drift, away):
    records = ([record(FOCUS_KIND, a, b) for a, b in focus] + [record(EPISODE_KIND, a, b) for a, b in drift]
               + [record(AWAY_KIND, a, b) for a, b in away])
    on_task = focus_on_task_minutes(records)
    focus_only = focus_on_task_minutes([record(FOCUS_KIND, a, b) for a, b in focus])
    assert 0 <= on_task <= focus_only + 1e-9
