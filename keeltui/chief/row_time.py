"""When a room row was written, in words: its clock time, its day's label, a report's source. Pure.

Local time. ``now`` is handed in (the room's clock adapter), so a test can say what
"today" is; nothing here reads the wall clock.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from keeltui.chief.turn_kinds import CHIEF_REPORT_PREFIX, COOP, FOLLOWUP, TASK


def local_day(ts: float) -> date:
    return datetime.fromtimestamp(ts).date()


def clock(ts: float) -> str:
    """The row's time of day: "14:02" (nothing for a row without a time)."""
    return datetime.fromtimestamp(ts).strftime("%H:%M") if ts > 0 else ""


def day_label(ts: float, now: float) -> str:
    """"Today", "Yesterday", or the day itself: "Mon 30 Nov" (with the year if not this one)."""
    day, today = local_day(ts), local_day(now)
    if day == today:
        return "Today"
    if day == today - timedelta(days=1):
        return "Yesterday"
    when = datetime.fromtimestamp(ts)
    label = f"{when:%a} {when.day} {when:%b}"
    return label if day.year == today.year else f"{label} {day.year}"


def starts_day(previous: float | None, ts: float) -> bool:
    """Whether a row written at ``ts`` is the first of its day (after one written at ``previous``)."""
    if ts <= 0:
        return False
    return previous is None or previous <= 0 or local_day(previous) != local_day(ts)


def report_source(turn_kind: str | None, source: str | None) -> str:
    """Where a report came from, as its row shows it ("cron:backup"); nothing for other rows."""
    if turn_kind not in (TASK, COOP, FOLLOWUP) or not source:
        return ""
    return source.removeprefix(CHIEF_REPORT_PREFIX)
