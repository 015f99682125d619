"""What the learner's actions become, whose move it is, and what the pane shows.

Pure helpers over a transcript, so the pane only draws and the service only runs:

- learner messages: a typed line (an answer to an open ``ask`` when one waits), a quiz
  pick graded here (index == correct), an accepted or declined plan with its note;
- :func:`needs_reply`: does an agent owe a turn (the learner spoke, or a turn was cut
  short: a wake that never ran, a crash between steps)?
- :func:`session_items`: the transcript as display items with stable keys — learner
  lines, agent text, quiz and ask cards, the assessment and plan presentations —
  carrying the state the pane shows (answered, active, awaiting the verdict).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import jobs as tj
from .mermaid import Plan, PlanError, parse_plan
from .plan_diff import plan_changes
from .phases import awaiting_verdict, ok_tool_calls, pending_question, phase_of
from .transcript import (
    ASK,
    ASSISTANT,
    DONT_KNOW,
    PLAN_ACCEPTED,
    PLAN_DECLINED,
    PLAN_INIT,
    PROBE_DONE,
    QUIZ,
    QUIZ_ANSWER,
    TOOL,
    TOOL_CALL,
    TOOL_RESULT,
    TURN_STOPPED,
    USER,
    Message,
    MessageLike,
    arguments_of,
    ask_answer,
    content_of,
    iter_parts,
    parts_of,
    plan_accepted,
    plan_declined,
    quiz_answer,
    role_of,
    user,
)

# --- learner messages -------------------------------------------------------------------


def correct_index(call: Mapping[str, Any]) -> int | None:
    """The quiz's right index; models sometimes send ``"2"`` or ``2.0`` for 2."""
    value = arguments_of(call).get("correct")
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def choices_of(call: Mapping[str, Any]) -> list[str]:
    """A quiz call's choices as strings (junk gives [])."""
    value = arguments_of(call).get("choices")
    if not isinstance(value, list):
        return []
    return [str(item).strip() for item in value]


def quiz_pick(call: Mapping[str, Any], choice: int) -> Message:
    """The learner picked ``choice`` (0-based, or ``DONT_KNOW``): graded locally, worded for the model."""
    choices = choices_of(call)
    if choice == DONT_KNOW:
        return user("I don't know — graded wrong.", quiz_answer(str(call.get("id")), DONT_KNOW, False))
    if not 0 <= choice < len(choices):
        raise ValueError(f"choice {choice} is not one of the {len(choices)} options")
    right = choice == correct_index(call)
    text = f"I chose {choice + 1}: {choices[choice]} — graded {'correct' if right else 'wrong'}."
    return user(text, quiz_answer(str(call.get("id")), choice, right))


def learner_line(messages: Sequence[MessageLike], text: str) -> Message:
    """A typed line: the answer to a waiting ``ask``, otherwise a plain message.

    A waiting quiz is answered only by picking a choice, so typed text beside it is a
    side question and the quiz stays open.
    """
    waiting = pending_question(messages)
    if waiting is not None and waiting.get("name") == ASK:
        return user(text, ask_answer(str(waiting.get("id"))))
    return user(text)


def verdict(accepted: bool, note: str, version: int) -> Message:
    """The learner's verdict on the presented plan; the model reads only the text."""
    note = note.strip()
    if accepted:
        head, part = "I accept the plan.", {**plan_accepted(version), "note": note}
    else:
        head, part = "I decline the plan. Please revise it.", {**plan_declined(), "note": note}
    return user(f"{head}\n\n{note}" if note else head, part)


# --- whose move -------------------------------------------------------------------------


def _call_results(messages: Sequence[MessageLike]) -> dict[str, Mapping[str, Any]]:
    results: dict[str, Mapping[str, Any]] = {}
    for _, _, part in iter_parts(messages, TOOL_RESULT):
        call_id = part.get("call_id")
        if isinstance(call_id, str):
            results[call_id] = part
    return results


