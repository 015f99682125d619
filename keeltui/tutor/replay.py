"""Replay a stored tutor transcript as OpenAI chat messages.

The store keeps a session as rows with parts (see :mod:`.transcript`); the model reads
the chat-completions tool protocol: an assistant message with ``tool_calls``, then one
``tool`` message per call carrying its ``tool_call_id``. This module is the one place
that translates between the two, so what the model saw can always be rebuilt exactly.

The learner's structured parts (a quiz answer, a plan verdict) never reach the model as
parts: it reads only the row's text. Pure: rows in, dicts out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .transcript import (
    ASSISTANT,
    PLAN_ACCEPTED,
    PLAN_DECLINED,
    QUIZ_ANSWER,
    TOOL,
    TOOL_CALL,
    TOOL_RESULT,
    USER,
    MessageLike,
    content_of,
    parts_of,
    role_of,
)

__all__ = ["MISSING_RESULT", "model_messages", "user_text"]

# A call whose result row was never written (a crash between the two writes) still needs
# a tool message, or the endpoint rejects the whole request.
MISSING_RESULT = "error: this call was never run (keeltui stopped before it finished)"


def user_text(message: MessageLike) -> str:
    """What the model reads for a learner row: its text, or words for a bare part."""
    text = content_of(message)
    if text.strip():
        return text
    for part in parts_of(message):
        kind = part.get("type")
        if kind == QUIZ_ANSWER and isinstance(part.get("choice"), int):
            return f"I chose option {part['choice'] + 1}."
        if kind == PLAN_ACCEPTED:
            return "I accept the plan."
        if kind == PLAN_DECLINED:
            return "I decline the plan. Please revise it."
    return text


def _call_parts(message: MessageLike) -> list[Mapping[str, Any]]:
    """The well-formed tool call parts of an assistant row (an id and a name)."""
    return [
        part
        for part in parts_of(message)
        if part.get("type") == TOOL_CALL
        and isinstance(part.get("id"), str)
        and isinstance(part.get("name"), str)
        and part["name"]
    ]


def _arguments_text(call: Mapping[str, Any]) -> str:
    """The arguments as the JSON text the protocol wants; a raw model string is kept."""
    value = call.get("arguments")
    if isinstance(value, str):
        return value
    return json.dumps(value if value is not None else {}, ensure_ascii=False)


def _openai_call(call: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "id": call["id"],
        "type": "function",
        "function": {"name": call["name"], "arguments": _arguments_text(call)},
    }


def model_messages(system_prompt: str, messages: Sequence[MessageLike]) -> list[dict[str, Any]]:
    """The chat-completions ``messages`` for a transcript, system prompt first.

    Every assistant tool call is followed by exactly one ``tool`` message with its id,
    in call order; tool rows without a preceding call are dropped (the protocol forbids
    them), as are assistant rows with neither text nor calls.
    """
    out: list[dict[str, Any]] = [{"role": "system", "content": system_prompt}]
    rows = list(messages)
    index = 0
    while index < len(rows):
        message = rows[index]
        role = role_of(message)
        index += 1
        if role == USER:
            out.append({"role": "user", "content": user_text(message)})
            continue
        if role != ASSISTANT:
            continue  # orphan tool rows and unknown roles
        text = content_of(message)
        calls = _call_parts(message)
        if not calls:
            if text.strip():
                out.append({"role": "assistant", "content": text})
            continue
        out.append(
            {
                "role": "assistant",
                "content": text or None,
                "tool_calls": [_openai_call(call) for call in calls],
            }
        )
        # The results are the tool rows right after the call (the service writes them so).
        results: dict[str, str] = {}
        while index < len(rows) and role_of(rows[index]) == TOOL:
            for part in parts_of(rows[index]):
                call_id = part.get("call_id")
                if part.get("type") == TOOL_RESULT and isinstance(call_id, str):
                    results.setdefault(call_id, content_of(rows[index]))
            index += 1
        for call in calls:
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": call["id"],
                    "content": results.get(call["id"], MISSING_RESULT),
                }
            )
    return out
