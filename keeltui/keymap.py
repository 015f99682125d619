"""Every key-driven action, once: its binding id, default keys, where it is bound, what it does.

This is the one list. ``[keys]`` in config.toml remaps by these ids (config checks a
remap against it), the widgets declare their ``Binding``s with these ids and keys, and
tests/unit/test_keymap.py finds every ``Binding`` in keeltui by itself and holds it,
config.example.toml and the README's key table to this list. Pure: no Textual here,
so config and the CLI can read it cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KeyAction:
    id: str
    """The binding id: what a ``[keys]`` entry names to remap it."""
    keys: str
    """The default key(s), in Textual's names (comma-separated)."""
    where: str
    """Where it is bound: the app, the composer, a room row, the tutor pane, a quiz."""
    does: str
    """What it does, in the README's words."""


ACTIONS: tuple[KeyAction, ...] = (
    KeyAction("quit", "ctrl+q", "app", "quit"),
    KeyAction("quiet", "ctrl+g", "app", "Quiet Mode on/off"),
    KeyAction("switch_pane", "ctrl+t", "app", "switch between the Chief room and the tutor"),
    KeyAction("leave_composer", "escape", "app", "leave the composer"),
    KeyAction("compose", "i", "app", "back to the composer"),
    KeyAction("snooze", "z", "app", "snooze the drift coach for an hour"),
    KeyAction("focus", "f", "app", "start a focus session"),
    KeyAction("stop_focus", "F", "app", "stop the focus session"),
    KeyAction("settings", "f2", "app", "settings: ambient mode and cadence"),
    KeyAction("copy_message", "c", "row", "copy the focused message (OSC 52)"),
    KeyAction("accept_plan", "ctrl+o", "composer", "accept the tutor's plan"),
    KeyAction("decline_plan", "ctrl+r", "composer", "decline the tutor's plan"),
    KeyAction("quiz_answer", "enter", "quiz", "answer the tutor's quiz"),
    KeyAction("tutor_leave_input", "escape", "tutor", "hand the keys to an open quiz"),
    KeyAction("tutor_sessions", "ctrl+l", "tutor", "the tutor's session list"),
    KeyAction("tutor_retry", "f5", "tutor", "retry the tutor's turn after a brain error"),
)

BINDING_IDS: tuple[str, ...] = tuple(action.id for action in ACTIONS)
"""Every binding id a ``[keys]`` entry may remap."""


def action(binding_id: str) -> KeyAction:
    """The registry entry for ``binding_id`` (KeyError for an unknown id)."""
    for entry in ACTIONS:
        if entry.id == binding_id:
            return entry
    raise KeyError(binding_id)
