"""The single-letter keys of the Chief room's row list, and ↑/↓ between messages.

They are bound here, on the list of rows, and never on the app: a letter typed into
the composer, an Input or a quiz must stay a letter. When a row (or the list) has
the focus they act, and the footer shows them. z/f/F are aliases of F6/F7/F8.
"""

from __future__ import annotations

from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widget import Widget

from keeltui.panes.bindings import bind

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


def step_row(rows: list[Widget], focused: Widget | None, step: int) -> Widget | None:
    """The row ``step`` away from ``focused`` (the newest one if none is focused)."""
    if not rows:
        return None
    if focused not in rows:
        return rows[-1]
    index = rows.index(focused) + step
    return rows[index] if 0 <= index < len(rows) else None


class RowList(VerticalScroll):
    """A scrolling list of rows with the keys above (the room's log is one)."""

    BINDINGS = ROW_KEY_BINDINGS

    def _rows(self) -> list[Widget]:
        return [w for w in self.children if w.can_focus and w.display]

    def _step(self, step: int) -> None:
        rows = self._rows()
        focused = self.app.focused
        if focused not in rows:
            # No row has the keys (the list itself does, e.g. after the focused row was
            # paged out): step from the edge of what is on screen, never from a row far
            # below the view, so ↑ moves the view up one message.
            visible = [row for row in rows if row.region and self.region.overlaps(row.region)]
            if visible:
                focused = visible[0] if step < 0 else visible[-1]
        target = step_row(rows, focused, step)
        if target is not None:
            target.focus(scroll_visible=False)
            self.scroll_to_widget(target, animate=False, top=step < 0)
        elif step < 0:
            # At the first mounted row: reaching the top pages older rows in.
            self.scroll_home(animate=False)
        else:
            self.scroll_end(animate=False)

    def action_previous_row(self) -> None:
        self._step(-1)

    def action_next_row(self) -> None:
        self._step(1)

    # -- the focused row's text (keeltui/panes/row_text.py) ------------------------------

    def action_copy_code(self) -> None:
        from keeltui.panes.row_text import copy_code, focused_row

        row = focused_row(self)
        if row is None:
            self.app.bell()
        else:
            copy_code(self.app, row)

    def action_view_row(self) -> None:
        from keeltui.panes.row_text import PagerWanted, focused_row

        row = focused_row(self)
        if row is None:
            self.app.bell()
        else:
            self.post_message(PagerWanted(row))
