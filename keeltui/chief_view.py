"""The Chief room: the endless conversation as one virtual log, and the composer.

The room is a projection of the store. Its rows are drawn by one line-API widget
(:class:`~keeltui.panes.chief.room_log.RoomLog`) that reads them from the row source
the app hands it, a few pages ahead of the view, and holds a bounded run of them. In
Quiet Mode the whole room is replaced by one sentence.

The room owns its behaviour: sending, the reply (panes/chief/reply.py), editing the
last message (edit.py), search (search.py), the model and persona dialogs (choices.py).
Its services come from the composition root as :class:`ChiefParts`; what the app must
know (a status line, the brain answered, a turn landed) goes up as messages.
"""

from __future__ import annotations

import logging
import time
from functools import cached_property
from typing import TYPE_CHECKING
from collections.abc import Iterable, Sequence

from textual import on
from textual.app import ComposeResult
from textual.reactive import reactive
from textual.widgets import Static

from keeltui.chief.context import Row as RowLike  # one protocol for a stored row
from keeltui.chief.quiet import QUIET_MODE_REFUSAL
from keeltui.chief.streaming import StreamBuffer
from keeltui.panes.common.events import ChiefFirstChunk, ChiefReplyFinished, ChiefReplyStarted, StatusMessage
from keeltui.panes.chief.room_log import PAGE_ROWS, RoomLog
from keeltui.panes.chief.row_source import RowSource
from keeltui.panes.common.composer import Composer, ComposerInput
from keeltui.panes.chief.room_controls import RoomControls
from keeltui.panes.common.working import WorkingIndicator

if TYPE_CHECKING:
    from textual.worker import Worker

    from keeltui.panes.chief.choices import Choices, ModelsListed
    from keeltui.panes.chief.edit import LastEdit
    from keeltui.panes.chief.parts import ChiefParts
    from keeltui.panes.chief.reply import Replies
    from keeltui.panes.chief.search import MatchesCounted, RoomSearch
    from keeltui.panes.chief.search_bar import SearchBar
    from keeltui.services.chief_turns import ChiefTurns
    from keeltui.services.room_rows import StoreRows

log = logging.getLogger("keeltui.chief")
# Enough rows to fill a tall pane for the first frame; more are paged in right after.
INITIAL_ROWS = 16

