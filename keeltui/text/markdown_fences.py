"""Markdown that stays valid when pasted together: close what a message left open. Pure.

A message may end inside a code fence (a reply cut off mid-code, a pasted snippet).
Exported as it is, that fence would swallow every message after it. The fence is
closed with a run of its own character longer than any run inside the message, which
CommonMark accepts as a closing fence and nothing inside can be mistaken for.
"""

from __future__ import annotations

import re

_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def _longest_run(text: str, char: str) -> int:
    runs = re.findall(re.escape(char) + "+", text)
    return max((len(run) for run in runs), default=0)


def open_fence(text: str) -> str | None:
    """The fence (e.g. "```") still open at the end of ``text``, or None."""
    current: str | None = None
    for line in text.split("\n"):
        match = _OPEN.match(line)
        if current is None:
            # A backtick fence's info string may not contain a backtick (CommonMark).
            if match and not (match.group(1)[0] == "`" and "`" in match.group(2)):
                current = match.group(1)
        elif match and match.group(1)[0] == current[0] and len(match.group(1)) >= len(current) \
                and not match.group(2).strip():
            current = None
    return current


def close_open_fence(text: str) -> str:
    """``text`` with a fence it left open closed at its end (unchanged otherwise)."""
    fence = open_fence(text)
    if fence is None:
        return text
    char = fence[0]
    closing = char * max(len(fence), _longest_run(text, char) + 1)
    return f"{text.rstrip(chr(10))}\n{closing}"
