"""Mastery that lasts: quiz outcomes per node, what is mastered, what is due for review.

Pure, over transcripts (nothing else is stored about a session's state): every answered
quiz that the teacher tagged with a node id is an :class:`Attempt` — the node, right or
wrong, and when (the learner's answer row's ``created_at``).

- a node is **mastered** when its latest answer was right;
- it **needs review** when its latest answer was wrong, or when a mastered node's next
  review falls due; a node answered wrong stays in review until it is answered right on
  a *later day* than the mistake (right again at once, the answer is still fresh in
  mind). Spaced review uses simple intervals: one right answer in a row holds for a
  day, two for three days, then a week, three weeks, two months;
- visiting a node (a tagged quiz asked) says nothing about mastery: that is position
  (:mod:`keeltui.tutor.plan_status`).

Earlier sessions on the same topic carry over: :func:`prior_mastery` merges their
attempts, :func:`prior_knowledge_note` words them for the agents' context.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .mermaid import Plan
from .phases import ok_tool_calls
from .plan_status import plan_statuses
from .session import session_items
from .transcript import QUIZ, QUIZ_ANSWER, USER, MessageLike, arguments_of, iter_parts, role_of

DAY = 86_400.0
REVIEW_INTERVALS = (1 * DAY, 3 * DAY, 7 * DAY, 21 * DAY, 60 * DAY)
"""How long a run of 1, 2, 3, 4, 5+ right answers holds before the node is due again."""

# The map shows one mark per node; the first that applies wins.
PRECEDENCE = ("current", "review", "mastered", "visited", "pending")
CURRENT_REVIEW = "current-review"
"""The current step, answered wrong (or due): the map shows ↻ where the learner stands."""


@dataclass(frozen=True)
class Attempt:
    """One answered, node-tagged quiz."""

    node_id: str
    correct: bool
    at: float | None


@dataclass(frozen=True)
class NodeMastery:
    """A node's record: counts, the run of right answers at the end, when."""

    node_id: str
    right: int = 0
    wrong: int = 0
    streak: int = 0
    last_at: float | None = None
    last_right_at: float | None = None
    last_wrong_at: float | None = None
    cleared: bool = True
    """False from a wrong answer until a right one on a later day."""

    @property
    def answered(self) -> int:
        return self.right + self.wrong


def _day(at: float) -> tuple[int, int, int]:
    """The learner's calendar day of ``at`` (local time): "a later day" is a later date."""
    return time.localtime(at)[:3]


def _later_day(at: float | None, than: float | None) -> bool:
    """True when ``at`` falls on a later day than ``than`` (an unknown time does not hold back)."""
    return at is None or than is None or _day(at) > _day(than)


def _created_at(message: MessageLike) -> float | None:
    value = message.get("created_at") if isinstance(message, Mapping) else getattr(message, "created_at", None)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def attempts(messages: Sequence[MessageLike]) -> list[Attempt]:
    """Answered node-tagged quizzes, in the order they were answered (first pick counts)."""
    nodes: dict[str, str] = {}
    for _, call in ok_tool_calls(messages, QUIZ):
        node_id = arguments_of(call).get("node_id")
        call_id = call.get("id")
        if isinstance(node_id, str) and isinstance(call_id, str):
            nodes[call_id] = node_id
    found: list[Attempt] = []
    seen: set[str] = set()
    for _, message, part in iter_parts(messages, QUIZ_ANSWER):
        call_id = part.get("call_id")
        if role_of(message) != USER or not isinstance(call_id, str) or call_id in seen:
            continue
        seen.add(call_id)
        if call_id in nodes:
            found.append(Attempt(nodes[call_id], part.get("correct") is True, _created_at(message)))
    return found


