"""Editing the last message (Ctrl+↑): put it back in the composer, resend it, or cancel.

Whether it may be edited is decided in keeltui/chief/controls.py; the edit itself
(keeltui/chief/editing.py) remembers the draft the composer held, which Escape gives back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from keeltui.chief import controls as chief_controls
from keeltui.chief.editing import Edit
from keeltui.panes.common.events import StatusMessage
from keeltui.panes.chief.room_controls import REPLY_IDLE

if TYPE_CHECKING:
    from keeltui.chief_view import ChiefRoom


class LastEdit:
    def __init__(self, room: ChiefRoom) -> None:
        self.room = room
        self._edit: Edit | None = None

    @property
    def open(self) -> bool:
        return self._edit is not None

    def _set(self, edit: Edit | None) -> None:
        """The one place the edit state changes: the line above the composer follows it."""
        self._edit = edit
        self.room.edit_note = edit.note() if edit is not None else ""

    def begin(self) -> None:
        room = self.room
        user, reply = room.turns.last_exchange()
        if room.quiet or room.reply_phase != REPLY_IDLE or not chief_controls.can_edit(user, reply):
            room.app.bell()
            return
        field = room.composer.input
        # A second Ctrl+↑ keeps the draft the first one saved: Escape must give that back.
        draft = self._edit.draft if self._edit is not None else field.text
        self._set(Edit(user.id, user.created_at, draft))
        self._put_back(user.content)

    def cancel(self) -> None:
        """Escape while editing: the draft the composer held comes back; nothing is sent."""
        edit = self._edit
        if edit is None:
            return
        self._set(None)
        self._put_back(edit.draft)

    def _put_back(self, text: str) -> None:
        field = self.room.composer.input
        field.load_text(text)
        field.move_cursor(field.document.end)  # ready to type on
        self.room.composer.focus_input()

    def resend(self, text: str) -> int | None:
        """Store ``text`` in place of the message being edited; the new user row's id."""
        edit = self._edit
        self._set(None)
        if edit is None:  # nothing is being edited: nothing to resend
            return None
        room = self.room
        _, old_reply = room.turns.last_exchange()
        user_id = room.turns.resend_edited(edit.user_id, text)
        if user_id is not None:
            stale = [edit.user_id] + ([old_reply.id] if old_reply is not None else [])
            room.redraw_rows([room.rows.message(i) for i in stale])
            room.post_message(StatusMessage(""))
        return user_id
