"""The tutor's tool schemas and the pure validation of each tool call.

Schemas are in OpenAI function-calling format. Names and parameters are a fixed
contract; the descriptions are written for the model. Validation runs before anything
reaches the learner: a refused call goes back to the model as a tool error it can fix
within the same turn (for example a quiz tagged with a node id the plan does not have).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .mermaid import Plan, PlanError, parse_plan
from .phases import (
    awaiting_verdict,
    latest_plan,
    pending_question,
    phase_of,
    plan_version,
    probe_concluded,
)
from .jobs import DEMO, JOB_TOOLS, RESEARCH, VISUAL, aborted_since_learner
from .transcript import ASK, PLAN_INIT, PROBE_DONE, QUIZ, MessageLike, arguments_of

AGENTS = ("prober", "teacher")
MIN_CHOICES = 2
MAX_CHOICES = 8
_SLUG_PATTERN = "^[a-z0-9_-]+$"


def _function(name: str, description: str, properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": list(properties),
                "additionalProperties": False,
            },
        },
    }


_QUESTION = {"type": "string", "description": "The question, as the learner will read it."}
_CHOICES = {
    "type": "array",
    "items": {"type": "string"},
    "minItems": MIN_CHOICES,
    "maxItems": MAX_CHOICES,
    "description": f"{MIN_CHOICES} to {MAX_CHOICES} distinct answer options, shown in this order.",
}
_CORRECT = {
    "type": "integer",
    "minimum": 0,
    "description": "0-based index into choices of the one right answer.",
}

_ASK_TOOL = _function(
    ASK,
    "Ask the learner one open question. Your turn ends; their reply arrives as the next "
    "message.",
    {"question": _QUESTION},
)

_PROBER_QUIZ = _function(
    QUIZ,
    "Show the learner one multiple-choice question, graded on their side. Your turn "
    "ends; their choice arrives as the next message.",
    {"question": _QUESTION, "choices": _CHOICES, "correct": _CORRECT},
)

_TEACHER_QUIZ = _function(
    QUIZ,
    "Check the learner's understanding of one plan node with a multiple-choice "
    "question. node_id must be an id from the current plan; the plan map moves to it. "
    "Your turn ends; their choice arrives as the next message.",
    {
        "question": _QUESTION,
        "choices": _CHOICES,
        "correct": _CORRECT,
        "node_id": {
            "type": "string",
            "pattern": _SLUG_PATTERN,
            "description": "Id of the plan node this question checks.",
        },
    },
)

_PROBE_DONE = _function(
    PROBE_DONE,
    "Conclude the assessment and hand the learner to the teacher. Only when no "
    "question is waiting for an answer. The learner sees this assessment.",
    {
        "strands": {
            "type": "array",
            "items": {"type": "string"},
            "description": "What the learner already holds, one short strand per item.",
        },
        "edge": {
            "type": "string",
            "description": "Free-form read of the edge of their understanding: where "
            "it thins out, what they confuse, where teaching should start.",
        },
    },
)

_PLAN_INIT = _function(
    PLAN_INIT,
    "Present the lesson plan as a mermaid flowchart (e.g. `graph TD` then lines like "
    "`net_balance[Net balance] --> per_meal[Protein per meal]`). The one strict rule: "
    "node ids are slugs — lowercase letters, digits, '-' or '_'. Title each node once, "
    "then use its bare id. An edge a --> b means a comes before b. Calling it again "
    "replaces the whole plan; keep the ids of nodes that stay.",
    {"mermaid": {"type": "string", "description": "The mermaid flowchart text."}},
)


_JOB_NOTE = (
    " Answers at once with \"started\"; keep teaching. The result arrives later as a "
    "message marked [… job finished] (or failed, or aborted by the learner): use it then, "
    "never invent it before."
)

_RESEARCH = _function(
    RESEARCH,
    "Start a background research job on one question (the model and, when configured, "
    "a search command)." + _JOB_NOTE,
    {"query": {"type": "string", "description": "The question to research, in a sentence."}},
)

_DEMO = _function(
    DEMO,
    "Start a background job that writes one small runnable example program the learner "
    "can run." + _JOB_NOTE,
    {
        "brief": {"type": "string", "description": "What the example shows."},
        "language": {"type": "string", "description": "Programming language, e.g. python."},
    },
)

_VISUAL = _function(
    VISUAL,
    "Start a background job that draws a diagram (as text; also as SVG when svg is true)."
    + _JOB_NOTE,
    {
        "brief": {"type": "string", "description": "What the diagram shows."},
        "svg": {"type": "boolean", "description": "Also write an SVG file."},
    },
)


def prober_tools() -> list[dict[str, Any]]:
    """The prober's tools: ``quiz`` (no node_id), ``ask``, ``probe_done``."""
    return copy.deepcopy([_PROBER_QUIZ, _ASK_TOOL, _PROBE_DONE])


