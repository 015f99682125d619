"""The key registry (keeltui/keys/keymap.py) is the one list: every Binding, the example config
and the README's key table agree with it. The bindings are found, not listed by hand."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import keeltui
from keeltui.keys.keymap import ACTIONS, BINDING_IDS, action

ROOT = Path(__file__).resolve().parents[2]


def declared_bindings() -> dict[str, set[str]]:
    """Binding id -> the keys given to it, over every class in every keeltui module."""
    from textual.binding import Binding
    from textual.dom import DOMNode

    found: dict[str, set[str]] = {}
    for info in pkgutil.walk_packages(keeltui.__path__, prefix="keeltui."):
        if info.name.endswith("__main__"):
            continue  # runs the CLI when imported
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if not issubclass(cls, DOMNode) or not cls.__module__.startswith("keeltui."):
                continue
            for binding in cls.__dict__.get("BINDINGS", ()):
                if isinstance(binding, Binding) and binding.id:
                    found.setdefault(binding.id, set()).add(binding.key)
    return found


def test_every_binding_is_in_the_registry_with_its_default_keys():
    declared = declared_bindings()
    assert set(declared) == set(BINDING_IDS), set(declared) ^ set(BINDING_IDS)
    for binding_id, keys in declared.items():
        assert keys == {action(binding_id).keys}, (binding_id, keys)


def test_no_binding_repeats_an_id_or_keys_by_hand():
    """Every remappable binding is declared through ``bind`` (keeltui/panes/common/bindings.py),
    which takes its keys from the registry: no ``Binding(..., id=...)`` anywhere else."""
    by_hand = []
    for path in sorted((ROOT / "keeltui").rglob("*.py")):
        if path.name == "bindings.py":
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if "Binding(" in line and "id=" in line:
                by_hand.append(f"{path.relative_to(ROOT)}:{number}")
    assert not by_hand, by_hand


def test_a_remap_moves_the_key_of_a_registry_binding():
    """``[keys]`` remaps by id: the id ``bind`` gives is the one Textual's keymap matches."""
    from textual.binding import BindingsMap

    from keeltui.panes.common.bindings import bind

    bindings = BindingsMap([bind("copy_message", "copy", "Copy")])
    bindings.apply_keymap({"copy_message": "y"})
    assert list(bindings.key_to_bindings) == ["y"]
    assert bindings.key_to_bindings["y"][0].action == "copy"


def test_ids_are_unique():
    assert len(BINDING_IDS) == len(set(BINDING_IDS))
    assert [a.id for a in ACTIONS] == list(BINDING_IDS)


def test_the_example_config_lists_every_id():
    text = (ROOT / "config.example.toml").read_text()
    ids_block = text.split("[keys]")[1].split("Ids:")[1]
    listed = set(re.findall(r"\b([a-z_]+)(?=[,.])", ids_block))
    assert listed == set(BINDING_IDS), listed ^ set(BINDING_IDS)


def test_the_readme_key_table_names_every_id():
    table = (ROOT / "README.md").read_text().split("## Keys")[1].split("\n## ")[0]
    named = set(re.findall(r"`([a-z_]+)`", "\n".join(line.split("|")[-2] for line in table.splitlines()
                                                      if line.startswith("|") and line.count("|") >= 4)))
    assert named == set(BINDING_IDS), named ^ set(BINDING_IDS)
