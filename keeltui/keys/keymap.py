"""Every key-driven action, once: its binding id, default keys, where it is bound, what it does.

This is the one list. ``[keys]`` in config.toml remaps by these ids (config checks a
remap against it), the widgets declare their ``Binding``s with these ids and keys, and
tests/unit/test_keymap.py finds every ``Binding`` in keeltui by itself and holds it,
config.example.toml and the README's key table to this list. Pure: no Textual here,
so config and the CLI can read it cheaply.
"""

from __future__ import annotations

from collections.abc import Mapping
from keeltui.infra.records import record


@record(frozen=True)
class KeyAction:
    id: str
    """The binding id: what a ``[keys]`` entry names to remap it."""
    keys: str
    """The default key(s), in Textual's names (comma-separated)."""
    where: str
    """Where it is bound: the app, the Chief room, its row list, the tutor pane, a quiz."""
    does: str
    """What it does, in the README's words."""


ACTIONS: tuple[KeyAction, ...] = (
    # App-wide chords and F-keys: they work everywhere, also while typing.
    KeyAction("quit", "ctrl+q", "app", "quit"),
    KeyAction("quiet", "ctrl+g", "app", "Quiet Mode on/off"),
    KeyAction("switch_pane", "ctrl+t", "app", "switch between the Chief room and the tutor"),
    KeyAction("leave_composer", "escape", "app", "leave the composer"),
    KeyAction("snooze", "f6", "app", "snooze the drift coach for an hour"),
    KeyAction("focus", "f7", "app", "start a focus session"),
    KeyAction("stop_focus", "f8", "app", "stop the focus session"),
    KeyAction("settings", "f2", "app", "settings: ambient mode and cadence"),
    KeyAction("day", "f3", "app", "your day: time on task, drifting and away"),
    KeyAction("that_was_work", "f10", "app", "that was work: the drift on screen was not drift"),
    KeyAction("day_work", "w", "day view", "that was work: the chosen drift episode was not drift"),
    KeyAction("help", "f1", "app", "this help: every key, wherever you are"),
    # The Chief room, wherever the focus is inside it.
    KeyAction("stop_reply", "escape", "room", "stop the Chief reply on its way"),
    KeyAction("chief_retry", "f5", "room", "ask again after a failed, cut or stopped reply"),
    KeyAction("regenerate", "ctrl+r", "room", "regenerate the last reply"),
    KeyAction("edit_last", "ctrl+up", "room", "edit and resend your last message"),
    KeyAction("edit_cancel", "escape", "room", "cancel the edit: the draft you had comes back"),
    KeyAction("search_room", "ctrl+f", "room", "search the whole room"),
    KeyAction("search_older", "up", "search", "the older search match"),
    KeyAction("search_newer", "down", "search", "the newer search match"),
    KeyAction("search_close", "escape", "search", "close the search"),
    KeyAction("room_first", "home", "room log", "the room's first row"),
    KeyAction("room_latest", "end", "room log", "back to the newest text"),
    KeyAction("room_page_up", "pageup", "room", "a page back through the room, from the composer too"),
    KeyAction("room_page_down", "pagedown", "room", "a page forward through the room, from the composer too"),
    KeyAction("room_top", "ctrl+home", "room", "the room's first row, from the composer too"),
    KeyAction("room_bottom", "ctrl+end", "room", "the newest row, followed again, from the composer too"),
    # The room's row list (single letters: never while a text field has the focus).
    KeyAction("compose", "i", "row", "back to the composer"),
    KeyAction("row_snooze", "z", "row", "snooze the drift coach for an hour (as F6)"),
    KeyAction("row_focus", "f", "row", "start a focus session (as F7)"),
    KeyAction("row_stop_focus", "F", "row", "stop the focus session (as F8)"),
    KeyAction("row_up", "up", "row", "the previous message"),
    KeyAction("row_down", "down", "row", "the next message"),
    KeyAction("copy_message", "c", "row", "copy the focused message (OSC 52)"),
    KeyAction("fold_summary", "enter", "row", "fold or unfold a summary"),
    KeyAction("toggle_version", "enter", "row", "show or hide an earlier version"),
    # The owner's own editor and pager, and code blocks (issue 22).
    KeyAction("editor", "ctrl+n", "composer", "write the draft in $VISUAL/$EDITOR (Enter still sends)"),
    # Readline's Alt words in a composer. Bound, they stay Alt keys when tmux sends them as
    # ESC and the letter (keeltui/terminal/keyinput.py reads an unbound ESC <letter> as
    # Escape then the letter: Alt+F would leave the composer and start a focus session).
    KeyAction("word_left", "alt+b", "composer", "a word back, as in readline (also Ctrl+←)"),
    KeyAction("word_right", "alt+f", "composer", "a word on, as in readline (also Ctrl+→)"),
    KeyAction("delete_word_right", "alt+d", "composer", "delete the word after the cursor, as in readline"),
    KeyAction("pager", "v", "row", "read the focused message in $PAGER"),
    KeyAction("copy_code", "y", "row", "copy the focused reply's code block (a chooser when there are several)"),
    KeyAction("toggle_thinking", "t", "row", "show or hide a reply's thinking"),
    # The tutor pane, wherever the focus is inside it.
    KeyAction("accept_plan", "ctrl+o", "tutor", "accept the tutor's plan"),
    KeyAction("decline_plan", "ctrl+r", "tutor", "decline the tutor's plan"),
    KeyAction("tutor_leave_input", "escape", "tutor", "stop the tutor's turn, or hand the keys to an open quiz"),
    KeyAction("tutor_sessions", "ctrl+l", "tutor", "the tutor's session list"),
    KeyAction("tutor_retry", "f5", "tutor", "retry the tutor's turn after a brain error"),
    KeyAction("tutor_summary", "f4", "tutor", "the tutor session's summary"),
    KeyAction("tutor_abort_job", "f9", "tutor", "abort the tutor's newest running background job"),
    KeyAction("tutor_rename_session", "r", "session list", "rename a tutor session"),
    KeyAction("tutor_delete_session", "delete,d", "session list", "delete a tutor session (asks first)"),
    KeyAction("quiz_answer", "enter", "quiz", "answer the tutor's quiz"),
    KeyAction("quiz_dont_know", "0", "quiz", "answer the tutor's quiz with “I don't know”"),
)

