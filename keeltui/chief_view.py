"""The Chief room: the endless conversation as one virtual log, and the composer.

The room is a projection of the store. Its rows are drawn by one line-API widget
(:class:`~keeltui.panes.chief.room_log.RoomLog`) that reads them from the row source
the app hands it, a few pages ahead of the view, and holds a bounded run of them. In
Quiet Mode the whole room is replaced by one sentence.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from textual.app import ComposeResult
from textual.reactive import reactive
from textual.widgets import Static

from keeltui.chief.context import Row as RowLike  # one protocol for a stored row
from keeltui.chief.quiet import QUIET_MODE_REFUSAL
from keeltui.chief.streaming import StreamBuffer
from keeltui.panes.chief.room_log import PAGE_ROWS, RoomLog
from keeltui.panes.chief.row_source import RowSource
from keeltui.panes.composer import Composer, ComposerInput
from keeltui.panes.room_controls import RoomControls
from keeltui.panes.working import WorkingIndicator

__all__ = ["ChiefRoom", "PAGE_ROWS", "RoomLog", "RowLike"]


class ChiefRoom(RoomControls):
    DEFAULT_CSS = """
    ChiefRoom { height: 1fr; }
    ChiefRoom #quiet-curtain {
        height: 1fr; content-align: center middle; text-style: bold; color: $text-muted;
        display: none;
    }
    ChiefRoom.-quiet #quiet-curtain { display: block; }
    ChiefRoom.-quiet RoomLog { display: none; }
    ChiefRoom.-quiet Composer { display: none; }
    ChiefRoom #new-below {
        height: 1; width: 100%; content-align: center middle;
        background: $primary-darken-2; color: $text; display: none;
    }
    ChiefRoom.-new-below #new-below { display: block; }
    ChiefRoom.-quiet #new-below { display: none; }
    """

    quiet: reactive[bool] = reactive(False)

    def __init__(self, owner_name: str, companion_name: str, window_rows: int = 120, *,
                 first_rows: Sequence[RowLike] = (), source: RowSource | None = None, id: str | None = None) -> None:
        """``first_rows``: the newest rows (oldest first), drawn in the first frame;
        ``source``: where older and newer rows are read from as the owner pages."""
        super().__init__(id=id)
        self._first_rows = first_rows
        self._source = source
        self.owner_name = owner_name
        self.companion_name = companion_name
        self.window_rows = window_rows

    def compose(self) -> ComposeResult:
        yield Static(QUIET_MODE_REFUSAL, id="quiet-curtain", markup=False)
        # The first frame shows the newest rows as written; Markdown is formatted right after it.
        yield RoomLog(self.owner_name, self.companion_name, source=self._source, window_rows=self.window_rows,
                      first_rows=self._first_rows, plain_first=True, id="room-log")
        yield WorkingIndicator(self.companion_name, id="room-working")
        yield Static("▼ new text below · End", id="new-below", markup=False)
        yield Composer("Write to the Chief…  (Enter sends, Alt+Enter: new line)", buttons=False, id="chief-composer")

    @property
    def log_view(self) -> RoomLog:
        return self.query_one(RoomLog)

    @property
    def composer(self) -> Composer:
        return self.query_one(Composer)

    @property
    def source(self) -> RowSource | None:
        return self.log_view.source

    @source.setter
    def source(self, source: RowSource | None) -> None:
        self.log_view.source = source

    def watch_quiet(self, was_quiet: bool, quiet: bool) -> None:
        self.set_class(quiet, "-quiet")
        if was_quiet and not quiet:
            # Only on the way out of Quiet Mode: at mount (the watcher runs then too) going
            # to the end would undo a PageUp pressed in the first frames.
            self.log_view.go_to_end()

    # -- rows in --------------------------------------------------------------------

    @property
    def at_latest(self) -> bool:
        """Whether the newest rows are held; False once paging back dropped them."""
        return self.log_view.window.at_latest

    @property
    def mounted_ids(self) -> list[int]:
        """The ids of the rows the log holds now (oldest first)."""
        return self.log_view.row_ids

    def shows(self, row_id: int) -> bool:
        return self.log_view.row(row_id) is not None

    def show_rows(self, rows: Iterable[RowLike], *, reaches_latest: bool = True) -> None:
        """Hold exactly ``rows`` (oldest first), following the newest."""
        self.log_view.show(list(rows), at_latest=reaches_latest)
        self.set_class(False, "-new-below")

    def append_rows(self, rows: Iterable[RowLike]) -> None:
        """New rows at the bottom; a row already held is updated in place.

        While the newest rows are not held (the owner paged far back), new rows wait:
        they would stand after a gap. They are read in when the owner comes back down.
        """
        self.log_view.update_rows(list(rows))

    # -- paging (the keys engineer's PageUp from the composer calls these) ---------------

    def page(self, direction: int) -> None:
        """One screen up (-1) or down (1)."""
        self.log_view.page(direction)

    def go_first(self) -> None:
        """The room's first row (Home)."""
        self.set_class(False, "-new-below")
        self.log_view.go_first()

    def go_to_end(self) -> None:
        """End: the newest rows, followed again."""
        self.follow_latest()

    def follow_latest(self) -> None:
        """Back to the bottom, following it again (End, sending, a fresh window)."""
        self.set_class(False, "-new-below")
        self.log_view.go_to_end()

    def on_room_log_end_reached(self, event: RoomLog.EndReached) -> None:
        event.stop()
        self.set_class(False, "-new-below")

    def on_room_log_grew(self, event: RoomLog.Grew) -> None:
        event.stop()
        if not self.log_view.following:
            self.set_class(True, "-new-below")

    def on_composer_input_end_wanted(self, event: ComposerInput.EndWanted) -> None:
        event.stop()
        self.go_to_end()

    def on_composer_submitted(self, event: Composer.Submitted) -> None:
        # Not stopped: the app sends it. Sending returns the view to the bottom.
        if self.at_latest:
            self.follow_latest()

    def focus_latest_row(self) -> bool:
        """The cursor on the newest row shown, the keys to the log; False for an empty room."""
        log = self.log_view
        log.focus_row()
        return bool(log.row_ids)

    # -- streaming ------------------------------------------------------------------

    @property
    def streaming_row_id(self) -> int | None:
        """The row this process is streaming into, if any."""
        return self.log_view.streaming_row_id

    def foreign_streaming_ids(self) -> list[int]:
        """Rows shown as streaming that another process writes (re-read until they settle)."""
        log = self.log_view
        return [row.id for row in log.window.rows if row.status == "streaming" and row.id != log.streaming_row_id]

    def begin_stream(self, row: RowLike, buffer: StreamBuffer) -> None:
        """Show the reply ``row`` and let it draw what the worker puts in ``buffer``."""
        self.log_view.begin_stream(row, buffer)

    def end_stream(self, row: RowLike) -> None:
        self.log_view.end_stream(row)
