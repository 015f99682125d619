"""Key specs for ``[keys]`` remaps, read by Textual's rules without importing Textual.

``keeltui status`` validates the config and must not load Textual, so this module
mirrors how Textual names keys (``textual.keys``): ``ctrl+k``, ``f3``, ``escape``, a
single character, or a character's name (``exclamation_mark``); several specs are
separated by commas. A spec no key press can produce (``"not a key!!"``) would
silently disable the action it remaps, so it is refused. A test keeps this in step
with Textual's own names. Pure.
"""

from __future__ import annotations

import unicodedata
from typing import TypeGuard

MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")
NAMED_KEYS = frozenset(
    ["escape", "enter", "return", "tab", "space", "backspace", "delete", "insert", "home", "end",
     "pageup", "pagedown", "up", "down", "left", "right", "newline", "ctrl-at", "at"]
    + [f"f{n}" for n in range(1, 25)]
)
# Textual's friendlier names for some characters (textual.keys.KEY_NAME_REPLACEMENTS).
_REPLACEMENTS = {
    "solidus": "slash", "reverse_solidus": "backslash", "commercial_at": "at",
    "hyphen_minus": "minus", "plus_sign": "plus", "low_line": "underscore",
}
_UNICODE_NAMES = {friendly: original.upper().replace("_", " ") for original, friendly in _REPLACEMENTS.items()}
_UNICODE_NAMES["minus"] = "HYPHEN-MINUS"


class KeySpecError(ValueError):
    """A key spec Textual would accept but no key press can ever match."""


def character_key(character: str) -> str:
    """Textual's key name for one typed character (``!`` → ``exclamation_mark``)."""
    if character.isalnum():
        return character
    try:
        name = unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
    except ValueError:
        name = {"\t": "tab"}.get(character, character)
    return _REPLACEMENTS.get(name, name)


def typed_character(character: str | None) -> TypeGuard[str]:
    """Whether ``character`` is one a person types into text: a printable one, or a space of
    any width. Python calls a no-break space (Option+Space on a Mac) or an em space
    unprintable, and Textual's ``Key.is_printable`` follows it: such a key was dropped."""
    return character is not None and len(character) == 1 and (
        character.isprintable() or unicodedata.category(character) == "Zs")


def _is_character_name(name: str) -> bool:
    """A key named after a printable character (``comma``, ``full_stop``, ``slash``)."""
    unicode_name = _UNICODE_NAMES.get(name, name.replace("_", " ").upper())
    try:
        character = unicodedata.lookup(unicode_name)
    except KeyError:
        return False
    return character.isprintable() and character_key(character) == name


def parse_key(spec: str) -> str:
    """One key spec, normalised the way Textual names the key; KeySpecError if none matches."""
    spec = spec.strip()
    if not spec:
        raise KeySpecError("an empty key")
    if len(spec) == 1:
        if not spec.isprintable() or spec.isspace():
            raise KeySpecError(f"{spec!r} is not a key")
        return character_key(spec)
    *modifiers, key = spec.split("+")
    if key == "" and modifiers and modifiers[-1] == "":
        modifiers, key = modifiers[:-1], "plus"  # "ctrl++"
    for modifier in modifiers:
        if modifier not in MODIFIERS:
            raise KeySpecError(f"{spec!r}: {modifier!r} is not a modifier (allowed: {', '.join(MODIFIERS)})")
    if len(set(modifiers)) != len(modifiers):
        raise KeySpecError(f"{spec!r}: a modifier is repeated")
    if len(key) == 1 and key.isprintable() and not key.isspace():
        pass  # Textual names a lone character only when it is the whole spec
    elif key not in NAMED_KEYS and not _is_character_name(key):
        where = f"{spec!r}: " if modifiers else ""
        raise KeySpecError(f"{where}{key!r} is not a key name (e.g. ctrl+k, f3, escape, space)")
    return "+".join([*modifiers, key])


def parse_keys(value: str) -> str:
    """A comma-separated list of specs, normalised (no spaces: Textual's keymap does not strip)."""
    return ",".join(parse_key(part) for part in value.split(","))
