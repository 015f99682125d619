"""Bindings declared from the key registry (keeltui/keys/keymap.py), never by hand.

``bind("copy_message", "copy", "Copy")`` takes the keys and the binding id from the
registry, so a key string lives in one place and ``[keys]`` remaps (Textual's keymap,
which matches on the id) keep working. A widget's own local keys with no id (a
dialog's Escape, a quiz's digits) are not remappable and stay plain ``Binding``s.
"""

from __future__ import annotations

from textual.binding import Binding

from keeltui.keys.keymap import action as registry_entry


def bind(binding_id: str, action: str, description: str = "", **options) -> Binding:
    """The ``Binding`` for registry entry ``binding_id`` (KeyError for an unknown id)."""
    return Binding(registry_entry(binding_id).keys, action, description, id=binding_id, **options)