def node_mastery(record: Iterable[Attempt]) -> dict[str, NodeMastery]:
    """Each node's :class:`NodeMastery` from attempts in time order."""
    out: dict[str, NodeMastery] = {}
    for attempt in record:
        known = out.get(attempt.node_id, NodeMastery(attempt.node_id))
        if attempt.correct:
            known = NodeMastery(
                attempt.node_id, known.right + 1, known.wrong, known.streak + 1,
                attempt.at, attempt.at if attempt.at is not None else known.last_right_at,
                known.last_wrong_at, known.cleared or _later_day(attempt.at, known.last_wrong_at),
            )
        else:
            known = NodeMastery(attempt.node_id, known.right, known.wrong + 1, 0, attempt.at, known.last_right_at,
                                attempt.at, False)
        out[attempt.node_id] = known
    return out


def due_at(mastery: NodeMastery) -> float | None:
    """When a mastered node is next due for review (None: not mastered, or no time known)."""
    if mastery.streak == 0 or mastery.last_right_at is None:
        return None
    return mastery.last_right_at + REVIEW_INTERVALS[min(mastery.streak, len(REVIEW_INTERVALS)) - 1]


def mastery_state(mastery: NodeMastery | None, now: float) -> str | None:
    """``"mastered"``, ``"review"`` or None (never answered)."""
    if mastery is None or mastery.answered == 0:
        return None
    if mastery.streak == 0 or not mastery.cleared:
        return "review"
    due = due_at(mastery)
    return "review" if due is not None and now >= due else "mastered"


def map_statuses(
    plan: Plan,
    messages: Sequence[MessageLike],
    now: float,
    prior: Mapping[str, NodeMastery] | None = None,
) -> dict[str, str]:
    """The map's mark per node: position and mastery, ``current`` winning.

    ``prior`` is mastery carried over from earlier sessions on the topic; this
    session's own answers come after it.
    """
    position = plan_statuses(plan, messages)
    mastery = merge(prior or {}, node_mastery(attempts(messages)))
    statuses: dict[str, str] = {}
    for node_id in plan.ids:
        found = {position[node_id], mastery_state(mastery.get(node_id), now) or "pending"}
        if found == {"current", "review"}:
            statuses[node_id] = CURRENT_REVIEW  # both: where the learner is, and what to redo
            continue
        statuses[node_id] = next(status for status in PRECEDENCE if status in found)
    return statuses


def merge(earlier: Mapping[str, NodeMastery], later: Mapping[str, NodeMastery]) -> dict[str, NodeMastery]:
    """Records of the same nodes, ``later`` answered after ``earlier``."""
    out = dict(earlier)
    for node_id, record in later.items():
        before = out.get(node_id)
        if before is None:
            out[node_id] = record
            continue
        streak = record.streak if record.streak < record.answered else before.streak + record.streak
        # A mistake of the earlier sessions is cleared by a right answer here on a later day.
        cleared = record.cleared if record.wrong else (
            before.cleared or (record.right > 0 and _later_day(record.last_right_at, before.last_wrong_at))
        )
        out[node_id] = NodeMastery(
            node_id, before.right + record.right, before.wrong + record.wrong, streak,
            record.last_at if record.last_at is not None else before.last_at,
            record.last_right_at if record.last_right_at is not None else before.last_right_at,
            record.last_wrong_at if record.last_wrong_at is not None else before.last_wrong_at, cleared,
        )
    return out


# --- earlier sessions on the same topic ------------------------------------------------


def topic_key(title: str) -> str:
    """Titles that name the same topic compare equal (case and spacing ignored)."""
    return " ".join(title.casefold().split())


def prior_mastery(transcripts: Iterable[Sequence[MessageLike]]) -> dict[str, NodeMastery]:
    """Merged mastery of earlier sessions' transcripts (any order: attempts sort by time)."""
    record = [attempt for messages in transcripts for attempt in attempts(messages)]
    record.sort(key=lambda attempt: attempt.at if attempt.at is not None else 0.0)
    return node_mastery(record)


def node_titles(transcripts: Iterable[Sequence[MessageLike]]) -> dict[str, str]:
    """Titles of every node any plan in these transcripts named (the latest wins)."""
    titles: dict[str, str] = {}
    for messages in transcripts:
        for item in session_items(messages):
            steps = getattr(item, "steps", None)
            if steps:
                titles.update(dict(steps))
    return titles


