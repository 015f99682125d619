"""The Chief room's conversation controls: keys, what the footer offers, and the asks.

The room (a subclass) gets these bindings wherever the focus is inside it. Each
action only asks, by message; the room decides (keeltui/chief/controls.py) and acts (panes/chief/).
What the footer offers follows the room's state: ``reply_phase`` (the room's
one "a reply is on its way" state: the composer's busy mark, the working indicator and
the keys all follow it), ``retry_ready`` after a reply failed, was cut off or was stopped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import Vertical
from textual.message import Message
from textual.reactive import var

from keeltui.panes.common.bindings import bind
from keeltui.panes.common.working import WorkingIndicator

if TYPE_CHECKING:
    from keeltui.panes.chief.room_log import RoomLog
    from keeltui.panes.common.composer import Composer

REPLY_IDLE = "idle"
REPLY_WAITING = "waiting"
"""Sent; no text of the reply yet (the working indicator shows)."""
REPLY_STREAMING = "streaming"


class RoomControls(Vertical):
    DEFAULT_CSS = """
    RoomControls.-quiet SearchBar, RoomControls.-quiet WorkingIndicator { display: none; }
    """

    BINDINGS = [
        bind("stop_reply", "stop_reply", "Stop"),
        bind("chief_retry", "retry", "Retry"),
        bind("regenerate", "regenerate", "Regenerate", show=False),
        bind("edit_last", "edit_last", "Edit last", show=False),
        bind("edit_cancel", "edit_cancel", "Cancel edit"),
        # Priority: run as the app takes the key in, before it hands on the keys behind it
        # (one read over SSH), so those are typed into the search field, not on a row.
        bind("search_room", "search", "Search", priority=True),
        # Priority: they page the room wherever the focus is in it, the composer included
        # (whose own PageUp would move its cursor). Home/End keep their meaning in a draft.
        bind("room_page_up", "page(-1)", "Page up", show=False, priority=True),
        bind("room_page_down", "page(1)", "Page down", show=False, priority=True),
        bind("room_top", "go_first", "First row", show=False, priority=True),
        bind("room_bottom", "go_to_end", "Newest", show=False, priority=True),
    ]

    # ``var``: the keys and the footer follow these (watchers); nothing here is drawn from them.
    reply_phase: var[str] = var(REPLY_IDLE)
    retry_ready: var[bool] = var(False)
    edit_note: var[str] = var("")
    """While the last message is being edited: what the line above the composer says."""

    # What the room (the subclass, ChiefRoom) provides and these controls act on.
    if TYPE_CHECKING:

        @property
        def log_view(self) -> RoomLog: ...

        @property
        def composer(self) -> Composer: ...

        def page(self, direction: int) -> None: ...

        def go_first(self) -> None: ...

        def go_to_end(self) -> None: ...

    class StopWanted(Message):
        """Stop the reply on its way (its text so far is kept)."""

    class RetryWanted(Message):
        """Ask again for the answer that failed."""

    class RegenerateWanted(Message):
        """Ask again for the last answer (the old one is kept, folded)."""

    class EditWanted(Message):
        """Put the last user turn back in the composer, to change and resend."""

    class EditCancelled(Message):
        """Escape while editing: give the composer its draft back, resend nothing."""

    @property
    def replying(self) -> bool:
        return self.reply_phase != REPLY_IDLE

    def watch_reply_phase(self, phase: str) -> None:
        self.composer.busy = phase != REPLY_IDLE
        self.query_one(WorkingIndicator).active = phase == REPLY_WAITING
        self.refresh_bindings()

    def watch_retry_ready(self) -> None:
        self.refresh_bindings()

    def watch_edit_note(self, note: str) -> None:
        self.query_one(WorkingIndicator).note = note
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop_reply":
            return self.replying  # otherwise Escape falls through to "leave the composer"
        if action == "retry":
            return self.retry_ready and not self.replying
        if action in ("regenerate", "edit_last"):
            return not self.replying
        if action == "edit_cancel":
            return bool(self.edit_note)  # otherwise Escape falls through to "leave the composer"
        return True

    def action_stop_reply(self) -> None:
        self.post_message(self.StopWanted())

    def action_retry(self) -> None:
        self.post_message(self.RetryWanted())

    def action_regenerate(self) -> None:
        self.post_message(self.RegenerateWanted())

    def action_edit_last(self) -> None:
        self.post_message(self.EditWanted())

    def action_page(self, direction: int) -> None:
        self.page(direction)

    def action_go_first(self) -> None:
        self.go_first()

    def action_go_to_end(self) -> None:
        self.go_to_end()

    def action_edit_cancel(self) -> None:
        self.post_message(self.EditCancelled())

    async def action_search(self) -> None:
        # Mounted on first use: the first frame does not pay for a search field.
        from keeltui.panes.chief.search_bar import SearchBar

        bars = self.query(SearchBar)
        if bars:
            bars.first().open()
            return
        bar = SearchBar(id="room-search")
        await self.mount(bar, before=self.query_one("#room-working"))
        bar.open()

    # -- what the app hands down ---------------------------------------------------------

    def redraw_rows(self, rows) -> None:
        """Draw ``rows`` afresh where they stand (a reply that became an earlier version)."""
        self.log_view.update_rows([row for row in rows if row is not None])

    def mark_match(self, row_id: int | None) -> None:
        """Highlight the search match ``row_id`` (None: no highlight) and bring it into view."""
        self.log_view.mark_match(row_id)
