"""The plan map: position (current / visited) from tagged quiz calls only."""

from __future__ import annotations

import pytest

from keeltui.tutor.mermaid import parse_plan
from keeltui.tutor.plan_status import PlanPosition, plan_position, plan_statuses, tagged_trail
from tests.unit.tutor_script import PLAN, Script

A, B, C = "mps_translation", "net_balance", "per_meal"
PLAN_OBJ = parse_plan(PLAN)


def run(*steps: str | None) -> Script:
    """A taught session, then one answered teacher quiz per step (None = untagged)."""
    script = Script().taught()
    for node_id in steps:
        script.quiz(node_id)
    return script


@pytest.mark.parametrize(
    ("steps", "current", "visited"),
    [
        ((), None, set()),
        ((A,), A, set()),
        ((A, B), B, {A}),
        ((A, A, A), A, set()),  # consecutive repeats collapse: a never "visits" itself
        ((A, A, B, B), B, {A}),
        ((A, B, A), A, {A, B}),  # a revisit is in both; current wins on screen
        ((A, B, C, B), B, {A, B, C}),
        ((A, None, B), B, {A}),  # an untagged quiz is no position
        ((A, "not_in_plan", A), A, set()),  # unknown ids are dropped before collapsing
        (("not_in_plan",), None, set()),
    ],
)
def test_position(steps: tuple[str | None, ...], current: str | None, visited: set[str]) -> None:
    position = plan_position(PLAN_OBJ, run(*steps).messages)
    assert position == PlanPosition(current=current, visited=frozenset(visited))


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        ((), {A: "pending", B: "pending", C: "pending"}),
        ((A, B), {A: "visited", B: "current", C: "pending"}),
        ((A, B, A), {A: "current", B: "visited", C: "pending"}),
        ((A, A), {A: "current", B: "pending", C: "pending"}),
    ],
)
def test_statuses(steps: tuple[str, ...], expected: dict[str, str]) -> None:
    statuses = plan_statuses(PLAN_OBJ, run(*steps).messages)
    assert statuses == expected
    assert list(statuses) == list(PLAN_OBJ.ids)


def test_refused_quiz_calls_do_not_move_the_map() -> None:
    script = run(A)
    script.quiz(B, ok=False)
    assert plan_position(PLAN_OBJ, script.messages) == PlanPosition(A, frozenset())


def test_a_quiz_without_a_result_does_not_move_the_map() -> None:
    script = run(A)
    script.call("quiz", {"question": "Q", "choices": ["x", "y"], "correct": 0, "node_id": B}, ok=None)
    assert plan_position(PLAN_OBJ, script.messages).current == A


def test_answers_and_grades_feed_nothing() -> None:
    # A wrong answer on B still puts the learner at B; an unanswered quiz too.
    script = run(A)
    script.quiz(B, answer=False)
    assert plan_position(PLAN_OBJ, script.messages) == PlanPosition(B, frozenset({A}))


def test_statuses_survive_a_rewrite_by_slug() -> None:
    script = run(A, B)
    rewritten = parse_plan("net_balance[Net balance, again] --> timing[Timing] --> per_meal[Per meal]")
    assert plan_statuses(rewritten, script.messages) == {
        B: "current",
        "timing": "pending",
        C: "pending",
    }
    # A, no longer in the plan, is ignored rather than reported.
    assert tagged_trail(rewritten, script.messages) == [B]


def test_non_string_node_ids_are_ignored() -> None:
    script = Script().taught()
    script.call("quiz", {"question": "Q", "choices": ["x", "y"], "correct": 0, "node_id": 7})
    assert plan_position(PLAN_OBJ, script.messages) == PlanPosition(None, frozenset())
