"""Where keeltui's files live, by platform conventions (XDG on Linux).

On Linux the XDG rules are applied directly (keeltui/infra/xdg.py, what platformdirs does
there, shared with the ``keeltui status`` fast path); elsewhere platformdirs decides.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "keeltui"


def platform_dir(kind: str) -> Path:
    """``kind`` is a platformdirs function name: user_config_dir, user_data_dir, user_state_dir,
    user_cache_dir."""
    if sys.platform.startswith("linux"):
        from keeltui.infra.xdg import xdg_dir

        return Path(xdg_dir(kind))
    import platformdirs

    return Path(getattr(platformdirs, kind)(APP_NAME))


def default_config_path() -> Path:
    return platform_dir("user_config_dir") / "config.toml"


def default_database_path() -> Path:
    return platform_dir("user_data_dir") / "keeltui.db"


def default_status_path() -> Path:
    return platform_dir("user_state_dir") / "status"


def config_stamp(config_path: str | os.PathLike | None) -> str:
    """Identifies a config's current contents cheaply (keeltui/infra/xdg.py: shared with the
    status fast path)."""
    from keeltui.infra.xdg import config_stamp as stamp

    return stamp(config_path)
