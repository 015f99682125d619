"""The room as text, for review over SSH: ``keeltui log`` and ``keeltui export``. Pure."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable

from keeltui.chief.failure_words import failure_words
from keeltui.chief.thinking import thought_label
from keeltui.chief.turn_kinds import badge
from keeltui.text.markdown_fences import close_open_fence
from keeltui.text.textsafe import clean_text

_TEAL = "\x1b[48;5;23m\x1b[38;5;159m"
_BOLD = "\x1b[1m"
_RESET = "\x1b[0m"
# Turns the owner stopped or replaced (Escape, regenerate, edit) are kept, and say so.
_MARKS = {"stopped": "stopped", "superseded": "earlier version"}
_LINES = re.compile(r"\n|\u2028|\u2029")
CONTINUED = "│ "
"""Before every later line of a multi-line row in ``keeltui log``: a row's text can never
start a line of its own, so no row can print what reads as another speaker's entry."""


def _continued(first: str, body: str) -> str:
    """``first`` + the body's first line, each later line indented under it and marked."""
    head, *rest = _LINES.split(body)
    pad = " " * len(_stamp(0)) + "  " + CONTINUED
    return "\n".join([first + head, *(pad + line for line in rest)])


def _stamp(created_at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(created_at))


def _speaker(row, owner: str, companion: str) -> str:
    return owner if row.role == "user" else companion


def _thinking(row) -> str:
    return clean_text(getattr(row, "thinking", "") or "").strip()


def format_log(rows: Iterable, owner: str, companion: str, *, color: bool = False, thinking: bool = False) -> list[str]:
    """One entry per row: system lines behind their badge in brackets. A reply's thinking
    only when asked (``thinking``), in brackets before its text."""
    lines: list[str] = []
    for row in rows:
        body = clean_text(row.content)
        if thinking and _thinking(row):
            body = f"[{thought_label(getattr(row, 'thought_secs', None))}: {_thinking(row)}] {body}"
        if row.turn_kind:
            label = f"[{badge(row.turn_kind)}]"
            if color:
                label = f"{_TEAL}{label}{_RESET}"
        else:
            label = f"{_speaker(row, owner, companion)}:"
            if color:
                label = f"{_BOLD}{label}{_RESET}"
            if row.status in ("partial", "error"):
                body += f" [{failure_words(row.status, getattr(row, 'parts', None))}]"
            elif row.status in _MARKS:
                body += f" [{_MARKS[row.status]}]"
        lines.append(_continued(f"{_stamp(row.created_at)}  {label} ", body))
    return lines


def format_markdown(rows: Iterable, owner: str, companion: str, *, thinking: bool = False) -> str:
    """The room as Markdown; a reply's thinking (when asked) as a folded ``<details>`` block."""
    out = ["# The Chief room", ""]
    for row in rows:
        body = clean_text(row.content)
        if thinking and _thinking(row):
            label = thought_label(getattr(row, "thought_secs", None))
            body = f"<details><summary>{label}</summary>\n\n{close_open_fence(_thinking(row))}\n\n</details>\n\n{body}"
        if row.turn_kind:
            quoted = "\n".join(f"> {line}" for line in body.splitlines() or [""])
            out.append(f"> **[{badge(row.turn_kind)}]** · {_stamp(row.created_at)}\n>\n{quoted}\n")
        else:
            # A fence the message left open would swallow every message after it.
            mark = f" · *{_MARKS[row.status]}*" if row.status in _MARKS else ""
            if row.status in ("partial", "error"):
                body += f"\n\n*[{failure_words(row.status, getattr(row, 'parts', None))}]*"
            out.append(f"**{_speaker(row, owner, companion)}** · {_stamp(row.created_at)}{mark}\n\n{close_open_fence(body)}\n")
    return "\n".join(out) + "\n"
