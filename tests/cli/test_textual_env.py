"""What Textual reads from the environment when it is imported: Escape after 25 ms of
nothing following it (not 100 ms), frames up to 120 a second (not 60), each unless the
owner set it; what keeltui starts later (the editor, the pager) sees the environment it
was given."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from keeltui.infra.textual_env import ESCDELAY_MS, FRAMES_A_SECOND, SETTINGS, textual_settings

# A fresh interpreter: Textual reads both once, when it is first imported.
PROBE = """
import os
from keeltui.cli.commands import import_run_app
import_run_app()
from textual import constants, screen
print(round(constants.ESCAPE_DELAY * 1000), os.environ.get("ESCDELAY"),
      round(1 / screen.UPDATE_PERIOD), os.environ.get("TEXTUAL_FPS"))
"""


def _probe(environ: dict[str, str]) -> str:
    out = subprocess.run([sys.executable, "-c", PROBE], env=environ, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.parametrize(("owner", "expected"), [
    ({}, f"{ESCDELAY_MS} None {FRAMES_A_SECOND} None"),
    ({"ESCDELAY": "60"}, f"60 60 {FRAMES_A_SECOND} None"),
    ({"TEXTUAL_FPS": "30"}, f"{ESCDELAY_MS} None 30 30"),
])
def test_the_app_is_imported_with_keeltuis_settings_unless_the_owner_set_them(owner, expected):
    environ = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    assert _probe({**environ, **owner}) == expected


def test_the_settings_are_gone_from_the_environment_afterwards():
    environ: dict[str, str] = {}
    with textual_settings(environ):
        assert environ == SETTINGS
    assert environ == {}
    environ = {"ESCDELAY": "300"}
    with textual_settings(environ):
        assert environ == {"ESCDELAY": "300", "TEXTUAL_FPS": str(FRAMES_A_SECOND)}
    assert environ == {"ESCDELAY": "300"}


THEME_PROBE = """
import os
from keeltui.cli.commands import import_run_app
import_run_app({theme!r})
from textual.app import App
print(App().theme, os.environ.get("TEXTUAL_THEME"))
"""


@pytest.mark.parametrize(("owner", "theme", "expected"), [
    ({}, "textual-light", "textual-light None"),
    ({}, None, "textual-dark None"),
    ({"TEXTUAL_THEME": "dracula"}, "nord", "nord dracula"),  # [ui] theme wins; theirs is theirs again
])
def test_the_configured_theme_is_textuals_default_from_the_import(owner, theme, expected):
    # Set after mount instead, Textual parsed all the CSS again and restyled the screen
    # before the first frame (~28 ms for a theme other than its default).
    environ = {k: v for k, v in os.environ.items() if k != "TEXTUAL_THEME"}
    out = subprocess.run([sys.executable, "-c", THEME_PROBE.format(theme=theme)], env={**environ, **owner},
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == expected