def teacher_tools() -> list[dict[str, Any]]:
    """The teacher's tools: ``plan_init``, ``quiz`` (node_id required), ``ask``, and the
    background jobs ``research``, ``demo``, ``visual``."""
    return copy.deepcopy([_PLAN_INIT, _TEACHER_QUIZ, _ASK_TOOL, _RESEARCH, _DEMO, _VISUAL])


def tools_for(agent: str) -> list[dict[str, Any]]:
    """The tool list of ``agent`` (``"prober"`` or ``"teacher"``)."""
    if agent == "prober":
        return prober_tools()
    if agent == "teacher":
        return teacher_tools()
    raise ValueError(f"unknown agent {agent!r}; expected one of {', '.join(AGENTS)}")


# --- validation ---------------------------------------------------------------------


@dataclass(frozen=True)
class ToolOutcome:
    """The verdict on one tool call.

    ``result`` is the tool message content sent back to the model (a dict on success,
    a one-line string on refusal). ``ends_turn`` stops the agent's turn to wait for the
    learner; ``wake_teacher`` asks the shell to start the teacher's turn right away.
    ``plan`` is the parsed plan of a successful ``plan_init``.
    """

    ok: bool
    result: dict[str, Any] | str
    ends_turn: bool = False
    wake_teacher: bool = False
    plan: Plan | None = None


class _Refused(Exception):
    """Internal: a call is refused with this reason."""


def _text(args: Mapping[str, Any], key: str) -> str:
    value = args.get(key)
    if value is None:
        raise _Refused(f'missing argument "{key}"')
    if not isinstance(value, str):
        raise _Refused(f'argument "{key}" must be a string')
    if not value.strip():
        raise _Refused(f'argument "{key}" is empty')
    return value.strip()


def _choices(args: Mapping[str, Any]) -> list[str]:
    value = args.get("choices")
    if value is None:
        raise _Refused('missing argument "choices"')
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _Refused('argument "choices" must be a list of strings')
    choices = [item.strip() for item in value]
    if not MIN_CHOICES <= len(choices) <= MAX_CHOICES:
        raise _Refused(
            f'argument "choices" needs {MIN_CHOICES} to {MAX_CHOICES} options, got {len(choices)}'
        )
    if any(not item for item in choices):
        raise _Refused('argument "choices" has an empty option')
    if len({item.casefold() for item in choices}) != len(choices):
        raise _Refused('argument "choices" repeats an option; each must be different')
    return choices


def _correct(args: Mapping[str, Any], count: int) -> int:
    value = args.get("correct")
    if value is None:
        raise _Refused('missing argument "correct"')
    # Models sometimes send "2" or 2.0; both mean index 2. true/false never do.
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    elif isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Refused('argument "correct" must be an integer index into "choices"')
    if not 0 <= value < count:
        raise _Refused(
            f'argument "correct" is {value}, but "choices" has {count} options '
            f"(indexes 0 to {count - 1})"
        )
    return value


def _string_list(args: Mapping[str, Any], key: str) -> list[str]:
    value = args.get(key)
    if value is None:
        raise _Refused(f'missing argument "{key}"')
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _Refused(f'argument "{key}" must be a list of strings')
    items = [item.strip() for item in value]
    if any(not item for item in items):
        raise _Refused(f'argument "{key}" has an empty item')
    return items


def _ask(args: Mapping[str, Any]) -> ToolOutcome:
    question = _text(args, "question")
    return ToolOutcome(
        ok=True,
        result={"status": "asked", "question": question, "next": "wait for the learner's reply"},
        ends_turn=True,
    )


def _quiz(agent: str, args: Mapping[str, Any], messages: Sequence[MessageLike]) -> ToolOutcome:
    question = _text(args, "question")
    choices = _choices(args)
    _correct(args, len(choices))
    result: dict[str, Any] = {"status": "shown", "question": question}
    if agent == "teacher":
        node_id = _text(args, "node_id")
        plan = latest_plan(messages)
        if plan is None:
            raise _Refused("there is no plan yet — call plan_init first")
        if awaiting_verdict(messages):
            raise _Refused(
                "the plan is still waiting for the learner's verdict — end your turn "
                "and let them accept or decline it before teaching"
            )
        if node_id not in plan:
            raise _Refused(
                f'node_id "{node_id}" is not in the plan — use one of: {", ".join(plan.ids)}'
            )
        result["node_id"] = node_id
    result["next"] = "wait for the learner's answer"
    return ToolOutcome(ok=True, result=result, ends_turn=True)


