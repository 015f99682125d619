"""The themes keeltui ships: the ones the command palette's picker offers and ``[ui] theme`` takes.

Only Textual's built-in themes in which the room keeps a contrast of at least 4.5:1 for
body text, system lines, their badges and the focused row
(tests/pilot/test_theme_contrast.py measures each); the others are taken off the picker.
Pure: names only.
"""

from __future__ import annotations

DEFAULT_THEME = "textual-dark"
LIGHT_THEME = "textual-light"

SHIPPED_THEMES: tuple[str, ...] = (
    "textual-dark", "textual-light", "nord", "gruvbox", "dracula", "flexoki",
    "catppuccin-mocha", "catppuccin-macchiato", "catppuccin-frappe", "catppuccin-latte",
    "rose-pine", "rose-pine-dawn",
)
