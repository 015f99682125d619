"""Where the learner stands on the plan: position, not completion.

The only signal is the teacher's quiz calls tagged with a ``node_id`` (and accepted,
i.e. with an ok tool result). Answers and grades feed nothing here: a right answer
does not "finish" a node and a wrong one does not "fail" it — the map shows where the
lesson is and where it has been.

- ``current``: the node of the latest tagged quiz;
- ``visited``: the distinct nodes of earlier tagged quizzes, after collapsing
  consecutive repeats (so quizzing ``a`` twice in a row does not visit ``a``);
- a node quizzed, left and returned to is in both; ``current`` wins on screen.

Statuses are keyed by slug, so a wholesale plan rewrite keeps the status of every node
whose id survives; ids that are not in the plan are ignored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .mermaid import Plan
from .phases import ok_tool_calls
from .transcript import QUIZ, MessageLike, arguments_of

Status = Literal["current", "visited", "pending"]


@dataclass(frozen=True)
class PlanPosition:
    """The learner's position: the current node (if any) and the visited set.

    ``visited`` may contain ``current`` when the lesson returned to a node.
    """

    current: str | None
    visited: frozenset[str]


def tagged_trail(plan: Plan, messages: Sequence[MessageLike]) -> list[str]:
    """Node ids of accepted tagged quizzes, in order, repeats collapsed, unknown ids dropped."""
    known = set(plan.ids)
    trail: list[str] = []
    for _, call in ok_tool_calls(messages, QUIZ):
        node_id = arguments_of(call).get("node_id")
        # Unknown ids are dropped before collapsing: they are not places on this plan.
        if isinstance(node_id, str) and node_id in known and (not trail or trail[-1] != node_id):
            trail.append(node_id)
    return trail


def plan_position(plan: Plan, messages: Sequence[MessageLike]) -> PlanPosition:
    """The learner's :class:`PlanPosition` on ``plan``."""
    trail = tagged_trail(plan, messages)
    if not trail:
        return PlanPosition(current=None, visited=frozenset())
    return PlanPosition(current=trail[-1], visited=frozenset(trail[:-1]))


def plan_statuses(plan: Plan, messages: Sequence[MessageLike]) -> dict[str, Status]:
    """Each node id of ``plan``, in plan order → ``current``, ``visited`` or ``pending``."""
    position = plan_position(plan, messages)
    statuses: dict[str, Status] = {}
    for node_id in plan.ids:
        if node_id == position.current:
            statuses[node_id] = "current"
        elif node_id in position.visited:
            statuses[node_id] = "visited"
        else:
            statuses[node_id] = "pending"
    return statuses
