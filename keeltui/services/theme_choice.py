"""Keep the theme chosen in the command palette across restarts: saved as ``[ui] theme``.

Textual-free. The config file keeps its comments (keeltui/adapters/config_file.py).
"""

from __future__ import annotations

from keeltui.config import Config
from keeltui.services.model_choice import ChoiceError, save
from keeltui.text.themes import SHIPPED_THEMES


def save_theme(config: Config, name: str) -> str | None:
    """Save ``name`` as ``[ui] theme``; the one-line problem when it could not be (else None)."""
    if name == config.ui.theme or name not in SHIPPED_THEMES:
        return None
    try:
        save(config, {"ui.theme": name})
    except ChoiceError as exc:
        return str(exc)
    config.ui.theme = name
    return None
