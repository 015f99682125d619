"""Tolerant extraction of one JSON object from a model's reply.

Small models wrap JSON in code fences, prose or both. ``extract_json`` finds the
first balanced ``{...}`` that parses, whatever surrounds it, and raises a typed
error otherwise. Pure: text in, dict out.
"""

from __future__ import annotations

import json
import re

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


class JSONExtractError(ValueError):
    """The reply held no usable JSON object."""


class EmptyReplyError(JSONExtractError):
    """The model answered with nothing (or only whitespace)."""


class NoJSONError(JSONExtractError):
    """The model answered, but no JSON object could be found in the text."""


def _balanced_objects(text: str):
    """Yield each top-level balanced ``{...}`` span, honouring JSON strings."""
    depth = 0
    start = -1
    in_string = False
    escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"' and depth > 0:
            in_string = True
        elif char == "{":
            if depth == 0:
                start = index
            depth += 1
        elif char == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                yield text[start : index + 1]


def extract_json(text: str | None) -> dict:
    """The first JSON object in ``text``.

    Raises :class:`EmptyReplyError` for an empty reply and :class:`NoJSONError`
    when nothing in it parses as an object.
    """
    if text is None or not text.strip():
        raise EmptyReplyError("the model returned an empty reply")
    candidates: list[str] = [match.group(1) for match in _FENCE.finditer(text)]
    candidates.append(text)
    for candidate in candidates:
        stripped = candidate.strip()
        try:
            value = json.loads(stripped)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, dict):
            return value
        for span in _balanced_objects(candidate):
            try:
                value = json.loads(span)
            except (ValueError, RecursionError):
                continue
            if isinstance(value, dict):
                return value
    raise NoJSONError("the model's reply held no JSON object")
