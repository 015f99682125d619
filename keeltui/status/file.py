"""The status file: written atomically by the app, read by ``keeltui status`` (tmux).

The line itself is rendered in keeltui/status/render.py (pure); this is the part that
touches the disk and asks whether the writer still runs. ``keeltui status`` runs every
few seconds: nothing heavy is imported.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from keeltui.status.fast import NOT_RUNNING, read_payload, validated_path, validated_stamp
import contextlib

__all__ = ["NOT_RUNNING", "read_status", "read_status_payload", "remember_validated", "status_validated", "write_status"]

HEARTBEAT_SECS = 60.0
"""The app rewrites the file at least this often, changed or not (the reader's stale limit,
``status_fast.STALE_AFTER_SECS``, is three of these)."""


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
    from keeltui.infra.private_files import replace_private

    replace_private(path, text.encode("utf-8"), prefix=".status-")


def read_status_payload(path: Path) -> tuple[str, str]:
    """(the line to print, the config stamp the writer validated)."""
    return read_payload(str(path))


def remember_validated(path: Path, config_stamp: str) -> None:
    """After a full validation, so that the next ``keeltui status`` on the same config
    takes the fast path even when no app has run with it. Best effort, and only into a
    folder that exists: a status call creates no folder of its own."""
    if not path.parent.is_dir() or status_validated(path, config_stamp):
        return  # no folder, or stamped already
    with contextlib.suppress(OSError):  # a read-only state folder: every call validates, as before
        _replace(Path(validated_path(str(path))), config_stamp)


def status_validated(path: Path, config_stamp: str) -> bool:
    """Whether an earlier ``keeltui status`` validated ``config_stamp`` (the config's
    current contents; the app's own stamp is in the status file's payload)."""
    return validated_stamp(str(path)) == config_stamp


def read_status(path: Path) -> str:
    """The line the app last wrote; a note when the app is not running."""
    return read_status_payload(path)[0]