def needs_reply(messages: Sequence[MessageLike]) -> bool:
    """True when an agent owes the learner a turn.

    After a learner row, always. After a step whose calls ended the turn (an accepted
    question, a plan presented for the verdict), never. After a concluded probe (the
    teacher's wake), a refused call, or a mid-lesson plan rewrite, the loop was cut
    short and the agent should go on.
    """
    if not messages:
        return False
    last = messages[-1]
    if role_of(last) == USER:
        return True
    if role_of(last) == ASSISTANT:
        return any(part.get("type") == TOOL_CALL for part in parts_of(last))
    if role_of(last) != TOOL:
        return False
    step = len(messages) - 1
    while step >= 0 and role_of(messages[step]) == TOOL:
        step -= 1
    if step < 0:
        return False
    results = _call_results(messages)
    teaching = phase_of(messages[:step]) == "teach"
    for part in parts_of(messages[step]):
        if part.get("type") != TOOL_CALL:
            continue
        result = results.get(str(part.get("id")))
        if result is None or result.get("ok") is not True:
            continue
        if part.get("name") in (ASK, QUIZ):
            return False
        if part.get("name") == PLAN_INIT and not teaching:
            return False
    return True


# --- display items ------------------------------------------------------------------------


@dataclass(frozen=True)
class LearnerLine:
    key: str
    text: str


@dataclass(frozen=True)
class VerdictLine:
    key: str
    accepted: bool
    note: str


@dataclass(frozen=True)
class AgentText:
    key: str
    agent: str
    text: str
    stopped: bool = False
    """The learner stopped this reply while it streamed."""


@dataclass(frozen=True)
class QuizItem:
    key: str
    call_id: str
    question: str
    choices: tuple[str, ...]
    correct: int | None
    node_id: str | None = None
    answer: int | None = None
    graded: bool | None = None
    active: bool = False
    node_title: str | None = None
    """The tagged node's title on the plan in force when the quiz was asked."""


@dataclass(frozen=True)
class AskItem:
    key: str
    call_id: str
    question: str
    active: bool = False


@dataclass(frozen=True)
class AssessmentItem:
    key: str
    strands: tuple[str, ...]
    edge: str


@dataclass(frozen=True)
class PlanItem:
    key: str
    version: int
    steps: tuple[tuple[str, str], ...]  # (id, title) in topological order
    status: str  # "awaiting" (the verdict), "current", "superseded"
    edges: tuple[tuple[str, str], ...] = ()  # (before, after), so the card draws the graph
    shapes: tuple[tuple[str, str], ...] = ()  # (id, bracket pair) for the nodes not drawn as a plain box
    labels: tuple[tuple[str, str, str], ...] = ()  # (before, after, label) of the labelled edges
    changes: tuple[str, ...] = ()
    """What changed since the plan before it (steps added, removed, reordered): a declined
    plan's successor says so."""


@dataclass(frozen=True)
class JobItem:
    """A background job the teacher started, with where it stands."""

    key: str
    job_id: str
    kind: str
    title: str
    status: str  # running, done, failed, aborted


@dataclass(frozen=True)
class JobResultItem:
    """A job's steer: its result (a collapsible card) or a quiet "aborted" mark."""

    key: str
    job_id: str
    kind: str
    title: str
    status: str
    text: str
    files: tuple[str, ...] = ()


Item = (LearnerLine | VerdictLine | AgentText | QuizItem | AskItem | AssessmentItem | PlanItem
        | JobItem | JobResultItem)


def _answers(messages: Sequence[MessageLike]) -> dict[str, Mapping[str, Any]]:
    """The first quiz answer part per call id (a quiz is answered once)."""
    answers: dict[str, Mapping[str, Any]] = {}
    for _, message, part in iter_parts(messages, QUIZ_ANSWER):
        call_id = part.get("call_id")
        if role_of(message) == USER and isinstance(call_id, str):
            answers.setdefault(call_id, part)
    return answers


def _parsed(call: Mapping[str, Any]) -> Plan | None:
    """The plan of a plan_init call, or None when it does not parse."""
    source = arguments_of(call).get("mermaid")
    try:
        return parse_plan(source if isinstance(source, str) else "")
    except PlanError:
        return None


def _learner_item(key: str, message: MessageLike) -> Item | None:
    steer = tj.steer_part(message)
    if steer is not None:
        files = steer.get("files")
        return JobResultItem(
            key, str(steer.get("job_id")), str(steer.get("kind")), str(steer.get("title") or ""),
            str(steer.get("status") or tj.DONE), content_of(message),
            tuple(str(f) for f in files) if isinstance(files, list) else (),
        )
    kinds = {part.get("type"): part for part in parts_of(message)}
    if QUIZ_ANSWER in kinds:
        return None  # the quiz card shows the pick and the grade
    for kind, accepted in ((PLAN_ACCEPTED, True), (PLAN_DECLINED, False)):
        if kind in kinds:
            note = kinds[kind].get("note")
            return VerdictLine(key, accepted, note if isinstance(note, str) else "")
    text = content_of(message)
    return LearnerLine(key, text) if text.strip() else None