BINDING_IDS: tuple[str, ...] = tuple(action.id for action in ACTIONS)
"""Every binding id a ``[keys]`` entry may remap."""


def action(binding_id: str) -> KeyAction:
    """The registry entry for ``binding_id`` (KeyError for an unknown id)."""
    for entry in ACTIONS:
        if entry.id == binding_id:
            return entry
    raise KeyError(binding_id)


def keys_of(entry: KeyAction, remaps: Mapping[str, str]) -> str:
    """``entry``'s keys (comma-separated), the owner's ``[keys]`` remap in place of the default."""
    return remaps.get(entry.id) or entry.keys


def keys_in_use(remaps: Mapping[str, str]) -> frozenset[str]:
    """Every key some binding answers, with the owner's ``[keys]`` remaps applied."""
    return frozenset(key for entry in ACTIONS for key in keys_of(entry, remaps).split(","))


TYPING_PLACES = ("app", "room", "tutor", "search")
"""Places whose bindings also fire while a text field there has the focus."""
TYPING_KEYS = ("enter", "space", "backspace", "delete")


def _typed(key: str) -> bool:
    """Whether ``key`` (one normalised spec) is what a person types into a text field."""
    *modifiers, name = key.split("+")
    if any(modifier != "shift" for modifier in modifiers):
        return False
    if name in TYPING_KEYS or len(name) == 1:
        return True
    from keeltui.keys.keyspec import NAMED_KEYS

    return name not in NAMED_KEYS  # a character's name: comma, full_stop, exclamation_mark


def _places_meet(one: KeyAction, other: KeyAction) -> bool:
    """Whether a key bound in both places would reach both: the same place, or one app-wide."""
    return one.where == other.where or "app" in (one.where, other.where)


def remap_problem(remaps: dict[str, str]) -> tuple[str, str] | None:
    """``(binding id, what is wrong)`` for the first remap that would eat typing or collide
    with another binding in the same place; None when every remap is safe.

    ``remaps`` maps binding ids to normalised key lists (keyspec.parse_keys). Collisions
    the defaults already have on purpose (Escape leaves the composer and stops a reply)
    are not new, so they are not refused.
    """
    def key_set(entry: KeyAction, table: dict[str, str]) -> set[str]:
        return set(keys_of(entry, table).split(","))

    for binding_id, keys in remaps.items():
        entry = action(binding_id)
        if entry.where in TYPING_PLACES:
            for key in keys.split(","):
                if _typed(key):
                    return binding_id, (f"{key!r} is typed as text: bound to {entry.does!r} ({entry.where}) "
                                        f"it would fire while you type; choose a chord (ctrl+…) or an F-key")
        for other in ACTIONS:
            if other.id == binding_id or not _places_meet(entry, other):
                continue
            shared = key_set(entry, remaps) & key_set(other, remaps)
            if shared and not key_set(entry, {}) & key_set(other, {}):
                key = sorted(shared)[0]
                return binding_id, (f"{key!r} is also the key of {other.id!r} ({other.does}, {other.where}): "
                                    f"one of the two would never fire")
    return None
_KEY_NAMES = {
    "up": "↑", "down": "↓", "left": "←", "right": "→", "pageup": "PageUp", "pagedown": "PageDown",
    "escape": "Esc", "enter": "Enter", "home": "Home", "end": "End", "delete": "Delete", "tab": "Tab",
    "space": "Space", "backspace": "Backspace", "insert": "Insert",
}


def key_label(keys: str) -> str:
    """How a person reads Textual's key names: ``ctrl+up`` → ``Ctrl+↑``, ``delete,d`` → ``Delete / d``."""
    labels = []
    for key in keys.split(","):
        *modifiers, name = key.strip().split("+")
        if len(name) == 1 and modifiers:
            name = name.upper()  # Ctrl+G, as keyboards print it
        elif len(name) > 1:
            name = _KEY_NAMES.get(name, name.upper() if name[0] == "f" and name[1:].isdigit() else name.replace("_", " "))
        labels.append("+".join([*(m.capitalize() for m in modifiers), name]))
    return " / ".join(labels)
