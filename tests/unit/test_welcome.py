"""When the room still shows its welcome (keeltui/chief/welcome.py), table-driven."""

from __future__ import annotations

import pytest

from keeltui.chief.turn_kinds import COOP, NOTICE, SUMMARY, TASK
from keeltui.chief.welcome import BEGIN, INTRO, MODEL_HINT, TITLE, WELCOME, welcome_lines, welcome_state, welcome_stays


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


@pytest.mark.parametrize(("kinds", "whole", "state"), [
    ((NOTICE,), True, True),
    ((NOTICE,), False, False),   # older rows unread: one of them may be a turn
    ((NOTICE, None), True, None),  # a turn: gone for good
    ((NOTICE, None), False, None),
    ((), True, True),
])
def test_the_welcome_shows_under_system_lines_only_when_they_are_the_whole_room(kinds, whole, state):
    assert welcome_state(iter(kinds), whole_room=whole) is state


def test_each_welcome_line_fits_76_columns_both_ways():
    for under_rows in (False, True):
        assert all(len(text) <= 76 for text, _ in welcome_lines(under_rows=under_rows))


def test_under_system_lines_the_welcome_leaves_out_the_model_hint_and_keeps_the_rest():
    alone, under = welcome_lines(), welcome_lines(under_rows=True)
    assert [text for text, _ in alone] == [TITLE, *WELCOME]
    assert [text for text, _ in under] == [TITLE, *INTRO, BEGIN]
    assert not any(hint in text for hint in MODEL_HINT if hint for text, _ in under)
    assert [title for _, title in under] == [True] + [False] * (len(under) - 1)
