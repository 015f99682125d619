"""Rich styles whose colours come from the theme: ``themed(app, "bold $text-warning")``.

Text built in Python (the status line, the plan map, a quiz's marks) cannot use CSS
variables; this puts the current theme's colour where ``$name`` stands, so no widget
names a colour of its own. ``$text-success``, ``$text-warning`` and ``$text-error``
are the theme's colours meant for text on its background.
"""

from __future__ import annotations

from textual.app import App

_VARIABLES: dict[str, dict[str, str]] = {}
"""The CSS variables by theme name (Textual computes them from the theme on every call)."""


def themed(app: App, spec: str) -> str:
    """``spec`` with every ``$variable`` replaced by the current theme's colour (a variable
    that is not a plain colour, e.g. ``auto 60%``, is left out)."""
    if "$" not in spec:
        return spec
    variables = _VARIABLES.get(app.theme)
    if variables is None:
        variables = _VARIABLES[app.theme] = app.get_css_variables()
    words = []
    for word in spec.split():
        if word.startswith("$"):
            value = variables.get(word[1:], "")
            if not value.startswith("#"):
                continue
            word = value
        words.append(word)
    return " ".join(words)
