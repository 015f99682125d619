"""The Chief room: a bounded window of the endless conversation, and the composer.

The room is a projection of the store. It mounts only the latest rows; scrolling to
the top asks (by message) for older ones, and the far end is pruned so the widget
count stays bounded however long the room grows. In Quiet Mode the whole room is
replaced by one sentence.
"""

from __future__ import annotations

from typing import Iterable, Protocol, Sequence

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from keeltui.chief.quiet import QUIET_MODE_REFUSAL
from keeltui.panes.composer import Composer
from keeltui.chief.streaming import StreamBuffer
from keeltui.panes.message import ChatMessage, StreamingReply
from keeltui.panes.system_line import SystemLine

PAGE_ROWS = 40


class RowLike(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def role(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def turn_kind(self) -> str | None: ...
    @property
    def status(self) -> str: ...


class RoomLog(VerticalScroll):
    DEFAULT_CSS = """
    RoomLog { height: 1fr; scrollbar-size-vertical: 1; }
    """

    class ReachedTop(Message):
        """The owner scrolled to the top of what is mounted."""

    class ReachedBottom(Message):
        """The owner scrolled to the bottom of what is mounted."""

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        if new <= 0 and old > 0:
            self.post_message(self.ReachedTop())
        elif new > old and new >= self.max_scroll_y:
            self.post_message(self.ReachedBottom())


class ChiefRoom(Vertical):
    DEFAULT_CSS = """
    ChiefRoom { height: 1fr; }
    ChiefRoom #quiet-curtain {
        height: 1fr; content-align: center middle; text-style: bold; color: $text-muted;
        display: none;
    }
    ChiefRoom.-quiet #quiet-curtain { display: block; }
    ChiefRoom.-quiet RoomLog { display: none; }
    ChiefRoom.-quiet Composer { display: none; }
    ChiefRoom .room-empty { color: $text-muted; margin: 1 2; }
    """

    quiet: reactive[bool] = reactive(False)

    class OlderWanted(Message):
        """Rows older than ``before_id`` should be paged in."""

        def __init__(self, before_id: int) -> None:
            super().__init__()
            self.before_id = before_id

    class NewerWanted(Message):
        """Rows newer than ``after_id`` should be paged in (the newest were pruned)."""

        def __init__(self, after_id: int) -> None:
            super().__init__()
            self.after_id = after_id

    def __init__(self, owner_name: str, companion_name: str, window_rows: int = 120, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.owner_name = owner_name
        self.companion_name = companion_name
        self.window_rows = window_rows
        self._streaming: StreamingReply | None = None
        self._no_older = False
        self.at_latest = True
        """Whether the newest rows are mounted; False once paging back pruned them."""

    def compose(self) -> ComposeResult:
        yield Static(QUIET_MODE_REFUSAL, id="quiet-curtain", markup=False)
        with RoomLog(id="room-log"):
            yield Static("The room is empty. Say something below.", classes="room-empty")
        yield Composer("Write to the Chief…  (Enter sends, Alt+Enter: new line)", buttons=False, id="chief-composer")

    def on_mount(self) -> None:
        self.log_view.anchor()

    @property
    def log_view(self) -> RoomLog:
        return self.query_one(RoomLog)

    @property
    def composer(self) -> Composer:
        return self.query_one(Composer)

    def watch_quiet(self, quiet: bool) -> None:
        self.set_class(quiet, "-quiet")
        if not quiet:
            self.log_view.scroll_end(animate=False)

    # -- rows in --------------------------------------------------------------------

    def _widget_for(self, row: RowLike, plain_first: bool = False) -> Widget:
        if row.turn_kind:
            return SystemLine(row.id, row.turn_kind, row.content, id=f"row-{row.id}")
        speaker = self.owner_name if row.role == "user" else self.companion_name
        if row.status == "streaming":
            return StreamingReply(row.id, row.role, speaker, row.content, row.status, id=f"row-{row.id}")
        return ChatMessage(row.id, row.role, speaker, row.content, row.status, plain_first=plain_first, id=f"row-{row.id}")

    @property
    def mounted_ids(self) -> list[int]:
        return [w.row_id for w in self.log_view.children if hasattr(w, "row_id")]

    def row_widget(self, row_id: int) -> Widget | None:
        matches = self.log_view.query(f"#row-{row_id}")
        return matches.first() if matches else None

    def show_rows(self, rows: Iterable[RowLike], *, plain_first: bool = False) -> None:
        """Replace what is mounted with ``rows`` (oldest first).

        ``plain_first`` (at start-up): Markdown is formatted right after the first frame.
        """
        log = self.log_view
        log.remove_children()
        widgets = [self._widget_for(row, plain_first) for row in rows]
        if widgets:
            log.mount_all(widgets)
        else:
            log.mount(Static("The room is empty. Say something below.", classes="room-empty"))
        self._no_older = False
        self.at_latest = True
        log.scroll_end(animate=False)

    def append_rows(self, rows: Iterable[RowLike]) -> None:
        """Add new rows at the bottom; a row already mounted is updated in place.

        While the newest rows are pruned (the owner paged far back), new rows are not
        mounted: they would stand after a gap. They page in when the owner scrolls down.
        """
        log = self.log_view
        new: list[Widget] = []
        for row in rows:
            existing = self.row_widget(row.id)
            if existing is None:
                if self.at_latest:
                    new.append(self._widget_for(row))
            elif isinstance(existing, (ChatMessage, StreamingReply)) and existing is not self._streaming:
                if existing.row_text != row.content or existing.status != row.status:
                    existing.set_content(row.content, row.status)
        if not new:
            return
        for empty in log.query(".room-empty"):
            empty.remove()
        log.mount_all(new)
        self._prune(from_top=True)

    def append_page(self, rows: Sequence[RowLike], reaches_latest: bool) -> None:
        """Newer rows paged back in at the bottom (``rows`` oldest first)."""
        self.log_view.mount_all([self._widget_for(row) for row in rows if self.row_widget(row.id) is None])
        self.at_latest = reaches_latest
        self._prune(from_top=True)

    def prepend_rows(self, rows: Sequence[RowLike]) -> None:
        """Older rows paged in at the top (``rows`` oldest first)."""
        if not rows:
            self._no_older = True
            return
        log = self.log_view
        first = log.children[0] if log.children else None
        widgets = [self._widget_for(row) for row in rows if self.row_widget(row.id) is None]
        if first is not None:
            log.mount_all(widgets, before=first)
        else:
            log.mount_all(widgets)
        self._prune(from_top=False)

    def _prune(self, from_top: bool) -> None:
        """Keep at most ``window_rows`` mounted, dropping from the far end."""
        rows = [w for w in self.log_view.children if hasattr(w, "row_id")]
        extra = len(rows) - self.window_rows
        if extra <= 0:
            return
        for widget in rows[:extra] if from_top else rows[-extra:]:
            if widget is not self._streaming:
                widget.remove()
        if from_top:
            self._no_older = False
        else:
            self.at_latest = False

    def on_room_log_reached_bottom(self, event: RoomLog.ReachedBottom) -> None:
        event.stop()
        ids = self.mounted_ids
        if ids and not self.at_latest:
            self.post_message(self.NewerWanted(ids[-1]))

    def on_room_log_reached_top(self, event: RoomLog.ReachedTop) -> None:
        event.stop()
        ids = self.mounted_ids
        if ids and not self._no_older:
            self.post_message(self.OlderWanted(ids[0]))

    # -- streaming ------------------------------------------------------------------

    def begin_stream(self, row: RowLike, buffer: StreamBuffer) -> None:
        """Show the reply ``row`` and let it draw what the worker puts in ``buffer``."""
        existing = self.row_widget(row.id)
        if existing is not None:
            existing.remove()
        speaker = self.companion_name
        widget = StreamingReply(row.id, row.role, speaker, row.content, "streaming", buffer=buffer, id=f"row-{row.id}")
        for empty in self.log_view.query(".room-empty"):
            empty.remove()
        self.log_view.mount(widget)
        self._streaming = widget

    def end_stream(self, row: RowLike) -> None:
        widget = self._streaming
        self._streaming = None
        if widget is not None and widget.is_attached:
            widget.finish(row.content, row.status)
        else:
            self.append_rows([row])
