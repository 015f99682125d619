"""The words the room shows until its first message. Pure.

Not a stored row: the room log draws them while it holds no row, so they leave with the
first message and never reach the model, a search or an export. Each line fits 76
columns and all of them fit an 80x24 terminal's room.
"""

from __future__ import annotations

TITLE = "Welcome to keeltui."

WELCOME: tuple[str, ...] = (
    "Three parts: this room with the Chief, your companion; the tutor (Ctrl+T);",
    "and a quiet sentinel that notices drift (its line is at the bottom).",
    "",
    "Enter sends   Esc stops a reply   Ctrl+T tutor   F1 every key   Ctrl+Q quits",
    "",
    "A model: set base_url and model under [brain] in config.toml",
    "(Ollama, llama.cpp, vLLM, OpenAI ...). Check it all: keeltui doctor",
    "",
    "Say something below to begin.",
)
"""The lines under the title."""


def welcome_lines() -> list[tuple[str, bool]]:
    """(text, is the title) for each line, top to bottom."""
    return [(TITLE, True), *((line, False) for line in WELCOME)]
