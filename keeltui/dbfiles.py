"""The database's files on disk: private permissions, and errors in one line.

Pure helpers for :mod:`keeltui.store`: what a SQLite error means for the person
(disk full, read-only, locked, damaged), said once with the file's name, and the
owner-only permissions every file keeltui writes must have whatever the umask.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
# The files SQLite keeps next to a WAL database.
SIDE_FILES = ("-wal", "-shm")


def make_private_dir(path: Path) -> None:
    """Create ``path`` (and missing parents) owner-only; an existing folder is left as it is."""
    path = Path(path)
    missing = []
    probe = path
    while not probe.exists():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=PRIVATE_DIR)
        except FileExistsError:
            continue
        os.chmod(folder, PRIVATE_DIR)  # mkdir's mode is masked by the umask


def create_private_file(path: Path) -> None:
    """Create an empty owner-only file unless it exists (the umask cannot widen it)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        return
    os.fchmod(fd, PRIVATE_FILE)
    os.close(fd)


def open_private(path: Path, mode: str = "w", encoding: str | None = "utf-8"):
    """``open()`` for a file only its owner may read, created or replaced."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if "a" in mode else os.O_TRUNC)
    fd = os.open(path, flags, PRIVATE_FILE)
    try:
        os.fchmod(fd, PRIVATE_FILE)
    except OSError:
        pass  # not ours to change (a device, another owner's file): write anyway
    return os.fdopen(fd, mode, encoding=None if "b" in mode else encoding)


def tighten(paths: list[Path]) -> list[str]:
    """Make each existing file owner-only; one line per file that was wider."""
    lines = []
    for path in paths:
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except OSError:
            continue
        if mode & 0o077:
            try:
                os.chmod(path, mode & 0o700)
            except OSError:
                continue
            lines.append(
                f"{path}: was readable by others ({mode:04o}); made private ({mode & 0o700:04o})"
            )
    return lines


def database_files(path: Path) -> list[Path]:
    return [Path(path)] + [Path(f"{path}{suffix}") for suffix in SIDE_FILES]


def recover_hint(path: Path) -> str:
    return f"recover what is readable with `sqlite3 {path} .recover`"


def is_damage(exc: sqlite3.DatabaseError) -> bool:
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text or "not a database" in text


def shown(path: Path) -> str:
    """The path as the owner would type it (~ for the home folder): short enough for a status line."""
    text = str(path)
    home = os.path.expanduser("~")
    if home not in ("", "/") and (text == home or text.startswith(home + os.sep)):
        return "~" + text[len(home):]
    return text


def describe(path: Path, exc: sqlite3.Error, writing: bool, busy_secs: float) -> str:
    """One line saying what failed and where: the reason first and the path short, so a
    narrow status line still shows both."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc)
    where = shown(path)
    if isinstance(exc, sqlite3.DatabaseError) and is_damage(exc):
        return f"database damaged at {where}; {recover_hint(path)}"
    if name.startswith("SQLITE_FULL") or "disk is full" in text:
        return f"disk full at {where} — free some space, then try again"
    if name.startswith("SQLITE_READONLY") or "readonly" in text:
        return f"read-only: cannot write {where} (the file or its folder)"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        return f"locked by another process for over {busy_secs:g}s: {where} — try again"
    if writing and (name.startswith("SQLITE_CANTOPEN") or "unable to open" in text):
        # SQLite could not create the -wal/-shm beside the file: a read-only folder or media.
        return f"read-only: cannot write {where} (SQLite cannot create files in its folder)"
    return f"cannot {'write' if writing else 'read'} {where}: {text}"
