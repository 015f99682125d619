"""When the room still shows its welcome (keeltui/chief/welcome.py), table-driven."""

from __future__ import annotations

import pytest

from keeltui.chief.turn_kinds import COOP, NOTICE, SUMMARY, TASK
from keeltui.chief.welcome import welcome_shows, welcome_stays


@pytest.mark.parametrize(("kinds", "stays"), [
    ((), True),                     # an empty room
    ((NOTICE,), True),              # the brain is offline, said before anything else
    ((NOTICE, TASK, COOP), True),   # reports landed before the owner wrote
    ((None,), False),               # the owner's first message
    ((NOTICE, None), False),        # ... after the notice
    ((None, None, SUMMARY), False),
])
def test_the_welcome_stays_until_a_conversation_turn(kinds, stays):
    assert welcome_stays(kinds) is stays


@pytest.mark.parametrize(("kinds", "whole", "shows"), [
    ((NOTICE,), True, True),
    ((NOTICE,), False, False),   # older rows unread: one of them may be a turn
    ((NOTICE, None), True, False),
    ((), True, True),
])
def test_the_welcome_shows_under_system_lines_only_when_they_are_the_whole_room(kinds, whole, shows):
    assert welcome_shows(kinds, whole_room=whole) is shows
