"""The bench's scripted day (bench/sentinel_day.py) holds its targets, including the
away periods: zero judge calls while the owner is away from the keyboard."""

from __future__ import annotations

from bench.sentinel_day import replay


def test_the_scripted_day_makes_no_judge_call_while_away():
    tally = replay()
    assert tally.away_ticks >= 10  # lunch and the editor stretch, past the 300 s threshold
    assert tally.away_calls == 0
    assert sum(tally.steady_calls.values()) == 0
    assert tally.toasts == tally.sustained_drifts
