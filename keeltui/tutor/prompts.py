"""Compose an agent's system prompt from numbered markdown fragments.

Layout under the prompts directory::

    shared/10-*.md …    sent to both agents, first
    prober/10-*.md …    the prober's own fragments
    teacher/10-*.md …   the teacher's own fragments
    README.md           human documentation — never sent

Only files named ``<digits>-<anything>.md`` compose, in numeric order of the prefix
(ties by name), each verbatim apart from surrounding blank lines, joined by one blank
line. Anything else in these directories — a README, notes, drafts — never reaches
the model. Reading files is the only effect; no clock, no network.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["AGENTS", "DEFAULT_PROMPTS_DIR", "compose_prompt", "fragment_paths"]

AGENTS = ("prober", "teacher")
DEFAULT_PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
_FRAGMENT = re.compile(r"^(\d+)-.*\.md$")


def _fragments_in(directory: Path) -> list[Path]:
    if not directory.is_dir():
        return []
    found = []
    for path in directory.iterdir():
        match = _FRAGMENT.match(path.name)
        if match and path.is_file():
            found.append((int(match.group(1)), path.name, path))
    return [path for _, _, path in sorted(found)]


def fragment_paths(agent: str, prompts_dir: Path | None = None) -> list[Path]:
    """The fragment files that compose ``agent``'s prompt, in order (shared first)."""
    if agent not in AGENTS:
        raise ValueError(f"unknown agent {agent!r}; expected one of {', '.join(AGENTS)}")
    root = Path(prompts_dir) if prompts_dir is not None else DEFAULT_PROMPTS_DIR
    return _fragments_in(root / "shared") + _fragments_in(root / agent)


def compose_prompt(agent: str, prompts_dir: Path | None = None) -> str:
    """The system prompt for ``agent`` (``"prober"`` or ``"teacher"``).

    Raises ValueError for an unknown agent or when no fragment exists: an empty
    system prompt is always a packaging mistake, never a valid prompt.
    """
    paths = fragment_paths(agent, prompts_dir)
    if not paths:
        root = Path(prompts_dir) if prompts_dir is not None else DEFAULT_PROMPTS_DIR
        raise ValueError(f"no prompt fragments for {agent!r} under {root}")
    texts = [path.read_text(encoding="utf-8").strip("\r\n") for path in paths]
    return "\n\n".join(text for text in texts if text.strip())
