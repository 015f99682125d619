"""The frame: a bounded Markdown brief of what matters to the owner.

:func:`assemble_frame` is pure (lists and strings in, one string out);
:func:`load_frame` is the thin impure loader that reads the files and asks the
task provider. Missing pieces shorten the brief; nothing here raises.
"""

from __future__ import annotations

import logging
from pathlib import Path

from keeltui.text.textsafe import clip

log = logging.getLogger("keeltui.ambient.frame")

DEFAULT_MAX_CHARS = 6000
CLIP_MARKER = "\n… (frame clipped)"
EMPTY_FRAME = "(Nothing is on file: no tasks for today, no goals, no life domains.)"


def _section(heading: str, body: str) -> str:
    return f"## {heading}\n\n{body.strip()}"


def assemble_frame(
    tasks: list[str],
    goals: str | None,
    domains: list[tuple[str, str]],
    max_chars: int = DEFAULT_MAX_CHARS,
) -> str:
    """The brief: sections "Today's tasks", "Goals", "Life domains", in that order.

    An empty part leaves its section out; with nothing at all the brief is one
    sentence saying so (the judges then know the frame is empty rather than
    lost). Longer than ``max_chars`` → clipped on a character boundary and
    marked, the marker counted within the limit.
    """
    sections = []
    task_lines = [f"- {task.strip()}" for task in tasks or [] if task and task.strip()]
    if task_lines:
        sections.append(_section("Today's tasks", "\n".join(task_lines)))
    if goals and goals.strip():
        sections.append(_section("Goals", goals))
    domain_parts = [f"### {name.strip()}\n\n{text.strip()}" for name, text in domains or [] if text and text.strip()]
    if domain_parts:
        sections.append(_section("Life domains", "\n\n".join(domain_parts)))
    brief = "\n\n".join(sections) if sections else EMPTY_FRAME
    return clip_frame(brief, max_chars)


def clip_frame(text: str, max_chars: int) -> str:
    """``text`` within ``max_chars``, with :data:`CLIP_MARKER` when it was cut."""
    if max_chars <= 0:
        return ""
    if len(text) <= max_chars:
        return text
    if max_chars <= len(CLIP_MARKER):
        return clip(text, max_chars)
    # clip() ends with "…"; swap that for the fuller marker.
    body = clip(text, max_chars - len(CLIP_MARKER) + 1)[:-1].rstrip()
    return body + CLIP_MARKER


def _read_text(path: Path, limit: int) -> str | None:
    """At most ``limit`` characters of a file, or None if it cannot be read."""
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            return handle.read(limit)
    except OSError as exc:
        if not isinstance(exc, FileNotFoundError):
            log.warning("frame: cannot read %s: %s", path, exc.strerror or exc)
        return None


def load_frame(
    frame_dir: Path | str | None,
    goals_file: str,
    tasks_provider,
    max_chars: int = DEFAULT_MAX_CHARS,
) -> str:
    """Read the goals file and ``domains/*.md`` under ``frame_dir`` and build the brief.

    ``goals_file`` is relative to ``frame_dir`` (an absolute or ``~`` path is
    used as is). ``tasks_provider`` may be None. Each file is read only up to
    ``max_chars`` since the brief could not hold more anyway.
    """
    tasks: list[str] = []
    if tasks_provider is not None:
        try:
            tasks = list(tasks_provider.today())
        except Exception as exc:  # noqa: BLE001 - a provider bug must not break the frame
            log.warning("frame: task provider failed: %s", exc)
    goals = None
    domains: list[tuple[str, str]] = []
    base = Path(frame_dir).expanduser() if frame_dir else None
    goals_path = Path(goals_file).expanduser() if goals_file else None
    if goals_path is not None and (goals_path.is_absolute() or base is not None):
        goals = _read_text(base / goals_path if base is not None else goals_path, max_chars)
    if base is not None:
        try:
            files = sorted((base / "domains").glob("*.md"))
        except OSError:
            files = []
        for path in files:
            text = _read_text(path, max_chars)
            if text:
                domains.append((path.stem.replace("-", " ").replace("_", " "), text))
    return assemble_frame(tasks, goals, domains, max_chars)
