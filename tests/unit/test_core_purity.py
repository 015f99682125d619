"""The pure core stays pure: importing a decision module never loads Textual or openai."""

from __future__ import annotations

import subprocess
import sys

import pytest

CORE_MODULES = [
    "keeltui.chief.turn_kinds",
    "keeltui.chief.turn_warning",
    "keeltui.chief.context",
    "keeltui.chief.quiet",
    "keeltui.jsonextract",
    "keeltui.durations",
    "keeltui.textsafe",
    "keeltui.statusfile",
    "keeltui.review",
    "keeltui.config",
    "keeltui.tutor.mermaid",
    "keeltui.tutor.phases",
    "keeltui.tutor.plan_status",
    "keeltui.tutor.tools",
    "keeltui.tutor.prompts",
    "keeltui.tutor.transcript",
    "keeltui.tutor.replay",
    "keeltui.tutor.session",
    "keeltui.tutor.graph_layout",
    "keeltui.tutor.mastery",
    "keeltui.chief.streaming",
    "keeltui.ambient.modes",
    "keeltui.ambient.frame",
    "keeltui.ambient.judges",
    "keeltui.ambient.focus",
    "keeltui.ambient.window",
    "keeltui.ambient.ports",
    "keeltui.ambient.day",
    "keeltui.ambient.settings_order",
    "keeltui.sentinel",
]

PROBE = (
    "import importlib, sys; importlib.import_module(sys.argv[1]); "
    "print(sorted(m for m in ('textual', 'openai', 'sqlite3') if m in sys.modules))"
)


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_loads_neither_textual_nor_openai(module):
    out = subprocess.run([sys.executable, "-c", PROBE, module], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    loaded = eval(out.stdout.strip())
    assert "textual" not in loaded and "openai" not in loaded, f"{module} loads {loaded}"
    if module != "keeltui.config":
        assert "sqlite3" not in loaded, f"{module} loads sqlite3: decisions take values, not the store"


def test_status_command_path_is_light():
    code = (
        "import sys; from keeltui.cli import main; main(['status']); "
        "print('LOADED', sorted(m for m in ('textual', 'openai', 'rich') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "LOADED []"
