"""Search the room (Ctrl+F): the next match older or newer, shown and highlighted, and
how many there are, counted off the UI thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message
from textual.worker import get_current_worker

from keeltui.panes.chief.room_log import PAGE_ROWS
from keeltui.panes.chief.search_bar import SearchBar
from keeltui.values import StoreError

if TYPE_CHECKING:
    from keeltui.chief_view import ChiefRoom


class MatchesCounted(Message):
    """What the search bar says once the count of ``needle``'s matches is in."""

    def __init__(self, needle: str, row_id: int, status: str) -> None:
        super().__init__()
        self.needle, self.row_id, self.status = needle, row_id, status


class RoomSearch:
    def __init__(self, room: ChiefRoom) -> None:
        self.room = room
        self._at: tuple[str, int] | None = None  # (needle, id of the match shown)

    def find(self, needle: str, *, older: bool) -> None:
        room, rows = self.room, self.room.rows
        needle = needle.strip()
        if not needle:
            return
        bar = room.query_one(SearchBar)
        at = self._at[1] if self._at and self._at[0] == needle else None
        row = rows.search(needle, before_id=at) if older else rows.search(needle, after_id=at) if at is not None else None
        if row is None:
            bar.status = "no match" if at is None else ("no older match" if older else "no newer match")
            room.app.bell()
            return
        self._at = (needle, row.id)
        bar.status = "counting…"
        # Counting scans the whole room: off the UI thread, so typing never waits; a
        # newer search cancels an older count (exclusive), and its late answer is dropped.
        room.run_worker(lambda: self._count(needle, row.id), name="search-count",
                        group="search-count", exclusive=True, thread=True, exit_on_error=False)
        if not room.shows(row.id):
            # Not held: show the rows around the match (the rest is read as you scroll).
            around, reaches_latest = rows.around(row.id, PAGE_ROWS // 2)
            room.show_rows(around, reaches_latest=reaches_latest)
        room.call_after_refresh(room.mark_match, row.id)

    def _count(self, needle: str, row_id: int) -> None:
        try:
            position, total = self.room.rows.count_matches(needle, row_id)
            status = f"{position} of {total} (newest first)"
        except StoreError as exc:
            status = f"cannot count the matches: {exc}"  # never "counting…" for ever
        if not get_current_worker().is_cancelled:
            self.room.post_message(MatchesCounted(needle, row_id, status))

    def counted(self, message: MatchesCounted) -> None:
        if self._at != (message.needle, message.row_id):
            return  # the search moved on (or closed) while this was counted
        self.room.query_one(SearchBar).status = message.status

    def close(self) -> None:
        room = self.room
        self._at = None
        room.query_one(SearchBar).close()
        room.mark_match(None)
        room.composer.focus_input()
