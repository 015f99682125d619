"""Stored tutor sessions for tests: a plan accepted, quizzes answered, one waiting.

Written straight to a real store, so the app opens them without calling the model
(nothing is owed: the last row is an accepted quiz waiting for the learner).
"""

from __future__ import annotations

from keeltui.store import Store
from keeltui.tutor import transcript as tx


def big_plan(count: int = 30) -> str:
    """A plan of ``count`` steps in a chain, with branches and joins across it."""
    lines = ["graph TD"]
    lines += [f"  n{i}[Step {i} of the long plan] --> n{i + 1}[Step {i + 1} of the long plan]"
              for i in range(count - 1)]
    lines += ["  n0 --> n5", "  n2 --> n9 & n12", "  n7 --> n20", "  n15 --> n25"]
    return "\n".join(lines)


def seed_session(
    store: Store,
    topic: str,
    plan: str,
    answers: list[tuple[str, bool]],
    waiting: str | None = None,
) -> int:
    """A taught session on ``topic``: each ``(node, right)`` answered, then a quiz on ``waiting``."""
    session = store.create_conversation("tutor", topic)

    def add(message: tx.Message) -> None:
        store.add_message(session, message.role, message.content, parts=[dict(p) for p in message.parts] or None)

    add(tx.user(topic))
    add(tx.assistant("", tx.tool_call("s1", "probe_done", {"strands": ["some"], "edge": "more"})))
    add(tx.tool("s1", "probe_done", True, {"status": "probe concluded"}))
    add(tx.assistant("Here is the plan.", tx.tool_call("s2", "plan_init", {"mermaid": plan})))
    add(tx.tool("s2", "plan_init", True, {"status": "plan presented"}))
    add(tx.user("I accept the plan.", tx.plan_accepted(1)))
    for number, (node, right) in enumerate(answers):
        call_id = f"q{number}"
        add(tx.assistant("", tx.tool_call(call_id, "quiz", {
            "question": f"A question on {node}?", "choices": ["Right", "Wrong"], "correct": 0, "node_id": node})))
        add(tx.tool(call_id, "quiz", True, {"status": "shown"}))
        add(tx.user(f"I chose {1 if right else 2}.", tx.quiz_answer(call_id, 0 if right else 1, right)))
    if waiting is not None:
        add(tx.assistant("", tx.tool_call("qw", "quiz", {
            "question": f"Now: {waiting}?", "choices": ["Right", "Wrong"], "correct": 0, "node_id": waiting})))
        add(tx.tool("qw", "quiz", True, {"status": "shown"}))
    return session
