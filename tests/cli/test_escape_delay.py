"""Escape reaches keeltui after 25 ms of nothing following it, not Textual's 100 ms, unless the owner
set ESCDELAY; what keeltui starts later (the editor, the pager) sees the environment it was given."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from keeltui.infra.escape_delay import ESCDELAY_MS, short_escape_delay

# A fresh interpreter: Textual reads ESCDELAY once, when it is first imported.
PROBE = """
import os
from keeltui.cli.commands import import_run_app
import_run_app()
from textual import constants
print(round(constants.ESCAPE_DELAY * 1000), os.environ.get("ESCDELAY"))
"""


def _probe(environ: dict[str, str]) -> str:
    out = subprocess.run([sys.executable, "-c", PROBE], env=environ, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.parametrize(("owner", "expected"), [(None, f"{ESCDELAY_MS} None"), ("60", "60 60")])
def test_the_app_is_imported_with_a_short_escape_delay_unless_the_owner_set_one(owner, expected):
    environ = {k: v for k, v in os.environ.items() if k != "ESCDELAY"}
    if owner is not None:
        environ["ESCDELAY"] = owner
    assert _probe(environ) == expected


def test_the_short_delay_is_gone_from_the_environment_afterwards():
    environ: dict[str, str] = {}
    with short_escape_delay(environ):
        assert environ == {"ESCDELAY": str(ESCDELAY_MS)}
    assert environ == {}
    environ = {"ESCDELAY": "300"}
    with short_escape_delay(environ):
        assert environ == {"ESCDELAY": "300"}
    assert environ == {"ESCDELAY": "300"}
