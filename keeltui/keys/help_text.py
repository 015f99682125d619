"""What F1 shows: every key, grouped by the place it works in. Pure.

Generated from the key registry (keeltui/keys/keymap.py), with the ``[keys]`` remaps applied,
so the help never disagrees with the bindings. A few keys are not remappable bindings
(the composer's Enter, Tab between places, a dialog's Escape): they are listed here, once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from keeltui.keys.keymap import ACTIONS, KeyAction, key_label, keys_of

# The places, in the order a person meets them; the registry's ``where`` names them.
PLACES: tuple[tuple[str, str], ...] = (
    ("app", "Everywhere (also while typing)"),
    ("composer", "The composer"),
    ("room", "The Chief room (from the composer too)"),
    ("room log", "The room's log"),
    ("row", "On a row of the room"),
    ("search", "Search (Ctrl+F)"),
    ("banner", "The drift banner"),
    ("tutor", "The tutor"),
    ("session list", "The tutor's session list"),
    ("quiz", "A tutor quiz"),
    ("modals", "Dialogs (settings, your day, this help, questions)"),
)

FIXED: tuple[tuple[str, str, str], ...] = (
    ("app", "Ctrl+P", "the command palette: every command, and the theme (\"Theme\")"),
    ("composer", "Enter", "send what you typed"),
    ("composer", "Alt+Enter / Ctrl+J", "a new line"),
    ("composer", "Home / End", "the start / end of the line (End in an empty composer: the newest row)"),
    ("composer", "Tab / Shift+Tab", "the next / previous place: banner, log, search, composer"),
    ("row", "any other letter", "goes to the composer, as typed"),
    ("banner", "F6 / F7", "snooze the drift coach / start a focus session (the banner's buttons)"),
    ("quiz", "1–8", "pick that answer"),
    ("modals", "Esc", "close, changing nothing"),
    ("modals", "↑ ↓ PageUp PageDown", "scroll"),
)


def help_sections(keymap: Mapping[str, str] | None = None,
                  actions: Sequence[KeyAction] = ACTIONS) -> list[tuple[str, list[tuple[str, str]]]]:
    """``[(place title, [(key label, what it does), ...]), ...]``, every action once.

    ``keymap``: the ``[keys]`` remaps (binding id → keys), shown in place of the defaults."""
    remaps = keymap or {}
    entries: dict[str, list[tuple[str, str]]] = {where: [] for where, _ in PLACES}
    for entry in actions:
        keys = keys_of(entry, remaps)
        entries.setdefault(entry.where, []).append((key_label(keys), entry.does))
    for where, keys, does in FIXED:
        entries[where].append((keys, does))
    titles = dict(PLACES)
    return [(titles.get(where, where), items) for where, items in entries.items() if items]