def prior_knowledge_note(
    prior: Mapping[str, NodeMastery], titles: Mapping[str, str], now: float
) -> str:
    """What earlier sessions established, for the agents' context ('' when nothing)."""
    mastered, review = [], []
    for node_id, record in prior.items():
        state = mastery_state(record, now)
        name = f"{titles.get(node_id, node_id)} ({node_id})"
        if state == "mastered":
            mastered.append(name)
        elif state == "review":
            review.append(name)
    if not mastered and not review:
        return ""
    lines = [
        "## What the learner already showed on this topic",
        "Earlier sessions on this topic graded these quiz answers. Start from them instead "
        "of probing from zero: do not re-test what is mastered unless it is due, and offer "
        "the review items early. Reuse these node ids in a plan where they fit.",
    ]
    if mastered:
        lines.append("Mastered: " + "; ".join(mastered))
    if review:
        lines.append("Due for review (answered wrong last time, or time to refresh): " + "; ".join(review))
    return "\n".join(lines)


# --- the session summary -----------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """Where a session stands: quiz record and mastery, each node with its title."""

    answered: int
    right: int
    mastered: tuple[tuple[str, str], ...]
    review: tuple[tuple[str, str], ...]
    not_yet: tuple[tuple[str, str], ...]


def summarize(
    plan: Plan | None,
    messages: Sequence[MessageLike],
    now: float,
    prior: Mapping[str, NodeMastery] | None = None,
) -> Summary:
    """The summary of a session (a plan of None: still probing, nodes are unknown)."""
    # The plan's quizzes only: the prober's placement quiz grades no step, so it is not counted.
    graded = attempts(messages)
    right = sum(1 for attempt in graded if attempt.correct)
    mastery = merge(prior or {}, node_mastery(graded))
    mastered: list[tuple[str, str]] = []
    review: list[tuple[str, str]] = []
    not_yet: list[tuple[str, str]] = []
    if plan is not None:
        for node_id in plan.topological_order():
            node = plan.node(node_id)
            entry = (node_id, node.title if node is not None else node_id)
            state = mastery_state(mastery.get(node_id), now)
            (mastered if state == "mastered" else review if state == "review" else not_yet).append(entry)
    return Summary(len(graded), right, tuple(mastered), tuple(review), tuple(not_yet))


def summary_lines(summary: Summary) -> list[str]:
    """The summary as plain lines (the modal, ``keeltui tutor export``)."""
    lines = [f"Quizzes answered: {summary.answered} ({summary.right} right)"]
    total = len(summary.mastered) + len(summary.review) + len(summary.not_yet)
    if total == 0:
        lines.append("No plan yet: mastery is counted per plan step once the plan is accepted.")
        return lines
    # To review first: it is what the learner can act on now.
    lines.append(f"To review: {len(summary.review)}")
    lines.extend(f"  ↻ {title}" for _, title in summary.review)
    lines.append(f"Mastered: {len(summary.mastered)} of {total} steps")
    lines.extend(f"  ✓ {title}" for _, title in summary.mastered)
    lines.append(f"Not yet answered: {len(summary.not_yet)}")
    lines.extend(f"  ○ {title}" for _, title in summary.not_yet)
    return lines


def progress_text(
    plan: Plan | None,
    messages: Sequence[MessageLike],
    now: float,
    prior: Mapping[str, NodeMastery] | None = None,
) -> str:
    """A short progress label for lists: ``"3/8 mastered · 1 to review"``; ``prior``
    (earlier sessions on the topic) counts as on the plan map and in the summary."""
    if plan is None:
        return ""
    summary = summarize(plan, messages, now, prior)
    total = len(summary.mastered) + len(summary.review) + len(summary.not_yet)
    text = f"{len(summary.mastered)}/{total} mastered"
    if summary.review:
        text += f" · {len(summary.review)} to review"
    return text

