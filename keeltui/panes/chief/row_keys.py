"""The single-letter keys of the Chief room's log, and ↑/↓ between messages.

They are bound on the room's log (keeltui/panes/chief/room_log.py), never on the app: a
letter typed into the composer, an Input or a quiz must stay a letter. When the log has
the focus they act, and the footer shows them. z/f/F are aliases of F6/F7/F8.
"""

from __future__ import annotations

from textual.binding import BindingType

from keeltui.panes.common.bindings import bind

ROW_KEY_BINDINGS: list[BindingType] = [
    bind("compose", "app.compose", "Write"),
    bind("row_snooze", "app.snooze", "Snooze 1h"),
    bind("row_focus", "app.start_focus", "Focus"),
    bind("row_stop_focus", "app.stop_focus", "Stop focus", show=False),
    bind("row_up", "previous_row", "Previous", show=False),
    bind("row_down", "next_row", "Next", show=False),
    bind("copy_code", "copy_code", "Copy code"),
    bind("pager", "view_row", "View", show=False),
]

