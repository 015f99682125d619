"""Write settings chosen in the app back into config.toml, the owner's comments kept.

The file is the owner's: tomlkit edits only the keys asked for and keeps every
comment, blank line and key order. The new text is read back (tomllib) before it
replaces the old, and it replaces it in one step (a temporary file beside it, then
``os.replace``), so a crash never leaves half a config. A file that was 0600 stays
0600; a file created here is 0600 (it may sit beside an ``api_key_env`` line). A
symlinked config (a dotfiles repository) is written through the link.
"""

from __future__ import annotations

import os
import stat
import tempfile
import tomllib
from pathlib import Path

from keeltui.infra.private_files import make_private_dir
import contextlib


class ConfigWriteError(Exception):
    """The config file could not be changed; ``str()`` is one line naming the file."""


def _value(value: object):
    import tomlkit

    if isinstance(value, str) and "\n" in value:
        return tomlkit.string(value, multiline=True)
    return value


def _set(doc, dotted: str, value: object) -> None:
    import tomlkit

    *tables, key = dotted.split(".")
    table = doc
    for name in tables:
        if name not in table:
            # A sub-table of an existing one ([brain] → [brain.models]) is written as its own header.
            table[name] = tomlkit.table(is_super_table=False)
        table = table[name]
        if not hasattr(table, "__setitem__"):
            raise ConfigWriteError(f"{name} is not a table")
    table[key] = _value(value)


def _read_back(text: str, dotted: str):
    value: object = tomllib.loads(text)
    for name in dotted.split("."):
        value = value[name] if isinstance(value, dict) else None
    return value


def write_settings(path: Path, values: dict[str, object]) -> Path:
    """Set each dotted key of ``values`` in the TOML file at ``path`` (created if absent).

    Returns the file written (the link's target for a symlink). Raises
    :class:`ConfigWriteError` with one line naming the file.
    """
    import tomlkit

    target = Path(os.path.realpath(path))
    try:
        text = target.read_text(encoding="utf-8") if target.exists() else ""
        mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else 0o600
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigWriteError(f"cannot read {target}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        doc = tomlkit.parse(text)
        for dotted, value in values.items():
            _set(doc, dotted, value)
        new = tomlkit.dumps(doc)
        if any(_read_back(new, dotted) != value for dotted, value in values.items()):
            raise ConfigWriteError("the edited file would not read back the same")
    except ConfigWriteError as exc:
        raise ConfigWriteError(f"cannot change {target}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - tomlkit's parse and edit errors have no common base worth naming
        raise ConfigWriteError(f"cannot change {target}: {exc}") from None
    _replace(target, new, mode)
    return target


def _replace(target: Path, text: str, mode: int) -> None:
    try:
        make_private_dir(target.parent)
        fd, temp = tempfile.mkstemp(prefix=".config-", suffix=".toml", dir=target.parent)
    except OSError as exc:
        raise ConfigWriteError(f"cannot write {target}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(handle.fileno(), mode)  # mkstemp makes it 0600; the old file's own mode is kept
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise ConfigWriteError(f"cannot write {target}: {exc.strerror}") from None


__all__ = ["ConfigWriteError", "write_settings"]
