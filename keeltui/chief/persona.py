"""The Chief's persona: what may be saved as its system prompt, and the line that records it. Pure."""

from __future__ import annotations

PERSONA_MAX_CHARS = 20_000


def check_persona(text: str) -> str:
    """The persona to save (trimmed), or ValueError saying why not."""
    text = text.strip()
    if not text:
        raise ValueError("the persona is empty: write what the Chief should be (Escape keeps the old one)")
    if len(text) > PERSONA_MAX_CHARS:
        raise ValueError(f"the persona is {len(text)} characters; at most {PERSONA_MAX_CHARS}")
    return text


def persona_line(prompt: str) -> str:
    """The system line recording a new persona: from the next turn, the Chief reads this."""
    return f"The Chief's persona changed; from the next turn it reads:\n{prompt}"
