"""Replies left half-written by a process that died (kill -9, SIGTERM, SIGHUP, a crash).

A streaming reply row carries a ``writer`` part naming the process that streams it.
A row still ``streaming`` whose writer is gone will never be finished: it is settled
as cut off (its partial text kept) instead of standing as an empty box for ever. Pure:
the caller hands in its own pid and the liveness probe (keeltui/adapters/process_probe.py).
"""

from __future__ import annotations

from dataclasses import replace
from collections.abc import Callable

from keeltui.chief.failure_words import CLOSED, error_part

WRITER_PART = "writer"
CUT_OFF_MESSAGE = "cut off: the keeltui process writing this reply stopped before it finished"


def writer_pid(parts: list) -> int | None:
    for part in parts or ():
        if isinstance(part, dict) and part.get("type") == WRITER_PART and isinstance(part.get("pid"), int):
            return part["pid"]
    return None


def is_orphan(parts: list, own_pid: int, alive: Callable[[int], bool]) -> bool:
    """Whether a ``streaming`` row with these parts has no live writer.

    A row from a build that recorded no writer is an orphan: it cannot be finished.
    """
    pid = writer_pid(parts)
    if pid is None:
        return True
    if pid == own_pid:
        return False
    return not alive(pid)


def settled_parts(parts: list) -> list:
    kept = [p for p in parts or () if not (isinstance(p, dict) and p.get("type") == WRITER_PART)]
    return [*kept, error_part(CLOSED, CUT_OFF_MESSAGE)]


def as_settled(row, own_pid: int, alive: Callable[[int], bool]):
    """``row`` as a reader should show it: an orphaned stream reads as cut off."""
    if row.status != "streaming" or not is_orphan(row.parts, own_pid, alive):
        return row
    return replace(row, status="partial" if row.content else "error", parts=settled_parts(row.parts))
