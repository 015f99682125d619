"""When the ambient controller looks at the clock again (keeltui/ambient/wake.py): only
while something changes with time alone, never in a loop, and a snooze's end at most a
step late however far the wall clock jumps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keeltui.ambient.wake import FOCUS_STEP_SECS, SNOOZE_STEP_SECS, SOONEST_SECS, next_look

NOW = 1_000_000.0


@pytest.mark.parametrize(("focus", "snooze_until", "expected"), [
    (False, None, None),  # nothing runs on time: only an event wakes the controller
    (False, NOW - 5, None),  # a snooze already over (its end was shown)
    (True, None, FOCUS_STEP_SECS),  # a focus session: its time left, each second
    (False, NOW + 3600, SNOOZE_STEP_SECS),  # an hour's snooze: looked at every step
    (False, NOW + 4, 4.0),  # its end, on time
    (False, NOW + 0.2, SOONEST_SECS),  # never sooner than the floor
    (True, NOW + 4, FOCUS_STEP_SECS),  # the sooner of the two
])
def test_the_next_look(focus, snooze_until, expected):
    assert next_look(NOW, focus_running=focus, snooze_until=snooze_until) == expected


@given(st.booleans(), st.one_of(st.none(), st.floats(-1e6, 1e6)))
def test_a_look_is_never_a_loop_nor_later_than_a_step(focus, offset):
    until = None if offset is None else NOW + offset
    wait = next_look(NOW, focus_running=focus, snooze_until=until)
    if wait is None:
        assert not focus and (until is None or until <= NOW)
    else:
        assert SOONEST_SECS <= wait <= max(FOCUS_STEP_SECS, SNOOZE_STEP_SECS)
