"""What the Chief's model sees, and when the room compacts. Pure.

The room is endless: when a turn's context fraction reaches ``chief.compact_at``, the
older turns are summarised into a ``summary`` row, and every later context is the
system prompt + the latest summary + the rows after it. Reports enter the context as
clearly marked background notes, never as the companion's own words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

from keeltui.chief.turn_kinds import NOTICE, SUMMARY, badge

SUMMARY_INSTRUCTIONS = (
    "Summarise the conversation below for your own later use. Keep decisions, open "
    "questions, commitments, names, numbers and the owner's preferences; drop small "
    "talk. Write plain prose under 250 words. Lines marked as background reports were "
    "not said by either party; mention them only if they matter."
)


class Row(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def role(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def turn_kind(self) -> str | None: ...
    @property
    def status(self) -> str: ...
    @property
    def parts(self) -> list: ...


def summary_covers(summary: Row) -> int:
    """The id of the last row a summary folds in (older summaries: the summary itself)."""
    for part in summary.parts or ():
        if part.get("type") == "summary" and isinstance(part.get("covers_to"), int):
            return part["covers_to"]
    return summary.id


def summary_parts(covers_to: int) -> list[dict]:
    return [{"type": "summary", "covers_to": covers_to}]


def is_conversation(row: Row) -> bool:
    return row.turn_kind is None


def reply_to(rows: Sequence[Row], user_row_id: int) -> Row | None:
    """The reply to a user turn: the next *conversation* row after it.

    System lines that landed in between (a report arriving while the reply streamed)
    are never the answer.
    """
    seen = False
    for row in rows:
        if row.id == user_row_id:
            seen = True
            continue
        if seen and is_conversation(row):
            return row if row.role == "assistant" else None
    return None


def _as_message(row: Row) -> dict | None:
    if row.turn_kind is None:
        if row.role not in ("user", "assistant") or not row.content:
            return None
        return {"role": row.role, "content": row.content}
    if row.turn_kind in (SUMMARY, NOTICE):
        return None  # summaries are handled apart; notices are the app talking to the owner
    return {
        "role": "user",
        "content": f"[background report — {badge(row.turn_kind)}; not said by you or the owner]\n{row.content}",
    }


@dataclass(frozen=True)
class ChiefContext:
    messages: list[dict]
    summary_id: int | None


def build_context(system_prompt: str, rows: Sequence[Row], latest_summary: Row | None) -> ChiefContext:
    """System prompt + latest summary + the rows after it (rows are oldest first)."""
    messages: list[dict] = [{"role": "system", "content": system_prompt}]
    start_after = 0
    if latest_summary is not None:
        messages.append({
            "role": "system",
            "content": f"Summary of the earlier conversation (written by you):\n{latest_summary.content}",
        })
        start_after = summary_covers(latest_summary)
    for row in rows:
        if row.id <= start_after or row is latest_summary:
            continue
        message = _as_message(row)
        if message is not None:
            messages.append(message)
    return ChiefContext(messages, latest_summary.id if latest_summary else None)


def needs_compaction(fraction: float, compact_at: float) -> bool:
    return fraction >= compact_at


def compaction_cut(rows: Sequence[Row], covers_to: int | None, keep_recent: int) -> int | None:
    """The id of the last row the new summary should cover, or None if too little to fold.

    Covers everything after the previous summary except the latest ``keep_recent``
    conversation turns, which stay verbatim.
    """
    start = covers_to or 0
    candidates = [row for row in rows if row.id > start]
    conversation = [row for row in candidates if is_conversation(row)]
    if len(conversation) <= keep_recent:
        return None
    first_kept = conversation[-keep_recent].id
    covered = [row for row in candidates if row.id < first_kept]
    return covered[-1].id if covered else None


def summary_request(rows: Sequence[Row], previous_summary: Row | None, up_to_id: int) -> list[dict]:
    """The messages that ask the brain for a summary covering rows up to ``up_to_id``."""
    lines: list[str] = []
    if previous_summary is not None:
        lines.append(f"Earlier summary:\n{previous_summary.content}\n")
    start = summary_covers(previous_summary) if previous_summary else 0
    for row in rows:
        if row.id <= start or row.id > up_to_id:
            continue
        if row.turn_kind is None and row.content:
            lines.append(f"{row.role}: {row.content}")
        elif row.turn_kind not in (None, SUMMARY, NOTICE):
            lines.append(f"[background report — {badge(row.turn_kind)}]: {row.content}")
    return [
        {"role": "system", "content": SUMMARY_INSTRUCTIONS},
        {"role": "user", "content": "\n".join(lines)},
    ]
