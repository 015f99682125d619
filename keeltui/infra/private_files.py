"""Owner-only files and folders: every file keeltui writes is private whatever the umask.

No SQLite here, so the pure status-file code can make its folder private too
(keeltui.infra.dbfiles re-exports these for the store).
"""

from __future__ import annotations

from contextlib import suppress

import os
import stat
from pathlib import Path

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
"""A private file is never opened through a link: a link planted at the log's or an
export's path would have us write (and chmod) whatever it points at."""


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


def create_private_file(path: Path) -> bool:
    """Create an empty owner-only file unless it exists (the umask cannot widen it);
    True when this call created it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, PRIVATE_FILE)
    except FileExistsError:
        return False
    os.fchmod(fd, PRIVATE_FILE)
    os.close(fd)
    return True


def open_private(path: Path, mode: str = "w", encoding: str | None = "utf-8"):
    """``open()`` for a file only its owner may read, created or replaced.

    A symbolic link at ``path`` is refused (OSError, ELOOP), never followed.
    """
    flags = os.O_WRONLY | os.O_CREAT | NOFOLLOW | (os.O_APPEND if "a" in mode else os.O_TRUNC)
    fd = os.open(path, flags, PRIVATE_FILE)
    with suppress(OSError):  # not ours to change (a device, another owner's file): write anyway
        os.fchmod(fd, PRIVATE_FILE)
    return os.fdopen(fd, mode, encoding=None if "b" in mode else encoding)


def replace_private(path: Path, data: bytes, prefix: str = ".tmp-") -> None:
    """Make ``path`` hold ``data`` in one rename, owner-only (its folder made owner-only when
    created): a reader sees the old file or the new one, never half of it, and a failed
    write leaves no temporary file behind."""
    import tempfile

    make_private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=prefix, dir=path.parent)  # 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise


def tighten(paths: list[Path]) -> list[str]:
    """Make each existing file owner-only; one line per file that was wider."""
    lines = []
    for path in paths:
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISLNK(info.st_mode):
            continue  # chmod would change the link's target, which is not ours to widen or narrow
        mode = stat.S_IMODE(info.st_mode)
        if mode & 0o077:
            try:
                os.chmod(path, mode & 0o700)
            except OSError:
                continue
            lines.append(
                f"{path}: was readable by others ({mode:04o}); made private ({mode & 0o700:04o})"
            )
    return lines