def _refused_attempt(message: MessageLike, results: Mapping[str, Mapping[str, Any]]) -> bool:
    """True for a step whose every call was refused: the model tries again, and the
    learner sees only the accepted attempt (its words would otherwise repeat per try)."""
    calls = [part for part in parts_of(message) if part.get("type") == TOOL_CALL]
    if not calls:
        return False
    outcomes = [results.get(str(part.get("id"))) for part in calls]
    return all(result is not None and result.get("ok") is not True for result in outcomes)


def session_items(messages: Sequence[MessageLike]) -> list[Item]:
    """The transcript as display items, oldest first, each with a stable key.

    Keys come from message positions, so an append-only transcript only ever adds
    items at the end; refused tool calls (which the learner never sees) and tool rows
    give no item.
    """
    results = _call_results(messages)
    answers = _answers(messages)
    waiting = pending_question(messages)
    waiting_id = waiting.get("id") if waiting is not None else None
    probe_done_at = next(iter(ok_tool_calls(messages, PROBE_DONE)), (None, None))[0]
    plan_calls = [call.get("id") for _, call in ok_tool_calls(messages, PLAN_INIT)]
    verdict_open = awaiting_verdict(messages)
    job_status = tj.job_statuses(messages)

    items: list[Item] = []
    titles: dict[str, str] = {}  # node titles of the plan in force so far (quiz cards)
    shown: Plan | None = None  # the plan presented before (what a new version changed)
    for index, message in enumerate(messages):
        role = role_of(message)
        if role == USER:
            item = _learner_item(f"m{index}", message)
            if item is not None:
                items.append(item)
            continue
        if role != ASSISTANT:
            continue
        agent = "prober" if probe_done_at is None or index <= probe_done_at else "teacher"
        text = content_of(message)
        if text.strip() and not _refused_attempt(message, results):
            stopped = any(part.get("type") == TURN_STOPPED for part in parts_of(message))
            items.append(AgentText(f"m{index}", agent, text, stopped))
        for number, part in enumerate(parts_of(message)):
            if part.get("type") != TOOL_CALL:
                continue
            call_id = part.get("id")
            result = results.get(call_id) if isinstance(call_id, str) else None
            if result is None or result.get("ok") is not True or not isinstance(call_id, str):
                continue  # refused or unfinished: the learner never sees it
            key = f"m{index}-{number}"
            args = arguments_of(part)
            name = part.get("name")
            if name == QUIZ:
                answer = answers.get(call_id)
                node_id = args.get("node_id")
                items.append(
                    QuizItem(
                        key, call_id, str(args.get("question", "")), tuple(choices_of(part)),
                        correct_index(part), node_id if isinstance(node_id, str) else None,
                        answer.get("choice") if answer else None,
                        answer.get("correct") if answer else None,
                        call_id == waiting_id,
                        titles.get(node_id) if isinstance(node_id, str) else None,
                    )
                )
            elif name == ASK:
                items.append(AskItem(key, call_id, str(args.get("question", "")), call_id == waiting_id))
            elif name in tj.JOB_TOOLS:
                job = tj.job_of(part)
                if job is not None:
                    items.append(JobItem(key, job.job_id, job.kind, job.title,
                                         job_status.get(job.job_id, tj.RUNNING)))
            elif name == PROBE_DONE:
                strands = args.get("strands")
                items.append(
                    AssessmentItem(
                        key,
                        tuple(str(s) for s in strands) if isinstance(strands, list) else (),
                        str(args.get("edge", "")),
                    )
                )
            elif name == PLAN_INIT:
                plan = _parsed(part)
                if plan is None:
                    continue
                steps = tuple((node_id, plan.node(node_id).title) for node_id in plan.topological_order())  # type: ignore[union-attr]
                titles = dict(steps)
                version = plan_calls.index(call_id) + 1 if call_id in plan_calls else 0
                latest = version == len(plan_calls)
                status = ("awaiting" if verdict_open else "current") if latest else "superseded"
                shapes = tuple((node.id, node.shape) for node in plan.nodes if node.shape)
                changes = plan_changes(shown, plan) if shown is not None else ()
                items.append(PlanItem(key, version, steps, status, plan.edges, shapes, plan.labels, changes))
                shown = plan
    return items
