"""The learner's mistakes: every quiz answered wrong, answered "I don't know", or skipped. Pure.

A mistake is kept with the right answer, so F4 can show what to learn again; whether
its step is still due is mastery's business (:mod:`keeltui.tutor.mastery`). A quiz is
*skipped* when the agent moved on to another question before it was answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .session import QuizItem, session_items
from .transcript import DONT_KNOW, MessageLike

WRONG = "wrong"
DONT_KNOW_KIND = "dont_know"
SKIPPED = "skipped"


@dataclass(frozen=True)
class Mistake:
    call_id: str
    question: str
    kind: str
    """``wrong``, ``dont_know`` or ``skipped``."""
    picked: str
    """The option the learner chose ('' unless wrong)."""
    right: str
    """The right option ('' when the quiz named none that exists)."""
    step: str
    """The plan step's title ('' for the prober's placement quiz)."""


def mistakes(messages: Sequence[MessageLike]) -> list[Mistake]:
    """The session's mistakes, oldest first."""
    found: list[Mistake] = []
    for item in session_items(messages):
        if not isinstance(item, QuizItem) or item.graded is True:
            continue
        if item.answer is None:
            if item.active:
                continue  # still open: not a mistake yet
            kind, picked = SKIPPED, ""
        elif item.answer == DONT_KNOW:
            kind, picked = DONT_KNOW_KIND, ""
        else:
            kind = WRONG
            picked = item.choices[item.answer] if 0 <= item.answer < len(item.choices) else "?"
        right = item.choices[item.correct] if item.correct is not None and 0 <= item.correct < len(item.choices) else ""
        step = item.node_title or item.node_id or ""
        found.append(Mistake(item.call_id, item.question, kind, picked, right, step))
    return found


def mistake_lines(found: Sequence[Mistake]) -> list[str]:
    """The list as the summary shows it: a heading, then one entry per mistake."""
    lines = [f"Mistakes: {len(found)}" + ("" if found else " — none so far")]
    for mistake in found:
        what = {WRONG: f"you chose “{mistake.picked}”", DONT_KNOW_KIND: "you did not know",
                SKIPPED: "skipped"}[mistake.kind]
        mark = {WRONG: "✗", DONT_KNOW_KIND: "?", SKIPPED: "↷"}[mistake.kind]
        where = f" [{mistake.step}]" if mistake.step else ""
        lines.append(f"  {mark} {mistake.question}{where}")
        lines.append(f"      {what} · right: {mistake.right or '(not given)'}")
    return lines
