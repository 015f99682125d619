"""The one-line status: rendered from values (pure), written atomically for tmux.

``keeltui status`` reads the file the app writes on every change; it must stay fast,
so this module imports nothing heavy.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from keeltui.textsafe import one_line

IDLE = "idle"
QUIET = "◌ Quiet Mode"


@dataclass(frozen=True)
class StatusState:
    quiet: bool = False
    ambient_line: str = ""
    focus_text: str = ""
    context_text: str = ""
    judge: str = ""
    """Which judge the sentinel uses ("brain" or "local"), shown only in the app."""


def render_status(state: StatusState) -> str:
    """The shared line: safe for a screen other people can see."""
    if state.quiet:
        # Quiet Mode hides everything that is not screen-safe, drift text included.
        return QUIET
    if state.focus_text:
        return one_line(state.focus_text, 120)
    if state.ambient_line:
        return "⚠ " + one_line(state.ambient_line, 118)
    return IDLE


def tmux_escape(line: str) -> str:
    """tmux expands #(...) and #[...] in status-right: double every '#'."""
    return line.replace("#", "##")


def write_status(path: Path, line: str, *, pid: int | None = None) -> None:
    """Replace the status file in one rename, so a reader never sees half a line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"line": line, "pid": pid if pid is not None else os.getpid()}
    fd, tmp = tempfile.mkstemp(prefix=".status-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(payload, handle, ensure_ascii=False)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def read_status(path: Path) -> str:
    """The line the app last wrote; ``idle`` with a note when the app is not running."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        line = str(payload.get("line", IDLE))
        pid = payload.get("pid")
    except (OSError, ValueError, AttributeError):
        return "keeltui not running"
    if isinstance(pid, int) and not _alive(pid):
        return "keeltui not running"
    return line


__all__ = ["StatusState", "render_status", "write_status", "read_status", "tmux_escape", "asdict"]
