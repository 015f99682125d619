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

HEARTBEAT_SECS = 60.0
"""The app rewrites the file at least this often, changed or not."""
STALE_AFTER_SECS = 3 * HEARTBEAT_SECS
"""A running app's line older than this was not refreshed: the app cannot write the file."""


def write_status(path: Path, line: str, *, pid: int | None = None, config_stamp: str = "") -> None:
    """Replace the status file in one rename, so a reader never sees half a line.

    ``config_stamp`` names the config the writer validated, so that ``keeltui
    status`` may skip validating it again while it is unchanged.
    """
    import time

    payload = {"line": line, "pid": pid if pid is not None else os.getpid(), "config": config_stamp, "at": time.time()}
    _replace(path, json.dumps(payload, ensure_ascii=False))


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` in one rename, owner-only."""
    import tempfile

    from keeltui.private_files import make_private_dir

    make_private_dir(path.parent)  # owner-only when created; mkstemp makes the file 0600
    fd, tmp = tempfile.mkstemp(prefix=".status-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
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
        at = payload.get("at")
    except (OSError, ValueError, AttributeError):
        return NOT_RUNNING, ""
    if isinstance(pid, int) and not pid_alive(pid):
        return NOT_RUNNING, stamp
    if isinstance(at, (int, float)):
        import time

        if time.time() - at > STALE_AFTER_SECS:
            # The app runs but has not refreshed its line (a full disk, a folder gone read-only).
            since = time.strftime("%H:%M", time.localtime(at))
            return f"{line} (stale: not updated since {since})", stamp
    return line, stamp


def _validated_path(path: Path) -> Path:
    """Beside the status file: the stamp of the config ``keeltui status`` last validated
    itself (a file of its own: the status file is the running app's to write)."""
    return path.with_name(f".{path.name}.validated")


def remember_validated(path: Path, config_stamp: str) -> None:
    """After a full validation, so that the next ``keeltui status`` on the same config
    takes the fast path even when no app has run with it. Best effort, and only into a
    folder that exists: a status call creates no folder of its own."""
    if not path.parent.is_dir() or status_validated(path, config_stamp):
        return  # no folder, or stamped already (the environment's overrides send every call here)
    try:
        _replace(_validated_path(path), config_stamp)
    except OSError:
        pass  # a read-only state folder: every call validates, as before


def status_validated(path: Path, config_stamp: str) -> bool:
    """Whether an earlier ``keeltui status`` validated ``config_stamp`` (the config's
    current contents; the app's own stamp is in the status file's payload)."""
    try:
        return _validated_path(path).read_text(encoding="utf-8") == config_stamp
    except (OSError, ValueError):
        return False


def read_status(path: Path) -> str:
    """The line the app last wrote; a note when the app is not running."""
    return read_status_payload(path)[0]
