"""A report into the room, within ``chief.report_max_chars``; nothing of it lost.

A 20 MB cron log must not become a 20 MB row: the room would draw it and every later
context would carry it. The room gets the head of an oversized report and a line
saying where the rest is; the whole text is kept in the database (an event of kind
``report_overflow``), so nothing the job said is lost. Textual-free.
"""

from __future__ import annotations

from dataclasses import dataclass

OVERFLOW_EVENT = "report_overflow"


@dataclass(frozen=True)
class Delivered:
    row_id: int
    note: str | None = None
    """One line for the sender when the report was cut (None when it fit)."""


def cut_report(text: str, limit: int, event_id: int) -> str:
    """The head of ``text`` and a marker, within ``limit`` characters. Pure."""
    marker = (f"\n… [report cut at {limit} characters by chief.report_max_chars: all {len(text)} "
              f"are kept in the database, event {OVERFLOW_EVENT} #{event_id}]")
    head = text[: max(0, limit - len(marker))]
    return head.rstrip() + marker


def deliver_report(store, source: str, text: str, limit: int) -> Delivered:
    """Append a report (as the owner); an oversized one is cut in the room and kept whole aside."""
    if len(text) <= limit:
        return Delivered(store.add_report(source, text))
    # The whole text first: if the disk fills up between the two writes, nothing is lost.
    event_id = store.add_event(OVERFLOW_EVENT, {"source": source, "chars": len(text), "text": text})
    row_id = store.add_report(source, cut_report(text, limit, event_id))
    note = (f"report: {len(text)} characters is over chief.report_max_chars ({limit}); the room shows "
            f"the first part, the whole text is kept in {store.path} (event {OVERFLOW_EVENT} #{event_id})")
    return Delivered(row_id, note)
