"""Which theme colours a room row is drawn in: one table, Textual theme variable names only.

Nothing here names a colour: every row takes its colours from the theme in use, so the
room reads in a light theme as in a dark one and a theme change recolours it. The log
(panes/chief/room_log.py) turns the table into its CSS, and tests hold every shipped
theme to a contrast of 4.5:1 for these pairs. Pure: no Textual here.
"""

from __future__ import annotations

from keeltui.chief.turn_kinds import COOP, FOLLOWUP, NOTICE, PERSONA, SUMMARY, SYSTEM_KINDS, TASK

COMPONENTS: dict[str, str] = {
    "room-log--user": "color: $primary;",
    "room-log--assistant": "color: $success;",
    # A system line is a band in the theme's panel colour: set apart from the talk, not alarming.
    "room-log--system": "background: $panel; color: $foreground;",
    "room-log--system-cursor": "background: $primary-muted; color: $foreground;",
    # The focused row: the primary colour, muted toward the background (seen in 256 colours too).
    "room-log--cursor": "background: $primary-muted; color: $foreground;",
    "room-log--match": "background: $warning-muted; color: auto;",
    "room-log--empty": "color: $text-muted;",
}
"""The log's component classes and their colours."""

BADGE_COLOURS: dict[str, str] = {
    COOP: "accent",
    FOLLOWUP: "warning",
    TASK: "secondary",
    SUMMARY: "primary",
    NOTICE: "primary",
    PERSONA: "accent",
}
"""A system line's badge, by the row's kind: the theme colour behind its name."""


def badge_component(kind: str | None) -> str:
    """The component class of a kind's badge (an unknown kind wears the notice's)."""
    return f"room-log--badge-{kind if kind in BADGE_COLOURS else NOTICE}"


def badge_components() -> dict[str, str]:
    """Every badge's component class and its colours: the name in the theme colour's
    own readable text, on that colour."""
    return {badge_component(kind): f"background: ${BADGE_COLOURS[kind]}; color: auto; text-style: bold;"
            for kind in SYSTEM_KINDS}


def log_css(widget: str) -> str:
    """The rules for ``widget``'s component classes (``RoomLog > .room-log--user { ... }``)."""
    rules = {**COMPONENTS, **badge_components()}
    return "\n".join(f"{widget} > .{name} {{ {declarations} }}" for name, declarations in rules.items())
