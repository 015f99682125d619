"""keeltui's folders by the XDG rules, and the stamp of a config's current contents.

os only: the status fast path (keeltui/status/fast.py) and keeltui/infra/paths.py share these,
and the fast path runs on every tmux status tick.
"""

# No `from __future__ import annotations` (one more module to import on every tmux tick):
# the annotations below are valid at run time.
import os

APP_NAME = "keeltui"
# The variables config.py reads (listed here too: the status fast path must not import it).
ENV_OVERRIDES = ("KEEL_AMBIENT_MODE", "KEEL_AMBIENT_CADENCE_SECS", "KEEL_BRAIN_BASE_URL", "KEEL_BRAIN_MODEL")

_XDG = {
    "user_config_dir": ("XDG_CONFIG_HOME", ".config"),
    "user_data_dir": ("XDG_DATA_HOME", ".local/share"),
    "user_state_dir": ("XDG_STATE_HOME", ".local/state"),
    "user_cache_dir": ("XDG_CACHE_HOME", ".cache"),
}


def xdg_dir(kind: str) -> str:
    """keeltui's folder of ``kind`` (a platformdirs function name) as platformdirs finds it
    on Linux: an absolute XDG variable, else the home's default."""
    variable, fallback = _XDG[kind]
    base = os.environ.get(variable, "").strip()
    root = base if base and os.path.isabs(base) else os.path.join(os.path.expanduser("~"), fallback)
    return os.path.join(root, APP_NAME)


def default_config_file() -> str:
    return os.path.join(xdg_dir("user_config_dir"), "config.toml")


def config_stamp(config_path: str | os.PathLike | None) -> str:
    """Identifies what a config says right now, cheaply: the file (path, mtime, size) and
    the environment overrides, which change the config as much as an edit does."""
    path = os.fspath(config_path) if config_path else default_config_file()
    try:
        info = os.stat(path)
        stamp = f"{path}:{info.st_mtime_ns}:{info.st_size}"
    except OSError:
        stamp = f"{path}:absent"
    overrides = [f"{name}={os.environ[name]}" for name in ENV_OVERRIDES if name in os.environ]
    return "\0".join([stamp, *overrides])
