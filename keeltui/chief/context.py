"""What the Chief's model sees, and when the room compacts. Pure.

The room is endless: when a turn's context fraction reaches ``chief.compact_at``, the
older turns are summarised into a ``summary`` row, and every later context is the
system prompt + the latest summary + the rows after it. Reports enter the context as
clearly marked background notes, never as the companion's own words.
"""

from __future__ import annotations

from keeltui.infra.records import record
from typing import Protocol
from collections.abc import Sequence

from keeltui.chief.turn_kinds import NOTICE, PERSONA, SUMMARY, badge

SUMMARY_INSTRUCTIONS = (
    "Summarise the conversation below for your own later use. Keep decisions, open "
    "questions, commitments, names, numbers and the owner's preferences; drop small "
    "talk. Write plain prose under 250 words. Lines marked as background reports were "
    "not said by either party; mention them only if they matter."
)


class StoredRow(Protocol):
    """What every reader of a room row needs (read-only: the store's Row is a frozen dataclass)."""

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


class Row(StoredRow, Protocol):
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
    if row.status == "superseded":
        return None  # an earlier version the owner replaced (regenerated or edited)
    if row.turn_kind is None:
        if row.role not in ("user", "assistant") or not row.content:
            return None
        return {"role": row.role, "content": row.content}
    if row.turn_kind in (SUMMARY, NOTICE, PERSONA):
        # Summaries are handled apart; notices are the app talking to the owner; the persona
        # already stands in the system prompt.
        return None
    return {
        "role": "user",
        "content": f"[background report — {badge(row.turn_kind)}; not said by you or the owner]\n{row.content}",
    }


@record(frozen=True)
class ChiefContext:
    messages: list[dict]
    summary_id: int | None


# The model's window is counted in tokens; keeltui estimates them at 4 characters each
# (keeltui.brain.estimate_tokens), so character budgets below are window * 4.
CHARS_PER_TOKEN = 4
ROW_SHARE = 0.25
"""No single row may take more than this share of the window: one huge report cannot crowd out the rest."""
FIT_SHARE = 0.85
"""What a call's messages may fill of the window; the rest is left for the reply."""
MIN_ROW_CHARS = 400


def cut_marker(dropped: int) -> str:
    return f"\n… [cut here: {dropped} more characters are in the room but not shown to you]"