__all__ = ["PAGE_ROWS", "ChiefRoom", "RoomLog", "RowLike"]


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
                 first_rows: Sequence[RowLike] = (), source: RowSource | None = None, parts: ChiefParts | None = None,
                 id: str | None = None) -> None:
        """``first_rows``: the newest rows (oldest first), drawn in the first frame;
        ``source``: where older and newer rows are read from as the owner pages;
        ``parts``: the services that answer (None: a room that only shows rows)."""
        super().__init__(id=id)
        self._first_rows = first_rows
        self._source = source
        self.parts = parts
        self.cursor = first_rows[-1].id if first_rows else 0
        """The newest row read from the store: the watcher reads what came after it."""
        self.owner_name = owner_name
        self.companion_name = companion_name
        self.window_rows = window_rows

    def compose(self) -> ComposeResult:
        yield Static(QUIET_MODE_REFUSAL, id="quiet-curtain", markup=False)
        # The first frame shows the newest rows as written; Markdown is formatted right after it.
        yield RoomLog(self.owner_name, self.companion_name, source=self._source, window_rows=self.window_rows,
                      first_rows=self._first_rows, plain_first=True, id="room-log",
                      clock=self.parts.clock if self.parts is not None else time.time)
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

    # -- the room's behaviour (its controllers, built on first use) ------------------------

    @property
    def turns(self) -> ChiefTurns:
        """The Chief's turns: built on first use, so the first frame sends nothing."""
        return self.needed_parts.turns()

    @property
    def rows(self) -> StoreRows:
        return self.needed_parts.rows

    @property
    def needed_parts(self) -> ChiefParts:
        if self.parts is None:
            raise RuntimeError("this room was built to show rows only")
        return self.parts

    @cached_property
    def replies(self) -> Replies:
        from keeltui.panes.chief.reply import Replies

        return Replies(self)

    @cached_property
    def edit(self) -> LastEdit:
        from keeltui.panes.chief.edit import LastEdit

        return LastEdit(self)

    @cached_property
    def search(self) -> RoomSearch:
        from keeltui.panes.chief.search import RoomSearch  # with the search bar: on first use

        return RoomSearch(self)

    @cached_property
    def choices(self) -> Choices:
        from keeltui.panes.chief.choices import Choices

        return Choices(self)

    def refresh_from_store(self) -> None:
        """Read what the store holds after :attr:`cursor` (the app's store watcher calls this)."""
        if self.parts is None:
            return
        rows = self.rows.since(self.cursor)
        # Rows another process is still streaming are re-read until they settle.
        refreshed = [row for row in map(self.rows.message, self.foreign_streaming_ids()) if row is not None]
        if rows:
            self.cursor = rows[-1].id
        if rows or refreshed:
            self.append_rows(refreshed + rows)
            from keeltui.terminal.textual_seam import release_render_caches

            release_render_caches()  # rows pruned from the room must not live on in Textual's caches

    def show_latest(self) -> None:
        """The newest rows, following the bottom; older ones are read as the log needs them."""
        self.show_rows(self.rows.latest(INITIAL_ROWS) or [])

    @on(Composer.Submitted, "#chief-composer")
    def _send(self, message: Composer.Submitted) -> None:
        message.stop()
        if self.quiet:
            self.app.bell()  # the room is hidden: nothing typed goes to the Chief
            return
        if self.at_latest:
            self.follow_latest()
        else:
            self.show_latest()  # sending jumps back to the newest rows, where the reply will stand
        if not self.replies.send(message.text):
            # Nothing was stored: the text goes back into the composer, to send again.
            field = message.composer.input
            field.text = message.text + (f"\n{field.text}" if field.text.strip() else "")
            field.move_cursor(field.document.end)
            message.composer.focus_input()

    @on(ChiefReplyStarted)
    def _reply_started(self, message: ChiefReplyStarted) -> None:
        message.stop()
        self.replies.started(message)

    @on(ChiefFirstChunk)
    def _first_chunk(self, message: ChiefFirstChunk) -> None:
        message.stop()
        self.replies.first_chunk()

    @on(ChiefReplyFinished)
    def _reply_finished(self, message: ChiefReplyFinished) -> None:
        message.stop()
        self.replies.finished(message)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        from textual.worker import WorkerState

        if event.state != WorkerState.ERROR:
            return
        if event.worker.group == "chief":
            self.replies.failed(event.worker.name, event.worker.error)
            return
        error = event.worker.error
        log.error("worker %s failed: %r", event.worker.name, error)
        self.post_message(StatusMessage(f"{event.worker.name or 'a worker'} failed: {type(error).__name__}: {error}"))

    @on(RoomControls.StopWanted)
    def stop_reply(self, message: RoomControls.StopWanted | None = None) -> None:
        """Escape while a reply is on its way: it stops; its text so far is kept."""
        if message is not None:
            message.stop()
        if self.parts is not None:
            self.replies.stop()

    @on(RoomControls.RetryWanted)
    def retry(self, message: RoomControls.RetryWanted | None = None) -> None:
        """F5: ask again after a failed, cut or stopped reply."""
        if message is not None:
            message.stop()
        self.replies.again(only_unfinished=True)

    @on(RoomControls.RegenerateWanted)
    def regenerate(self, message: RoomControls.RegenerateWanted | None = None) -> None:
        """Ctrl+R: ask for the last reply again; the old one is kept, folded."""
        if message is not None:
            message.stop()
        self.replies.again(only_unfinished=False)

    @on(RoomControls.EditWanted)
    def edit_last(self, message: RoomControls.EditWanted | None = None) -> None:
        """Ctrl+↑: the last message back in the composer, to change and resend."""
        if message is not None:
            message.stop()
        self.edit.begin()

    @on(RoomControls.EditCancelled)
    def _edit_cancelled(self, message: RoomControls.EditCancelled) -> None:
        message.stop()
        self.edit.cancel()

    async def open_search(self) -> None:
        if not self.quiet:
            await self.action_search()

    def on_search_bar_find(self, message: SearchBar.Find) -> None:
        message.stop()
        self.search.find(message.needle, older=message.older)

    def on_matches_counted(self, message: MatchesCounted) -> None:
        message.stop()
        self.search.counted(message)

    def on_search_bar_closed(self, message: SearchBar.Closed) -> None:
        message.stop()
        self.search.close()

    def open_models(self) -> None:
        """The model picker (the settings dialog's Models…, the command palette)."""
        self.choices.list_models()

    def on_models_listed(self, message: ModelsListed) -> None:
        message.stop()
        self.choices.listed(message)

    def open_persona(self) -> None:
        """The persona editor (the settings dialog's Persona…, the command palette)."""
        self.choices.edit_persona()
