"""The status file: written atomically by the app, read by ``keeltui status`` (tmux).

The line itself is rendered in keeltui/statusfile.py (pure); this is the part that
touches the disk and asks whether the writer still runs. ``keeltui status`` runs every
few seconds: nothing heavy is imported.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from keeltui.adapters.process_probe import pid_alive
from keeltui.statusfile import IDLE


def write_status(path: Path, line: str, *, pid: int | None = None, config_stamp: str = "") -> None:
    """Replace the status file in one rename, so a reader never sees half a line.

    ``config_stamp`` names the config the writer validated, so that ``keeltui
    status`` may skip validating it again while it is unchanged.
    """
    import tempfile

    from keeltui.private_files import make_private_dir

    make_private_dir(path.parent)  # owner-only when created; mkstemp makes the file 0600
    payload = {"line": line, "pid": pid if pid is not None else os.getpid(), "config": config_stamp}
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


NOT_RUNNING = "keeltui not running"


def read_status_payload(path: Path) -> tuple[str, str]:
    """(the line to print, the config stamp the writer validated)."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        line = str(payload.get("line", IDLE))
        pid = payload.get("pid")
        stamp = str(payload.get("config", ""))
    except (OSError, ValueError, AttributeError):
        return NOT_RUNNING, ""
    if isinstance(pid, int) and not pid_alive(pid):
        return NOT_RUNNING, stamp
    return line, stamp


def read_status(path: Path) -> str:
    """The line the app last wrote; a note when the app is not running."""
    return read_status_payload(path)[0]
