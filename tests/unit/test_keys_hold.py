"""How long keys typed behind Ctrl+T wait for the tutor (keeltui/keys/hold.py)."""

from __future__ import annotations

import pytest

from keeltui.keys.hold import AFTER_TUTOR_SECS, AT_MOST_SECS, hold_left

T = 500.0


@pytest.mark.parametrize(("now", "tutor_since", "left"), [
    (T, None, AT_MOST_SECS),  # the tutor is not there yet: up to the outer bound
    (T + 15, None, AT_MOST_SECS - 15),  # a slow mount (a loaded machine) is waited for
    (T + 15, T + 14, AFTER_TUTOR_SECS - 1),  # it came: counted from its mount
    (T + 3, T - 100, AFTER_TUTOR_SECS - 3),  # there already: counted from the hold
    (T + AT_MOST_SECS, None, 0.0),  # it never comes: the keys go on
    (T + AT_MOST_SECS - 1, T + AT_MOST_SECS - 2, 1.0),  # never past the outer bound
])
def test_the_keys_wait_for_the_tutor_counted_from_its_mount(now, tutor_since, left):
    assert hold_left(now, held_since=T, tutor_since=tutor_since) == pytest.approx(left)
