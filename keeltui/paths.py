"""Where keeltui's files live, by platform conventions (XDG on Linux).

Light on purpose: ``keeltui status`` runs this on every tmux status refresh. On Linux
the XDG rules are applied directly (what platformdirs does there); elsewhere
platformdirs decides.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

_QUICK_STATUS_FILE = re.compile(r'^[ \t]*status_file[ \t]*=[ \t]*"([^"\\]*)"[ \t]*(?:#.*)?$', re.MULTILINE)

APP_NAME = "keeltui"

_XDG = {
    "user_config_dir": ("XDG_CONFIG_HOME", ".config"),
    "user_data_dir": ("XDG_DATA_HOME", ".local/share"),
    "user_state_dir": ("XDG_STATE_HOME", ".local/state"),
}


def platform_dir(kind: str) -> Path:
    """``kind`` is a platformdirs function name: user_config_dir, user_data_dir, user_state_dir."""
    if sys.platform.startswith("linux"):
        variable, fallback = _XDG[kind]
        base = os.environ.get(variable, "").strip()
        root = Path(base) if base and os.path.isabs(base) else Path.home() / fallback
        return root / APP_NAME
    import platformdirs

    return Path(getattr(platformdirs, kind)(APP_NAME))


def default_config_path() -> Path:
    return platform_dir("user_config_dir") / "config.toml"


def default_database_path() -> Path:
    return platform_dir("user_data_dir") / "keeltui.db"


def default_status_path() -> Path:
    return platform_dir("user_state_dir") / "status"


def status_path_fast(config_path: str | None) -> Path | None:
    """The status file's path read straight from the TOML, for ``keeltui status``.

    None when the file cannot be read this way (a syntax error, a wrong type): the
    caller then goes the full way, which reports the problem and exits 2.
    """
    path = Path(config_path) if config_path else default_config_path()
    if config_path and not path.exists():
        return None
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
    except (OSError, ValueError):
        return None
    if "status_file" not in text:
        return default_status_path()  # no TOML parser needed for the common case
    quick = _QUICK_STATUS_FILE.findall(text)
    if len(quick) == 1 and text.count("status_file") == 1:
        # The usual one-line form. A wrong guess is harmless: the caller trusts the file
        # it reads only if the app that wrote it validated this very config.
        return Path(os.path.expanduser(quick[0])) if quick[0] else default_status_path()
    import tomllib

    try:
        data = tomllib.loads(text)
    except ValueError:
        return None
    value = (data.get("paths") or {}).get("status_file", "") if isinstance(data.get("paths", {}), dict) else None
    if not isinstance(value, str):
        return None
    return Path(os.path.expanduser(value)) if value else default_status_path()


def config_stamp(config_path: str | os.PathLike | None) -> str:
    """Identifies a config file's current contents cheaply (path, mtime, size)."""
    path = Path(config_path) if config_path else default_config_path()
    try:
        info = path.stat()
    except OSError:
        return f"{path}:absent"
    return f"{path}:{info.st_mtime_ns}:{info.st_size}"