def _probe_done(args: Mapping[str, Any], messages: Sequence[MessageLike]) -> ToolOutcome:
    if probe_concluded(messages):
        raise _Refused("the probe is already concluded — the teacher has taken over")
    open_question = pending_question(messages)
    if open_question is not None:
        kind = "quiz" if open_question.get("name") == QUIZ else "question"
        asked = arguments_of(open_question).get("question")
        quoted = f' ("{asked}")' if isinstance(asked, str) and asked else ""
        raise _Refused(
            f"the learner has not answered your open {kind}{quoted} yet — end your turn "
            "and wait for their answer"
        )
    strands = _string_list(args, "strands")
    edge = _text(args, "edge")
    return ToolOutcome(
        ok=True,
        result={"status": "probe concluded", "strands": strands, "edge": edge},
        ends_turn=True,
        wake_teacher=True,
    )


def _plan_init(args: Mapping[str, Any], messages: Sequence[MessageLike]) -> ToolOutcome:
    source = args.get("mermaid")
    if source is None:
        raise _Refused('missing argument "mermaid"')
    if not isinstance(source, str):
        raise _Refused('argument "mermaid" must be a string')
    try:
        plan = parse_plan(source)
    except PlanError as err:
        raise _Refused(f"{err} — fix it and call plan_init again with the whole plan") from err
    teaching = phase_of(messages) == "teach"
    result: dict[str, Any] = {
        "status": "plan replaced" if teaching else "plan presented",
        "version": plan_version(messages) + 1,
        "order": plan.topological_order(),
    }
    if teaching:
        # Acceptance happens once; a mid-lesson rewrite keeps teaching.
        result["next"] = "continue teaching along the new plan"
    else:
        # The call ends the turn (the learner is shown the plan with Accept and
        # Decline), so the model reads this on its next turn, after the verdict.
        result["next"] = (
            "the learner was shown this plan with Accept and Decline and your turn "
            "ended; their verdict (or a side question) is the next message — do not "
            "teach until they accept"
        )
    return ToolOutcome(ok=True, result=result, ends_turn=not teaching, plan=plan)


def _job(name: str, args: Mapping[str, Any], messages: Sequence[MessageLike]) -> ToolOutcome:
    title = _text(args, "query" if name == RESEARCH else "brief")
    if aborted_since_learner(messages, name, title):
        raise _Refused(
            f"the learner aborted this {name} job and has not asked for it again — do not "
            "start it again; go on teaching without it (they can re-run it from its card)"
        )
    if name == DEMO and args.get("language") is not None:
        _text(args, "language")
    if name == VISUAL and args.get("svg") is not None and not isinstance(args.get("svg"), bool):
        raise _Refused('argument "svg" must be true or false')
    return ToolOutcome(
        ok=True,
        result={"status": "started", "kind": name,
                "next": "keep teaching; the result arrives later as a message"},
    )


def _excerpt(text: str, limit: int = 240) -> str:
    """The bad JSON as sent (cut when long), so the model and the learner see what broke."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _decode(arguments: Mapping[str, Any] | str | None) -> Mapping[str, Any]:
    if arguments is None:
        return {}
    if isinstance(arguments, str):
        if not arguments.strip():
            return {}
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError as err:
            raise _Refused(
                f"the arguments are not valid JSON ({err.msg} at character {err.pos}): {_excerpt(err.doc)}"
            ) from err
    if not isinstance(arguments, Mapping):
        raise _Refused("the arguments must be a JSON object")
    return arguments


def validate_tool_call(
    agent: str,
    name: str,
    arguments: Mapping[str, Any] | str | None,
    messages: Sequence[MessageLike],
) -> ToolOutcome:
    """Judge one tool call by ``agent`` against the transcript so far.

    ``arguments`` may be a dict or the raw JSON string from the model. Extra arguments
    are ignored. Never raises for bad model input; raises ValueError for an unknown
    ``agent`` (a programming error in the shell).
    """
    available = [tool["function"]["name"] for tool in tools_for(agent)]
    if name not in available:
        return ToolOutcome(
            ok=False,
            result=f'unknown tool "{name}" for the {agent} — available: {", ".join(available)}',
        )
    try:
        args = _decode(arguments)
        if name == ASK:
            return _ask(args)
        if name == QUIZ:
            return _quiz(agent, args, messages)
        if name == PROBE_DONE:
            return _probe_done(args, messages)
        if name in JOB_TOOLS:
            return _job(name, args, messages)
        return _plan_init(args, messages)
    except _Refused as refusal:
        return ToolOutcome(ok=False, result=f"{name} refused: {refusal}")
