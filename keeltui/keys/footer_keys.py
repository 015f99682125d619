"""Which keys the footer shows: the focused place's first, F1 help always, none twice, all that fit.

Textual's footer shows every active binding in the order the bindings were declared and
lets the ones past the edge fall off: at 80 columns F2, F3 and Ctrl+T vanished, and
``z Snooze 1h`` stood beside ``f6 Snooze 1h``. Here the choice is made on plain values
(the shell measures each key's cells), so it is tested without an app.
"""

from __future__ import annotations

from keeltui.infra.records import record

HELP_ID = "help"

ORDER = (
    # a row of the room: what a person does with a message first
    "copy_message", "compose", "copy_code", "fold_summary", "toggle_version", "toggle_thinking",
    "row_snooze", "row_focus",
    # the app's, wherever the focus is
    "switch_pane", "settings", "day", "snooze", "focus", "stop_focus", "quiet",
    "that_was_work", "leave_composer", "quit", "command_palette",
)
"""Keys most useful first, within one place (a key not listed keeps its declared order,
after these). The command palette's Ctrl+P comes last: F1 help names it."""


@record(frozen=True)  # a record: built before the first frame (keeltui/infra/records.py)
class FooterKey:
    binding_id: str
    """The registry id (keeltui/keys/keymap.py), or the key itself for a binding without one."""
    action: str
    """What it does, without the namespace (``app.snooze`` and ``snooze`` are the same)."""
    description: str
    depth: int
    """How far from the focus it is bound: 0 the focused widget, larger further out."""
    cells: int
    """The columns it takes in the footer."""


def _rank(key: FooterKey, order: int) -> tuple:
    if key.binding_id == HELP_ID:
        return (0, 0, 0)
    useful = ORDER.index(key.binding_id) if key.binding_id in ORDER else len(ORDER)
    return (1, key.depth, useful, order)


def choose(keys: list[FooterKey], width: int) -> list[FooterKey]:
    """The keys to show in ``width`` columns, in the order shown.

    Help comes first and always; then the keys nearest the focus, then those of the
    places around it, the app's last; within a place in ``ORDER``. A key whose action or words an earlier one
    already shows is dropped; a key that does not fit is skipped (a shorter one after
    it may still fit).
    """
    ranked = sorted(enumerate(keys), key=lambda pair: _rank(pair[1], pair[0]))
    shown: list[FooterKey] = []
    seen: set[str] = set()
    used = 0
    for _, key in ranked:
        said = {f"action:{key.action}", f"words:{key.description.casefold()}"}
        if said & seen:
            continue
        if key.binding_id != HELP_ID and used + key.cells > width:
            continue
        shown.append(key)
        seen |= said
        used += key.cells
    return shown
