"""Warnings and errors to a small rotated file in the state folder, readable only by you.

The app logs what went wrong (a judge that failed, an evidence source that broke)
there instead of on the screen; ``keeltui doctor`` shows the last few lines. The
file sits beside the status file (``paths.status_file``'s folder) and is 0600:
window titles can appear in it.
"""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

from keeltui.infra.private_files import make_private_dir, open_private

LOG_NAME = "keeltui.log"
MAX_BYTES = 256 * 1024
BACKUPS = 2
_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_path(config) -> Path:
    return config.status_file_path().parent / LOG_NAME


class _PrivateRotatingHandler(logging.handlers.RotatingFileHandler):
    """A rotating handler whose every file (the first and each rotation's) is 0600."""

    def _open(self):
        # An older file made with a looser mode is tightened too.
        return open_private(Path(self.baseFilename), "a", self.encoding)


def install_log_file(path: Path, level: int = logging.WARNING) -> logging.Handler | None:
    """Send keeltui's warnings to ``path``; None (and nothing changed) if it cannot be opened."""
    try:
        make_private_dir(path.parent)  # the state folder: 0700 whoever creates it first
        handler = _PrivateRotatingHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
    except OSError:
        return None  # no log file is better than no app
    handler.setLevel(level)
    handler.setFormatter(logging.Formatter(_FORMAT))
    logger = logging.getLogger("keeltui")
    logger.addHandler(handler)
    if logger.level == logging.NOTSET or logger.level > level:
        logger.setLevel(level)
    return handler


def last_errors(path: Path, count: int = 5) -> list[str]:
    """The newest ``count`` lines of the log (warnings and errors); [] when there is none."""
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            handle.seek(max(0, path.stat().st_size - 64 * 1024))
            lines = handle.read().splitlines()
    except OSError:
        return []
    return [line for line in lines if " WARNING " in line or " ERROR " in line][-count:]


def note_without_locks(text: str) -> None:
    """Append one line to keeltui's log file with plain system calls: for the exit watchdog,
    which acts when something is wedged (the logging module's locks may be held)."""
    import os
    import time

    files = [h for h in logging.getLogger("keeltui").handlers if isinstance(h, logging.FileHandler)]
    if not files:
        return
    line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} WARNING keeltui.terminal: {text}\n"
    try:
        fd = os.open(files[0].baseFilename, os.O_WRONLY | os.O_APPEND)
    except OSError:
        return
    try:
        os.write(fd, line.encode("utf-8", "replace"))
    except OSError:
        pass  # a full disk: the watchdog leaves all the same
    finally:
        os.close(fd)
