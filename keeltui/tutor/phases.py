"""Where a tutor session stands, derived from transcript events alone.

Nothing about a session's phase is stored: it is read from the parts of its messages,
so the store, the pane and the agents can never disagree about it.

- ``probe`` until a successful ``probe_done`` result;
- ``plan`` from then on, through presenting the plan (a successful ``plan_init``),
  declines, failed ``plan_init`` calls and side questions;
- ``teach`` once a learner message carrying a ``plan-accepted`` part follows a
  successful ``plan_init``. Acceptance happens once: later rewrites stay in ``teach``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from .mermaid import Plan, PlanError, parse_plan
from .transcript import (
    ASK,
    ASK_ANSWER,
    PLAN_ACCEPTED,
    PLAN_INIT,
    PROBE_DONE,
    QUESTION_TOOLS,
    QUIZ_ANSWER,
    TOOL_CALL,
    TOOL_RESULT,
    USER,
    MessageLike,
    arguments_of,
    content_of,
    iter_parts,
    parts_of,
    role_of,
)

Phase = Literal["probe", "plan", "teach"]
Agent = Literal["prober", "teacher"]

PHASE_WORDS = {"probe": "first questions", "plan": "plan", "teach": "learning"}
"""A phase as the learner reads it ("probe" is the code's word, not theirs)."""
AGENT_WORDS = {"prober": "Tutor", "teacher": "Teacher"}
"""Who speaks, as the learner reads it: the prober asks the first questions as the tutor."""

Part = Mapping[str, Any]


# --- tool call / result bookkeeping ----------------------------------------------------


def _calls(messages: Sequence[MessageLike]) -> dict[str, tuple[int, Part]]:
    """Tool call parts by id (the first one wins if an id repeats)."""
    calls: dict[str, tuple[int, Part]] = {}
    for index, _, part in iter_parts(messages, TOOL_CALL):
        call_id = part.get("id")
        if isinstance(call_id, str):
            calls.setdefault(call_id, (index, part))
    return calls


def _results(messages: Sequence[MessageLike]) -> dict[str, Part]:
    """Tool result parts by call id (the latest one wins)."""
    results: dict[str, Part] = {}
    for _, _, part in iter_parts(messages, TOOL_RESULT):
        call_id = part.get("call_id")
        if isinstance(call_id, str):
            results[call_id] = part
    return results


def _ok_results(messages: Sequence[MessageLike], name: str) -> list[tuple[int, str]]:
    """``(message index, call id)`` of each successful result of tool ``name``."""
    calls = _calls(messages)
    found: list[tuple[int, str]] = []
    for index, _, part in iter_parts(messages, TOOL_RESULT):
        call_id = part.get("call_id")
        result_name = part.get("name")
        if result_name is None and isinstance(call_id, str) and call_id in calls:
            result_name = calls[call_id][1].get("name")  # old rows may lack the name
        if result_name == name and part.get("ok") is True and isinstance(call_id, str):
            found.append((index, call_id))
    return found


def ok_tool_calls(messages: Sequence[MessageLike], name: str) -> list[tuple[int, Part]]:
    """``(message index, call part)`` of each call to ``name`` whose result is ok.

    Ordered by where the call appears in the transcript.
    """
    calls = _calls(messages)
    accepted = {call_id for _, call_id in _ok_results(messages, name)}
    return sorted(
        (calls[call_id] for call_id in accepted if call_id in calls), key=lambda item: item[0]
    )


def _concluded_at(messages: Sequence[MessageLike]) -> int | None:
    found = _ok_results(messages, PROBE_DONE)
    return found[0][0] if found else None


def _presented_at(messages: Sequence[MessageLike]) -> int | None:
    """Index of the first successful plan_init result after the probe concluded."""
    concluded = _concluded_at(messages)
    if concluded is None:
        return None
    for index, _ in _ok_results(messages, PLAN_INIT):
        if index > concluded:
            return index
    return None


def _accepted_at(messages: Sequence[MessageLike]) -> int | None:
    presented = _presented_at(messages)
    if presented is None:
        return None
    for index, message, _ in iter_parts(messages, PLAN_ACCEPTED):
        if index > presented and role_of(message) == USER:
            return index
    return None


# --- the public questions -------------------------------------------------------------


def probe_concluded(messages: Sequence[MessageLike]) -> bool:
    """True once a ``probe_done`` call has succeeded."""
    return _concluded_at(messages) is not None


def phase_of(messages: Sequence[MessageLike]) -> Phase:
    """``"probe"``, ``"plan"`` or ``"teach"`` — see the module docstring for the rules."""
    if not probe_concluded(messages):
        return "probe"
    return "teach" if _accepted_at(messages) is not None else "plan"


def active_agent(messages: Sequence[MessageLike]) -> Agent:
    """Which agent answers next: the prober until the probe concludes, then the teacher."""
    return "prober" if phase_of(messages) == "probe" else "teacher"


def awaiting_verdict(messages: Sequence[MessageLike]) -> bool:
    """True while a presented plan waits for the learner to accept or decline it."""
    return _presented_at(messages) is not None and _accepted_at(messages) is None


def plan_version(messages: Sequence[MessageLike]) -> int:
    """How many plans have been presented (successful ``plan_init`` calls); 0 if none.

    The verdict composer stamps this on the ``plan-accepted`` part.
    """
    return len(_ok_results(messages, PLAN_INIT))


def latest_plan(messages: Sequence[MessageLike]) -> Plan | None:
    """The plan of the latest successful ``plan_init``, or None if there is none."""
    for _, call in reversed(ok_tool_calls(messages, PLAN_INIT)):
        source = arguments_of(call).get("mermaid")
        if not isinstance(source, str):
            continue
        try:
            return parse_plan(source)
        except PlanError:
            continue  # cannot happen for a call validated ok; fall back to the previous plan
    return None


def _answered(messages: Sequence[MessageLike], call_index: int, call: Part) -> bool:
    call_id = call.get("id")
    for index, message in enumerate(messages):
        if index <= call_index or role_of(message) != USER:
            continue
        for part in parts_of(message):
            if part.get("type") in (QUIZ_ANSWER, ASK_ANSWER) and part.get("call_id") == call_id:
                return True
        # An open question is answered by whatever the learner writes next; a quiz
        # only by picking a choice, so a side question leaves the quiz on screen. A
        # job's result (a steer) is not the learner writing.
        steer = any(part.get("type") == "job_steer" for part in parts_of(message))
        if call.get("name") == ASK and content_of(message).strip() and not steer:
            return True
    return False


def pending_question(messages: Sequence[MessageLike]) -> Part | None:
    """The latest ``ask``/``quiz`` call still waiting for the learner, or None.

    A question counts unless its tool result refused it (a call whose result is not
    yet recorded counts, so a ``probe_done`` sent alongside a quiz is refused). A newer
    question supersedes older unanswered ones.
    """
    results = _results(messages)
    latest: tuple[int, Part] | None = None
    for index, _, part in iter_parts(messages, TOOL_CALL):
        if part.get("name") not in QUESTION_TOOLS:
            continue
        call_id = part.get("id")
        if not isinstance(call_id, str):
            continue  # a call without an id can never be answered; skip the junk
        result = results.get(call_id)
        if result is not None and result.get("ok") is not True:
            continue
        latest = (index, part)
    if latest is None or _answered(messages, *latest):
        return None
    return latest[1]