def cut_text(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: its head, then a marker saying how much was left out."""
    if len(text) <= limit:
        return text
    marker = cut_marker(len(text))  # sized with the widest count, so the result stays within limit
    head = max(0, limit - len(marker))
    return text[:head] + cut_marker(len(text) - head)


def row_limit(window_tokens: int) -> int:
    """Characters one row may bring into a context of ``window_tokens``."""
    return max(MIN_ROW_CHARS, int(window_tokens * CHARS_PER_TOKEN * ROW_SHARE))


def message_chars(message: dict) -> int:
    content = message.get("content") or ""
    return len(content) if isinstance(content, str) else len(str(content))


def estimate_fraction(messages: Sequence[dict], window_tokens: int) -> float:
    """The share of the window these messages fill, by keeltui's 4-characters-a-token estimate."""
    chars = sum(message_chars(m) for m in messages)
    return (chars / CHARS_PER_TOKEN) / window_tokens if window_tokens > 0 else 0.0


def fit_to_window(messages: list[dict], window_tokens: int, share: float = FIT_SHARE) -> list[dict]:
    """Messages bounded by the window: every row cut to its share, then the oldest turns dropped.

    The leading system messages (prompt, summary) and the newest message (the owner's
    turn being answered) always stay; they are cut if they alone are too big. Dropped
    turns are still in the room (and in the summaries); only this call leaves them out.
    """
    if window_tokens <= 0:
        return list(messages)
    budget = int(window_tokens * CHARS_PER_TOKEN * share)
    limit = min(row_limit(window_tokens), max(MIN_ROW_CHARS, budget // 2))
    cut = [
        {**m, "content": cut_text(m["content"], limit)} if isinstance(m.get("content"), str) else dict(m)
        for m in messages
    ]
    head = 0
    while head < len(cut) - 1 and cut[head].get("role") == "system":
        head += 1
    fixed, middle, last = cut[:head], cut[head:-1], cut[-1:]
    if not cut or head == len(cut):
        fixed, middle, last = cut, [], []
    size = sum(message_chars(m) for m in fixed + middle + last)
    dropped = 0
    while middle and size > budget:
        size -= message_chars(middle.pop(0))
        dropped += 1
    if dropped and middle and middle[0].get("role") == "assistant":
        size -= message_chars(middle.pop(0))  # a context starts with the owner, not a dangling reply
    if size > budget:
        # Even the prompt, summary and the newest turn overflow: share what is left between them.
        share_each = max(MIN_ROW_CHARS, budget // max(1, len(fixed) + len(last)))
        fixed = [{**m, "content": cut_text(m["content"], share_each)} for m in fixed]
        last = [{**m, "content": cut_text(m["content"], share_each)} for m in last]
    return fixed + middle + last


def build_context(
    system_prompt: str,
    rows: Sequence[Row],
    latest_summary: Row | None,
    window_tokens: int = 0,
    share: float = FIT_SHARE,
) -> ChiefContext:
    """System prompt + latest summary + the rows after it (rows are oldest first).

    With ``window_tokens``, the result is bounded by the window (see :func:`fit_to_window`).
    """
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
    if window_tokens > 0:
        messages = fit_to_window(messages, window_tokens, share)
    return ChiefContext(messages, latest_summary.id if latest_summary else None)


def needs_compaction(fraction: float, compact_at: float) -> bool:
    return fraction >= compact_at


def compaction_cut(rows: Sequence[Row], covers_to: int | None, keep_recent: int) -> int | None:
    """The id of the last row the new summary should cover, or None if too little to fold.

    Covers everything after the previous summary except the latest ``keep_recent``
    conversation turns, which stay verbatim (and, with no more turns than that, what
    came after the first of them).
    """
    start = covers_to or 0
    candidates = [row for row in rows if row.id > start]
    # A reply still streaming is not a turn yet: counting it as the one to keep would
    # fold away the question it answers.
    conversation = [row for row in candidates if is_conversation(row) and row.status != "streaming"]
    if not conversation:
        return None
    # With no more turns than are kept, all of them stay, and what came before the first
    # (a long run of reports) is still folded: left out of the context, it would be lost.
    first_kept = conversation[-keep_recent].id if len(conversation) > keep_recent else conversation[0].id
    covered = [row for row in candidates if row.id < first_kept]
    return covered[-1].id if covered else None


def summary_request(
    rows: Sequence[Row], previous_summary: Row | None, up_to_id: int, window_tokens: int = 0
) -> list[dict]:
    """The messages that ask the brain for a summary covering rows up to ``up_to_id``.

    With ``window_tokens``, the request is bounded too (see :func:`_fit_summary_lines`):
    the call that relieves an overflowing context must not overflow itself.
    """
    lines: list[str] = []
    if previous_summary is not None:
        lines.append(f"Earlier summary:\n{previous_summary.content}\n")
    start = summary_covers(previous_summary) if previous_summary else 0
    for row in rows:
        if row.id <= start or row.id > up_to_id:
            continue
        if row.turn_kind is None and row.content and row.status != "superseded":
            lines.append(f"{row.role}: {row.content}")
        elif row.turn_kind not in (None, SUMMARY, NOTICE, PERSONA):
            lines.append(f"[background report — {badge(row.turn_kind)}]: {row.content}")
    if window_tokens > 0:
        lines = _fit_summary_lines(lines, window_tokens, keep_first=previous_summary is not None)
    return [
        {"role": "system", "content": SUMMARY_INSTRUCTIONS},
        {"role": "user", "content": "\n".join(lines)},
    ]


def _fit_summary_lines(lines: list[str], window_tokens: int, keep_first: bool) -> list[str]:
    """Every line cut to a row's share; then, if still too long, the oldest lines give way
    (the earlier summary, when ``keep_first``, stays) with a line saying how many."""
    limit = row_limit(window_tokens)
    lines = [cut_text(line, limit) for line in lines]
    head, rest = (lines[:1], lines[1:]) if keep_first else ([], lines)
    budget = int(window_tokens * CHARS_PER_TOKEN * FIT_SHARE) - len(SUMMARY_INSTRUCTIONS)
    size = sum(len(line) + 1 for line in head + rest)
    dropped = 0
    while rest and size > budget:
        size -= len(rest.pop(0)) + 1
        dropped += 1
    if dropped:
        head.append(f"[{dropped} earlier lines left out: they did not fit]")
    return head + rest


def fitting_cut(rows: Sequence[Row], previous_summary: Row | None, up_to_id: int, window_tokens: int) -> int:
    """The newest row id, at most ``up_to_id``, whose summary request fits ``window_tokens``
    whole (no line left out). Folding in steps of this size means every row reaches a
    summary: a request cut to fit would drop its oldest lines unsummarised."""
    start = summary_covers(previous_summary) if previous_summary else 0
    ids = [row.id for row in rows if start < row.id <= up_to_id]
    if window_tokens <= 0 or not ids:
        return up_to_id

    def fits(cut: int) -> bool:
        content = summary_request(rows, previous_summary, cut, 0)[-1]["content"]
        lines = content.split("\n") if content else []
        budget = int(window_tokens * CHARS_PER_TOKEN * FIT_SHARE) - len(SUMMARY_INSTRUCTIONS)
        limit = row_limit(window_tokens)
        return sum(min(len(line), limit) + 1 for line in lines) <= budget

    if fits(up_to_id):
        return up_to_id
    low, high = 0, len(ids) - 1  # ids[low] always fits: one row is cut to a row's share
    while low < high:
        middle = (low + high + 1) // 2
        if fits(ids[middle]):
            low = middle
        else:
            high = middle - 1
    return ids[low]
