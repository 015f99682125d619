"""The room's conversation controls, decided on rows. Pure.

Stop, retry, regenerate and edit act on the *last exchange*: the newest
conversation turn (system lines and earlier versions are not turns) and the user
turn it answers. An answer that is replaced is kept, marked ``superseded`` (an
earlier version, shown folded and never sent to the model again); a stopped reply
keeps its text, marked ``stopped``.
"""

from __future__ import annotations

from typing import Protocol
from collections.abc import Sequence

from keeltui.chief.context import StoredRow

STOPPED = "stopped"
SUPERSEDED = "superseded"
# A reply that did not finish on its own: retry offers to ask again.
UNFINISHED = ("error", "partial", STOPPED)


class Row(StoredRow, Protocol):
    @property
    def reply_to(self) -> int | None: ...


def is_turn(row: Row) -> bool:
    """A conversation turn that still counts (not a system line, not an earlier version)."""
    return row.turn_kind is None and row.status != SUPERSEDED


def last_exchange(rows: Sequence[Row]) -> tuple[Row | None, Row | None]:
    """``(user turn, its reply or None)`` for the newest turn in ``rows`` (oldest first)."""
    turns = [row for row in rows if is_turn(row)]
    if not turns:
        return None, None
    newest = turns[-1]
    if newest.role == "user":
        return newest, None
    users = [row for row in turns if row.role == "user" and row.id < newest.id]
    asked = next((row for row in users if row.id == newest.reply_to), users[-1] if users else None)
    return asked, newest


def can_retry(user: Row | None, reply: Row | None) -> bool:
    """There is a user turn whose answer failed, was cut or stopped (or never came)."""
    return user is not None and (reply is None or reply.status in UNFINISHED)


def can_regenerate(user: Row | None, reply: Row | None) -> bool:
    """There is a settled reply to ask for again."""
    return user is not None and reply is not None and reply.status != "streaming"


def can_edit(user: Row | None, reply: Row | None) -> bool:
    return user is not None and (reply is None or reply.status != "streaming")
