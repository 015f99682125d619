"""A scripted tutor session, shared by the snapshot tests and the README screenshots."""

from __future__ import annotations

from keeltui.tutor import session as ts
from keeltui.tutor import transcript as tx

PLAN = """graph TD
  basics[Why protein matters] --> leucine[Leucine threshold] --> per_meal[Protein per meal]
  per_meal --> timing[Timing around training]
"""


def verdict_session() -> list[tx.Message]:
    """A probe, a concluded assessment and a presented plan: the session awaits the verdict."""
    quiz = tx.tool_call("c1", "quiz", {"question": "Which amino acid drives MPS most?",
                                       "choices": ["Glycine", "Leucine", "Proline"], "correct": 1})
    return [
        tx.assistant("Let us see where you are.", quiz),
        tx.tool("c1", "quiz", True, {"status": "shown"}),
        ts.quiz_pick(quiz, 0),
        tx.assistant("", tx.tool_call("c2", "probe_done", {
            "strands": ["knows protein builds muscle"], "edge": "has not met the per-meal threshold"})),
        tx.tool("c2", "probe_done", True, {"status": "probe concluded"}),
        tx.assistant("Four steps, from why protein matters to timing.",
                     tx.tool_call("c3", "plan_init", {"mermaid": PLAN})),
        tx.tool("c3", "plan_init", True, {"status": "plan presented"}),
    ]
