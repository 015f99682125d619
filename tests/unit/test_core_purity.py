"""The pure core stays pure: importing a decision module never loads Textual, openai or sqlite3.

The modules are those of the import contract ``core-is-pure`` in pyproject.toml; the
contract itself (``make lint``) also forbids subprocess and the shell's modules."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOADS_CHECKED = ("textual", "openai", "sqlite3")


def _core_contract() -> dict:
    """The import-linter contract in pyproject.toml is the one list of core modules."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return next(c for c in config["contracts"] if c["id"] == "core-is-pure")


def core_modules() -> list[str]:
    """Every module under the contract's packages, found on disk, not listed by hand.

    A module whose import of Textual (or of a widget) the contract's ``ignore_imports``
    excuses is a known, temporary exception (listed there with the reason) and is left
    out here too."""
    contract = _core_contract()
    excused = set()
    for rule in contract.get("ignore_imports", ()):
        importer, imported = (side.strip() for side in rule.split("->"))
        if imported.split(".")[0] in LOADS_CHECKED or imported.startswith("keeltui.panes"):
            excused.add(importer)
    found: list[str] = []
    for name in contract["source_modules"]:
        module = importlib.import_module(name)
        found.append(name)
        if hasattr(module, "__path__"):
            found += [info.name for info in pkgutil.walk_packages(module.__path__, prefix=f"{name}.")]
    return sorted(m for m in found if m not in excused)


CORE_MODULES = core_modules()


def test_discovery_finds_the_core():
    # The packages are walked: a new module under chief/ or tutor/ is checked without listing it.
    assert {"keeltui.chief.turn_kinds", "keeltui.tutor.mermaid", "keeltui.ambient.frame", "keeltui.sentinel"} <= set(
        CORE_MODULES
    )
    assert len(CORE_MODULES) >= 24


PROBE = (
    "import importlib, sys; importlib.import_module(sys.argv[1]); "
    f"print(sorted(m for m in {LOADS_CHECKED!r} if m in sys.modules))"
)


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_loads_neither_textual_nor_openai(module):
    out = subprocess.run([sys.executable, "-c", PROBE, module], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    loaded = eval(out.stdout.strip())
    assert "textual" not in loaded and "openai" not in loaded, f"{module} loads {loaded}"
    assert "sqlite3" not in loaded, f"{module} loads sqlite3: decisions take values, not the store"


def test_status_command_path_is_light():
    code = (
        "import sys; from keeltui.cli.commands import main; main(['status']); "
        "print('LOADED', sorted(m for m in ('textual', 'openai', 'rich') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "LOADED []"
