"""The app's theme: only the shipped ones on the palette's picker, the configured one at start.

keeltui/text/themes.py names the themes that keep the room readable; the others Textual
registers are taken off, so the command palette's "Theme" offers only those.
"""

from __future__ import annotations

from textual.app import App

from keeltui.text.themes import DEFAULT_THEME, SHIPPED_THEMES


def use_theme(app: App, name: str) -> None:
    """Offer only the shipped themes and show ``name`` (the default for one not shipped)."""
    for other in list(app.available_themes):
        if other not in SHIPPED_THEMES:
            app.unregister_theme(other)
    app.theme = name if name in app.available_themes else DEFAULT_THEME
