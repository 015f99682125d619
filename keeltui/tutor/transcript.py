"""The tutor transcript model shared by the store, the agents and the pure core.

A session is a list of messages. Each message has a ``role`` (user, assistant or
tool), its text ``content`` and structured ``parts``: plain dicts, so they round-trip
through JSON in the store unchanged. Phases, plan statuses and tool validation are all
derived from these parts alone — nothing else is stored about a session's state.

The readers here accept either :class:`Message` objects or plain mappings with the same
keys, because the store hands back dicts and tests like to write them inline.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

# Roles
USER = "user"
ASSISTANT = "assistant"
TOOL = "tool"
ROLES = frozenset({USER, ASSISTANT, TOOL})

# Part types
TOOL_CALL = "tool_call"  # on assistant messages: {"id", "name", "arguments"}
TOOL_RESULT = "tool_result"  # on tool messages: {"call_id", "name", "ok", "result"}
PLAN_ACCEPTED = "plan-accepted"  # on the learner's accept turn: {"plan_version"}
PLAN_DECLINED = "plan-declined"  # on the learner's decline turn
QUIZ_ANSWER = "quiz_answer"  # on the learner's answer: {"call_id", "choice", "correct"}
ASK_ANSWER = "ask_answer"  # on the learner's reply to an ask: {"call_id"}
TURN_STOPPED = "turn_stopped"  # on an agent reply the learner stopped while it streamed

# Tool names the tutor knows about (the schemas live in tools.py).
ASK = "ask"
QUIZ = "quiz"
PROBE_DONE = "probe_done"
PLAN_INIT = "plan_init"
QUESTION_TOOLS = frozenset({ASK, QUIZ})


@dataclass(frozen=True)
class Message:
    """One transcript message; ``parts`` is coerced to a tuple of dicts."""

    role: str
    content: str = ""
    parts: tuple[Mapping[str, Any], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "parts", tuple(self.parts))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (what the store persists)."""
        return {"role": self.role, "content": self.content, "parts": [dict(p) for p in self.parts]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        """The inverse of :meth:`to_dict`; missing keys take their defaults."""
        return cls(
            role=str(data.get("role", "")),
            content=str(data.get("content") or ""),
            parts=tuple(data.get("parts") or ()),
        )


class RowLike(Protocol):
    """Any row with the transcript's three fields, read-only (the store's rows are frozen)."""

    @property
    def role(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def parts(self) -> Sequence[Mapping[str, Any]]: ...


MessageLike = Message | RowLike | Mapping[str, Any]


# --- readers (tolerant of dicts and of malformed rows) -------------------------------


def role_of(message: MessageLike) -> str:
    """The message's role, or '' when it has none."""
    value = message.get("role") if isinstance(message, Mapping) else getattr(message, "role", "")
    return value if isinstance(value, str) else ""


def content_of(message: MessageLike) -> str:
    """The message's text, or ''."""
    value = (
        message.get("content") if isinstance(message, Mapping) else getattr(message, "content", "")
    )
    return value if isinstance(value, str) else ""


def parts_of(message: MessageLike) -> tuple[Mapping[str, Any], ...]:
    """The message's parts that are mappings (anything else is skipped)."""
    value = message.get("parts") if isinstance(message, Mapping) else getattr(message, "parts", ())
    if not isinstance(value, Iterable) or isinstance(value, (str, bytes, Mapping)):
        return ()
    return tuple(part for part in value if isinstance(part, Mapping))


def arguments_of(call: Mapping[str, Any]) -> dict[str, Any]:
    """A tool call's arguments as a dict; a JSON string is decoded, junk gives {}."""
    value = call.get("arguments")
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return {}
    return dict(value) if isinstance(value, Mapping) else {}


def iter_parts(
    messages: Sequence[MessageLike], part_type: str | None = None
) -> Iterator[tuple[int, MessageLike, Mapping[str, Any]]]:
    """Yield ``(message index, message, part)`` in order, optionally of one type."""
    for index, message in enumerate(messages):
        for part in parts_of(message):
            if part_type is None or part.get("type") == part_type:
                yield index, message, part


# --- constructors --------------------------------------------------------------------


def tool_call(call_id: str, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """A tool call part (carried by an assistant message)."""
    return {"type": TOOL_CALL, "id": call_id, "name": name, "arguments": dict(arguments)}


def tool_result(call_id: str, name: str, ok: bool, result: Any) -> dict[str, Any]:
    """A tool result part (carried by a tool message)."""
    return {"type": TOOL_RESULT, "call_id": call_id, "name": name, "ok": ok, "result": result}


def plan_accepted(plan_version: int) -> dict[str, Any]:
    """The learner accepted the presented plan (version = count of plans presented)."""
    return {"type": PLAN_ACCEPTED, "plan_version": plan_version}


def plan_declined() -> dict[str, Any]:
    """The learner declined the presented plan and wants a revision."""
    return {"type": PLAN_DECLINED}


DONT_KNOW = -1
"""The ``choice`` of a quiz answered "I don't know" (graded wrong, remembered as a mistake)."""


def quiz_answer(call_id: str, choice: int, correct: bool) -> dict[str, Any]:
    """The learner picked ``choice`` (0-based, or :data:`DONT_KNOW`) for the quiz ``call_id``."""
    return {"type": QUIZ_ANSWER, "call_id": call_id, "choice": choice, "correct": correct}


def ask_answer(call_id: str) -> dict[str, Any]:
    """Marks a user message as the reply to the ask ``call_id``."""
    return {"type": ASK_ANSWER, "call_id": call_id}


def user(content: str, *parts: Mapping[str, Any]) -> Message:
    """A learner message."""
    return Message(USER, content, parts)


def assistant(content: str = "", *parts: Mapping[str, Any]) -> Message:
    """An agent message (text and/or tool calls)."""
    return Message(ASSISTANT, content, parts)


def tool(call_id: str, name: str, ok: bool, result: Any) -> Message:
    """A tool message carrying one result part; its content is what the model reads."""
    text = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False, default=str)
    return Message(TOOL, text, (tool_result(call_id, name, ok, result),))
