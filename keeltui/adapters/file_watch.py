"""Told when named files in a folder are written (Linux inotify), so the app's store watcher
need not wake twice a second to ask SQLite whether anything changed.

Another process's commit to the store (``keeltui report``, ``keeltui quiet on``, a second
app) writes the database's ``-wal`` file, so a watch on the folder sees it at once; an
idle app then wakes for nothing at all. ``watch_files`` returns None wherever inotify is
not there (another OS, a libc without it, the limit of watches reached): the caller then
polls, as before. inotify cannot see writes made on another machine (a database on a
network share), so the caller keeps a slow poll beside the watch.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import struct
import sys
from collections.abc import Iterable
from pathlib import Path

# <sys/inotify.h>
IN_MODIFY = 0x00000002
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_Q_OVERFLOW = 0x00004000
IN_NONBLOCK = os.O_NONBLOCK
IN_CLOEXEC = os.O_CLOEXEC
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then len bytes of name (NUL-padded)
_WATCHED = IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE


class FileWatch:
    """An inotify descriptor on one folder; ``changed()`` drains it."""

    def __init__(self, fd: int, names: frozenset[str]) -> None:
        self._fd = fd
        self._names = names

    def fileno(self) -> int:
        return self._fd

    def changed(self) -> bool:
        """Whether any watched file was written since the last call (reads every pending event)."""
        hit = False
        while True:
            try:
                data = os.read(self._fd, 64 * 1024)
            except BlockingIOError:
                return hit
            except OSError:
                return True  # cannot tell: say yes, the caller's check is cheap
            if not data:
                return hit
            offset = 0
            while offset + _EVENT.size <= len(data):
                _, mask, _, length = _EVENT.unpack_from(data, offset)
                name = data[offset + _EVENT.size:offset + _EVENT.size + length].rstrip(b"\0")
                offset += _EVENT.size + length
                if mask & IN_Q_OVERFLOW or os.fsdecode(name) in self._names:
                    hit = True

    def close(self) -> None:
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = -1


def watch_files(folder: Path, names: Iterable[str]) -> FileWatch | None:
    """A watch for writes to ``names`` in ``folder``; None when inotify cannot give one."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        # The process's own symbols, libc's among them (find_library would run ldconfig).
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
    except (OSError, AttributeError):
        return None
    if fd < 0:
        return None
    if libc.inotify_add_watch(fd, os.fsencode(folder), _WATCHED) < 0:
        os.close(fd)
        return None
    return FileWatch(fd, frozenset(names))
