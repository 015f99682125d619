"""The database's files on disk: private permissions, and errors in one line.

Pure helpers for :mod:`keeltui.store`: what a SQLite error means for the person
(disk full, read-only, locked, damaged), said once with the file's name, and the
owner-only permissions every file keeltui writes must have whatever the umask
(those live in keeltui.infra.private_files, free of SQLite).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from keeltui.infra.private_files import (  # noqa: F401 - the store reaches them through this module
    PRIVATE_DIR,
    PRIVATE_FILE,
    create_private_file,
    make_private_dir,
    open_private,
    tighten,
)

# The files SQLite keeps next to a WAL database.
SIDE_FILES = ("-wal", "-shm")


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
