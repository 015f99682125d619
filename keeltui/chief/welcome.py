"""The words the room shows until its first message. Pure.

Not a stored row: the room log draws them under its rows while it holds no turn of the
owner's or the companion's (only system lines, such as the notice that the brain is
offline, which lands a moment after the first frame), so they leave with the first
message and never reach the model, a search or an export. Each line fits 76
columns and all of them fit an 80x24 terminal's room; under a system line they leave out
how to reach a model (the offline notice says it, with the endpoint), so the notice, its
badge line and the welcome fit that room together.
"""

from __future__ import annotations

from collections.abc import Iterable

from keeltui.chief.turn_kinds import SYSTEM_KINDS

TITLE = "Welcome to keeltui."

INTRO: tuple[str, ...] = (
    "Three parts: this room with the Chief, your companion; the tutor (Ctrl+T);",
    "and a quiet sentinel that notices drift (its line is at the bottom).",
    "",
    "Enter sends   Esc stops a reply   Ctrl+T tutor   F1 every key   Ctrl+Q quits",
    "",
)
MODEL_HINT: tuple[str, ...] = (
    "A model: set base_url and model under [brain] in config.toml",
    "(Ollama, llama.cpp, vLLM, OpenAI ...). Check it all: keeltui doctor",
    "",
)
BEGIN = "Say something below to begin."
WELCOME: tuple[str, ...] = (*INTRO, *MODEL_HINT, BEGIN)
"""The lines under the title in an empty room."""


def welcome_lines(*, under_rows: bool = False) -> list[tuple[str, bool]]:
    """(text, is the title) for each line, top to bottom; ``under_rows``: under system lines
    (no model hint: the offline notice, the usual first row, says how with the endpoint)."""
    body = (*INTRO, BEGIN) if under_rows else WELCOME
    return [(TITLE, True), *((line, False) for line in body)]


def welcome_stays(kinds: Iterable[str | None]) -> bool:
    """Whether a room whose rows have these turn kinds may still show the welcome: none of
    them is a conversation turn (a turn's kind is None; a notice or a report has one)."""
    return all(kind in SYSTEM_KINDS for kind in kinds)


def welcome_state(kinds: Iterable[str | None], *, whole_room: bool) -> bool | None:
    """The welcome under rows of these kinds: shown (True), not now (False: older rows are
    unread), or gone for good (None: a conversation turn)."""
    if not welcome_stays(kinds):
        return None
    return whole_room
