"""Today's tasks, from wherever the owner keeps them.

Every provider's ``today()`` returns a list of clean one-line strings and never
raises: a missing file or a failing command is an empty list (and one log
line), because the frame must degrade, not break.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from keeltui.text.textsafe import one_line
from keeltui.ambient.ports import TaskProvider

from .complaint import Complaint
from .proc import CommandFailed, run_bounded

log = logging.getLogger("keeltui.adapters.tasks")

TASK_KINDS = ("markdown", "todotxt", "command", "none")
TASK_LIMIT = 300  # characters per task
MAX_TASKS = 200  # the frame clips anyway; this bounds the work
READ_LIMIT = 1_000_000  # characters read from a task file


def _read(path: Path, complaint: Complaint) -> str | None:
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            text = handle.read(READ_LIMIT)
    except OSError as exc:
        complaint.failed(f"cannot read {path}: {exc.strerror or exc}")
        return None
    complaint.ok()
    return text


def _keep(items: list[str]) -> list[str]:
    cleaned = (one_line(item, TASK_LIMIT) for item in items)
    return [item for item in cleaned if item][:MAX_TASKS]


# "- [ ] text" or "* [ ] text" (also "+", indented sub-items included).
_UNCHECKED = re.compile(r"^\s*[-*+]\s+\[ \]\s+(.*\S)\s*$")


class MarkdownChecklist:
    """Unchecked ``- [ ]`` / ``* [ ]`` items of a Markdown file."""

    name = "markdown"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self._complaint = Complaint(log, "markdown tasks")

    def today(self) -> list[str]:
        text = _read(self.path, self._complaint)
        if text is None:
            return []
        return _keep([m.group(1) for m in map(_UNCHECKED.match, text.splitlines()) if m])


_PRIORITY = re.compile(r"^\([A-Z]\)\s+")
_LEADING_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}\s+")
# Dates elsewhere: bare ones and key:value tags such as due:2025-01-31 or t:….
_DATE_TOKEN = re.compile(r"(?<!\S)(?:[A-Za-z]+:)?\d{4}-\d{2}-\d{2}(?!\S)")


def parse_todotxt_line(line: str) -> str:
    """The text of one open todo.txt task ("" for done, blank or empty lines)."""
    text = line.strip()
    if not text or text.startswith("x "):
        return ""
    text = _PRIORITY.sub("", text)
    text = _LEADING_DATE.sub("", text)
    text = _LEADING_DATE.sub("", text)  # completion + creation dates may both lead
    text = _DATE_TOKEN.sub("", text)
    return " ".join(text.split())


class TodoTxt:
    """Open tasks of a todo.txt file, priority and dates stripped."""

    name = "todotxt"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self._complaint = Complaint(log, "todo.txt tasks")

    def today(self) -> list[str]:
        text = _read(self.path, self._complaint)
        if text is None:
            return []
        return _keep([parse_todotxt_line(line) for line in text.splitlines()])


class CommandTasks:
    """One task per non-empty output line of a shell command."""

    name = "command"

    def __init__(self, command: str, *, timeout: float = 5.0) -> None:
        self.command = command
        self._timeout = timeout
        self._complaint = Complaint(log, f"task command {command!r}")

    def today(self) -> list[str]:
        try:
            out = run_bounded(self.command, shell=True, timeout=self._timeout)
        except CommandFailed as exc:
            self._complaint.failed(str(exc))
            return []
        self._complaint.ok()
        return _keep(out.stdout.splitlines())


class NoTasks:
    """No task source configured."""

    name = "none"

    def today(self) -> list[str]:
        return []


def make_task_provider(kind: str, source: str = "") -> TaskProvider:
    """The provider for ``tasks.kind``; ``source`` is the file path or command.

    An unknown kind is a ValueError (a config mistake); a kind with an empty
    source degrades to :class:`NoTasks`.
    """
    kind = (kind or "").strip().lower()
    if kind not in TASK_KINDS:
        raise ValueError(f"unknown task provider {kind!r}: allowed values are {', '.join(TASK_KINDS)}")
    if kind == "none" or not (source or "").strip():
        return NoTasks()
    if kind == "markdown":
        return MarkdownChecklist(source)
    if kind == "todotxt":
        return TodoTxt(source)
    return CommandTasks(source)
