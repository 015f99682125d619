"""What a Chief row is, decided where the row is born.

A report's kind comes from its source key, never from its text; a compaction summary
is ``summary``; the app's own notices are ``notice``; a conversation turn has no kind
(None). The store calls these when it creates a row and when it backfills old rows.
"""

from __future__ import annotations

COOP = "coop"
FOLLOWUP = "followup"
TASK = "task"
SUMMARY = "summary"
NOTICE = "notice"
PERSONA = "persona"
"""The owner changed the Chief's system prompt (the row says to what)."""

SYSTEM_KINDS = (COOP, FOLLOWUP, TASK, SUMMARY, NOTICE, PERSONA)
# Not stored (a conversation turn's kind is None): the filter name for those turns.
CONVERSATION = "conversation"
# What `keeltui log --kind` and Store.query(kind=...) accept.
FILTER_KINDS = (CONVERSATION, *SYSTEM_KINDS)

CHIEF_REPORT_PREFIX = "chief-report:"
_COOP_SOURCE = "coop-notify:"
_FOLLOWUP_SOURCE = "followup:"
NOTICE_SOURCE = "app:notice"
SUMMARY_SOURCE = "app:summary"
FOCUS_SOURCE = "app:focus"
PERSONA_SOURCE = "app:persona"

# Summaries written by older builds carried only this text prefix; the backfill
# recognises them so that a restored backup marks itself.
SUMMARY_PREFIXES = ("[summary] ", "Summary of the conversation so far:")

BADGES = {
    COOP: "Coop",
    FOLLOWUP: "Follow-up",
    TASK: "Scheduled task",
    SUMMARY: "Summary",
    NOTICE: "Notice",
    PERSONA: "Persona",
}


def report_kind(source_key: str) -> str:
    """The kind of a report, from its source key (a ``chief-report:`` prefix is ignored)."""
    source = source_key.removeprefix(CHIEF_REPORT_PREFIX)
    if source.startswith(_COOP_SOURCE):
        return COOP
    if source.startswith(_FOLLOWUP_SOURCE):
        return FOLLOWUP
    return TASK


def classify(role: str, content: str | None, source: str | None) -> str | None:
    """The kind a row's known source gives it; None for a conversation turn."""
    if role != "assistant":
        return None
    if source:
        # The app's own rows carry an "app:" source; everything else is a report.
        if source == NOTICE_SOURCE:
            return NOTICE
        if source == SUMMARY_SOURCE:
            return SUMMARY
        if source == PERSONA_SOURCE:
            return PERSONA
        return report_kind(source)
    if (content or "").startswith(SUMMARY_PREFIXES):
        return SUMMARY
    return None


def is_system_line(turn_kind: str | None) -> bool:
    return turn_kind in SYSTEM_KINDS


def badge(turn_kind: str | None) -> str:
    return BADGES.get(turn_kind or "", "")

