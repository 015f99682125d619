"""When the room still shows its welcome (keeltui/chief/welcome.py), table-driven."""

from __future__ import annotations

import pytest

from keeltui.chief.turn_kinds import COOP, NOTICE, SUMMARY, TASK
from keeltui.chief.welcome import welcome_stays


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
