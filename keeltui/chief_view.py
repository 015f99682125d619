"""The Chief room: a bounded window of the endless conversation, and the composer.

The room is a projection of the store. It mounts only the latest rows; scrolling to
the top asks (by message) for older ones, and the far end is pruned so the widget
count stays bounded however long the room grows. In Quiet Mode the whole room is
replaced by one sentence.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from textual.app import ComposeResult
from textual.message import Message
from textual.geometry import Size
from textual.layout import DockArrangeResult
from textual.reactive import Reactive, reactive
from textual.widget import Widget
from textual.widgets import Static

from keeltui.chief.context import Row as RowLike  # one protocol for a stored row
from keeltui.chief.quiet import QUIET_MODE_REFUSAL
from keeltui.panes.bindings import bind
from keeltui.panes.composer import Composer, ComposerInput
from keeltui.chief.streaming import StreamBuffer
from keeltui.panes.message import ChatMessage, StreamingReply
from keeltui.panes.system_line import SystemLine
from keeltui.panes.row_keys import RowList
from keeltui.panes.room_controls import RoomControls
from keeltui.panes.working import WorkingIndicator

PAGE_ROWS = 40
AHEAD_ROWS = 12
"""Older rows paged in per step ahead of the view: one step's read and layout fit
between two key presses, so a key never waits for them."""
AHEAD_PAGES = 3
"""Older rows are paged in while the view is within this many pages of the window's top."""

# The widgets a room row is drawn as (each carries its ``row_id``).
RowWidget = ChatMessage | StreamingReply | SystemLine


class RoomLog(RowList):
    """The mounted window of rows; asks for more before the owner reaches either end.

    Rows paged in above (or pruned above) would move what the owner is reading: a
    pinned row keeps its place on screen through such changes, in the same frame.
    """

    DEFAULT_CSS = """
    RoomLog { height: 1fr; scrollbar-size-vertical: 1; scrollbar-gutter: stable; }
    """

    # Textual sets this from the layout pass that measured it, and its default reactive
    # then asks for a second layout and a full repaint of the log: while a reply grows,
    # that doubled every scroll's terminal bytes. The pass that set it already painted.
    virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)

    BINDINGS = [
        bind("room_first", "scroll_home", "First row", show=False),
        bind("room_latest", "scroll_end", "Newest", show=False),
    ]

    class ReachedTop(Message):
        """The owner scrolled near the top of what is mounted."""

    class ReachedBottom(Message):
        """The owner scrolled near the bottom of what is mounted."""

    class EndPressed(Message):
        """The owner asked for the end of the room (End)."""

    class HomePressed(Message):
        """The owner asked for the start of the room (Home)."""

    def __init__(self, *children: Widget, id: str | None = None) -> None:
        super().__init__(*children, id=id)
        self._pinned: Widget | None = None
        self._pinned_y = 0
        self._last_arrangement: DockArrangeResult | None = None

    @property
    def following(self) -> bool:
        """Whether the view follows the bottom (the owner has not scrolled away)."""
        return self.is_vertical_scroll_end or (self.is_anchored and not self._anchor_released)

    @property
    def near_top(self) -> bool:
        """Whether the view is within :data:`AHEAD_PAGES` pages of the mounted window's top."""
        return self.scroll_y <= AHEAD_PAGES * max(1, self.size.height)

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        # Page in ahead of the view, so holding a key or the wheel never hits a wall.
        near = max(1, self.size.height)
        if new < old and self.near_top:
            self.post_message(self.ReachedTop())
        elif new > old and new >= self.max_scroll_y - near:
            self.post_message(self.ReachedBottom())

    def action_page_up(self) -> None:
        self._page(-1)

    def action_page_down(self) -> None:
        self._page(1)

    def _page(self, direction: int) -> None:
        # At once and without a glide: Textual's PageUp computes its target now and
        # applies it after the next refresh, which would undo a page of rows that
        # came in meanwhile (the view would leap by that page).
        step = direction * self.scrollable_content_region.height
        self.scroll_to(y=self.scroll_y + step, animate=False, immediate=True)

    def action_scroll_end(self) -> None:
        super().action_scroll_end()
        self.post_message(self.EndPressed())

    def action_scroll_home(self) -> None:
        super().action_scroll_home()
        self.post_message(self.HomePressed())

    def pin(self, widget: Widget) -> None:
        """Keep ``widget`` where it is on screen while rows are added or removed around it."""
        y = self._placed_y(self._last_arrangement, widget)
        if y is None and self._pinned is not None and self._pinned.is_attached:
            # ``widget`` came in since the last layout: the pin in force (laid out, and
            # below it) measures the shift of both changes; re-pinning would lose the first.
            return
        self._pinned = widget
        self._pinned_y = y or 0

    def below_view(self) -> int:
        """How many mounted rows lie wholly below the view (pruning them moves nothing in sight)."""
        if self._last_arrangement is None:
            return 0
        bottom = self.scroll_y + self.size.height
        return sum(1 for placement in self._last_arrangement.placements if placement.region.y >= bottom)

    @staticmethod
    def _placed_y(arrangement, widget: Widget) -> int | None:
        if arrangement is None:
            return None
        for placement in arrangement.placements:
            if placement.widget is widget:
                return placement.region.y
        return None

    def arrange(self, size, optimal: bool = False):
        # The compositor arranges, then reads scroll_y to place rows: correcting it
        # here moves the view with the content in the same frame (no visible jump).
        result = super().arrange(size, optimal)
        if optimal or result is self._last_arrangement:
            return result
        if self._last_arrangement is None:
            # The first frame stands at the bottom, on the newest rows. (Textual's anchor
            # would scroll them out of view here: it learns the log's height only after
            # this first layout; the room anchors the log right after the first frame.)
            bottom = max(0, result.spatial_map.total_region.bottom - size.height)
            self.set_reactive(RoomLog.scroll_y, bottom)
            self.set_reactive(RoomLog.scroll_target_y, bottom)
        self._last_arrangement = result
        pinned = self._pinned
        if pinned is not None:
            y = self._placed_y(result, pinned)
            if y is None:
                self._pinned = None
            elif y != self._pinned_y:
                shift = y - self._pinned_y
                self._pinned_y = y
                if not (self.is_anchored and not self._anchor_released):
                    animator = self.app.animator
                    if animator.is_being_animated(self, "scroll_y"):
                        # A PageUp or wheel glide in flight would carry on to its old
                        # target and undo the correction: it lands now, then shifts.
                        animator.force_stop_animation(self, "scroll_y")
                    target = max(0, self.scroll_y + shift)
                    self.set_reactive(RoomLog.scroll_y, target)
                    self.set_reactive(RoomLog.scroll_target_y, target)
                    if self.near_top:  # the rows paged in are laid out: the next step ahead
                        self.post_message(self.ReachedTop())
        return result


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
    ChiefRoom .room-empty { color: $text-muted; margin: 1 2; }
    ChiefRoom #new-below {
        height: 1; width: 100%; content-align: center middle;
        background: $primary-darken-2; color: $text; display: none;
    }
    ChiefRoom.-new-below #new-below { display: block; }
    ChiefRoom.-quiet #new-below { display: none; }
    """

    quiet: reactive[bool] = reactive(False)

    class OlderWanted(Message):
        """Up to ``count`` rows older than ``before_id`` should be paged in."""

        def __init__(self, before_id: int, count: int = PAGE_ROWS) -> None:
            super().__init__()
            self.before_id = before_id
            self.count = count

    class NewerWanted(Message):
        """Rows newer than ``after_id`` should be paged in (the newest were pruned)."""

        def __init__(self, after_id: int) -> None:
            super().__init__()
            self.after_id = after_id

    class LatestWanted(Message):
        """The owner asked for the end of the room while older rows are mounted."""

    class FirstWanted(Message):
        """The owner asked for the start of the room while it is not mounted."""

    def __init__(self, owner_name: str, companion_name: str, window_rows: int = 120, *,
                 first_rows: Sequence[RowLike] = (), id: str | None = None) -> None:
        """``first_rows``: the newest rows (oldest first), composed into the first frame."""
        super().__init__(id=id)
        self._first_rows = first_rows
        self.owner_name = owner_name
        self.companion_name = companion_name
        self.window_rows = window_rows
        self._streaming: StreamingReply | None = None
        self._no_older = False
        self._older_pending = False
        self._newer_pending = False
        self.at_latest = True
        """Whether the newest rows are mounted; False once paging back pruned them."""

    def compose(self) -> ComposeResult:
        yield Static(QUIET_MODE_REFUSAL, id="quiet-curtain", markup=False)
        with RoomLog(id="room-log"):
            # In the first frame with the composer; Markdown is formatted right after it.
            for row in self._first_rows:
                yield self._widget_for(row, plain_first=True)
            if not self._first_rows:
                yield Static("The room is empty. Say something below.", classes="room-empty")
        yield WorkingIndicator(self.companion_name, id="room-working")
        yield Static("▼ new text below · End", id="new-below", markup=False)
        yield Composer("Write to the Chief…  (Enter sends, Alt+Enter: new line)", buttons=False, id="chief-composer")

    def on_mount(self) -> None:
        # After the first frame, which the log lays out at its bottom itself (RoomLog.arrange).
        self.call_after_refresh(self._anchor_log)

    def _anchor_log(self) -> None:
        # Anchoring scrolls to the end: a PageUp pressed in the first frames (the app
        # starts in the composer, where PageUp pages the room) must not be undone by it.
        log = self.log_view
        y, paged_back = log.scroll_y, log.scroll_y < log.max_scroll_y
        log.anchor()
        if paged_back:
            log.scroll_to(y=y, animate=False, immediate=True)  # releases the anchor, as a key's scroll does

    @property
    def log_view(self) -> RoomLog:
        return self.query_one(RoomLog)

    @property
    def composer(self) -> Composer:
        return self.query_one(Composer)

    def watch_quiet(self, was_quiet: bool, quiet: bool) -> None:
        self.set_class(quiet, "-quiet")
        if was_quiet and not quiet:
            # Only on the way out of Quiet Mode: at mount (the watcher runs then too) this
            # deferred scroll would undo a PageUp pressed in the first frames.
            self.log_view.scroll_end(animate=False)

    # -- rows in --------------------------------------------------------------------

    def _widget_for(self, row: RowLike, plain_first: bool = False) -> Widget:
        if row.turn_kind:
            return SystemLine(row.id, row.turn_kind, row.content, id=f"row-{row.id}")
        speaker = self.owner_name if row.role == "user" else self.companion_name
        if row.status == "streaming":
            widget = StreamingReply(row.id, row.role, speaker, row.content, row.status, parts=row.parts, id=f"row-{row.id}")
            widget.thinking, widget.thought_secs = getattr(row, "thinking", ""), getattr(row, "thought_secs", None)
            return widget
        return ChatMessage(row.id, row.role, speaker, row.content, row.status, plain_first=plain_first,
                           parts=row.parts, id=f"row-{row.id}",
                           thinking=getattr(row, "thinking", ""), thought_secs=getattr(row, "thought_secs", None))

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
        self._replace_window(list(rows), plain_first)
        self._no_older = False
        self._older_pending = self._newer_pending = False
        self.at_latest = True
        self.follow_latest()

    def show_first(self, rows: Sequence[RowLike], reaches_latest: bool) -> None:
        """Home: the room's first rows (oldest first), shown from the top."""
        self._replace_window(rows)
        self._no_older = True
        self._older_pending = self._newer_pending = False
        self.at_latest = reaches_latest
        self.set_class(False, "-new-below")
        self.log_view.scroll_home(animate=False)

    def _replace_window(self, rows: Sequence[RowLike], plain_first: bool = False) -> None:
        """Mount exactly ``rows`` (a contiguous run, oldest first).

        Rows already mounted stay: removal completes later, and a new widget with the
        id of one being removed would be refused (DuplicateIds).
        """
        log = self.log_view
        wanted = {row.id for row in rows}
        focused = self.app.focused
        for child in list(log.children):
            if getattr(child, "row_id", None) not in wanted:
                if child is focused:
                    # As in _prune: the log keeps the keys. Left on a row on its way out,
                    # they went nowhere (Home, then PageDown did nothing until End).
                    self.screen.set_focus(log, scroll_visible=False)
                child.remove()
        kept = {w.row_id: w for w in self._rows() if w.row_id in wanted}
        for row in rows:
            widget = kept.get(row.id)
            if isinstance(widget, (ChatMessage, StreamingReply)) and widget is not self._streaming \
                    and (widget.row_text != row.content or widget.status != row.status):
                widget.set_content(row.content, row.status, row.parts)
        first_kept = kept[min(kept)] if kept else None
        above = [self._widget_for(row, plain_first) for row in rows if first_kept is not None and row.id < first_kept.row_id]
        below = [self._widget_for(row, plain_first) for row in rows
                 if row.id not in kept and (first_kept is None or row.id > first_kept.row_id)]
        if above:
            log.mount_all(above, before=first_kept)
        if below:
            log.mount_all(below)
        if not rows:
            log.mount(Static("The room is empty. Say something below.", classes="room-empty"))

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
                    existing.set_content(row.content, row.status, row.parts)
                if getattr(row, "thinking", "") != existing.thinking:  # another process streams it
                    existing.set_thinking(getattr(row, "thinking", ""), getattr(row, "thought_secs", None))
        if not new:
            return
        for empty in log.query(".room-empty"):
            empty.remove()
        log.mount_all(new)
        self._prune(from_top=True)

    def append_page(self, rows: Sequence[RowLike], reaches_latest: bool) -> None:
        """Newer rows paged back in at the bottom (``rows`` oldest first)."""
        self._newer_pending = False
        mounted = self._rows()
        if mounted:
            self.log_view.pin(mounted[-1])  # pruning above must not move the view
        self.log_view.mount_all([self._widget_for(row) for row in rows if self.row_widget(row.id) is None])
        self.at_latest = reaches_latest
        self._prune(from_top=True)

    def prepend_rows(self, rows: Sequence[RowLike]) -> None:
        """Older rows paged in at the top (``rows`` oldest first)."""
        self._older_pending = False
        if not rows:
            self._no_older = True
            return
        mounted_ids = self.mounted_ids
        if mounted_ids and rows[-1].id >= mounted_ids[0]:
            return  # asked for before the window was replaced (Ctrl+Home at start-up): not older than it
        log = self.log_view
        first = log.children[0] if log.children else None
        if first is not None:
            log.pin(first)  # the rows above must not move what the owner is reading
        mounted = set(self.mounted_ids)  # one pass: a query per row costs a scan of the log each
        widgets = [self._widget_for(row) for row in rows if row.id not in mounted]
        if first is not None:
            log.mount_all(widgets, before=first)
        else:
            log.mount_all(widgets)
        self._prune(from_top=False)

    def _rows(self) -> list[RowWidget]:
        # The three row widgets are the only children that carry a row id.
        return [w for w in self.log_view.children if isinstance(w, (ChatMessage, StreamingReply, SystemLine))]

    def _prune(self, from_top: bool) -> None:
        """Keep at most ``window_rows`` mounted, dropping from the far end."""
        rows = self._rows()
        extra = len(rows) - self.window_rows
        if extra <= 0:
            return
        focused = self.app.focused
        for widget in rows[:extra] if from_top else rows[-extra:]:
            if widget is self._streaming:
                continue
            if widget is focused:
                # Textual would hand focus to the next row and scroll to it: a leap.
                # The log keeps the keys (PageUp, Home, End) and the view stays put.
                # (Synchronously: Widget.focus is deferred, and the removal would win.)
                self.screen.set_focus(self.log_view, scroll_visible=False)
            widget.remove()
        if from_top:
            self._no_older = False
        else:
            self.at_latest = False

    def on_room_log_reached_bottom(self, event: RoomLog.ReachedBottom) -> None:
        event.stop()
        ids = self.mounted_ids
        if ids and not self.at_latest and not self._newer_pending:
            self._newer_pending = True
            self.post_message(self.NewerWanted(ids[-1]))
        elif self.at_latest and self.log_view.is_vertical_scroll_end:
            self.set_class(False, "-new-below")

    def on_room_log_reached_top(self, event: RoomLog.ReachedTop) -> None:
        event.stop()
        # After the frame that answers the key: the key's scroll is drawn first, and the
        # read and layout of the older rows run before the view reaches the edge.
        self.call_after_refresh(self._older_ahead)

    def _older_ahead(self) -> None:
        log = self.log_view
        if self._no_older or self._older_pending or not log.near_top:
            return
        if len(self._rows()) + AHEAD_ROWS > self.window_rows and log.below_view() < AHEAD_ROWS and log.scroll_y > 0:
            return  # a step ahead would prune rows in sight (a small window): only at the edge
        # Not a row on its way out: a window replaced since (End, Home) is not the one to extend.
        ids = [w.row_id for w in self._rows() if not w._pruning]
        if ids:
            self._older_pending = True
            self.post_message(self.OlderWanted(ids[0], AHEAD_ROWS))

    def on_room_log_end_pressed(self, event: RoomLog.EndPressed) -> None:
        event.stop()
        self.go_to_end()

    def on_room_log_home_pressed(self, event: RoomLog.HomePressed) -> None:
        event.stop()
        if not self._no_older:
            self.post_message(self.FirstWanted())

    def on_composer_input_end_wanted(self, event: ComposerInput.EndWanted) -> None:
        event.stop()
        self.go_to_end()

    def page(self, direction: int) -> None:
        """A full page back (-1) or forward (1), whatever has the focus in the room."""
        if direction < 0:
            self.log_view.action_page_up()
        else:
            self.log_view.action_page_down()

    def go_first(self) -> None:
        """The room's first row (paged in if it is not mounted), as Home on the log."""
        self.log_view.action_scroll_home()

    def go_to_end(self) -> None:
        """End: the newest rows, followed again (paged back in if they were pruned)."""
        if self.at_latest:
            self.follow_latest()
        else:
            self.post_message(self.LatestWanted())

    def follow_latest(self) -> None:
        """Back to the bottom, following it again (End, sending, a fresh window)."""
        self.set_class(False, "-new-below")
        self.log_view.scroll_end(animate=False)

    def on_composer_submitted(self, event: Composer.Submitted) -> None:
        # Not stopped: the app sends it. Sending returns the view to the bottom.
        if self.at_latest:
            self.follow_latest()

    def on_streaming_reply_grew(self, event: StreamingReply.Grew) -> None:
        event.stop()
        if not self.at_latest or not self.log_view.following:
            self.set_class(True, "-new-below")

    # -- streaming ------------------------------------------------------------------

    @property
    def streaming_row_id(self) -> int | None:
        """The row this process is streaming into, if any."""
        return self._streaming.row_id if self._streaming is not None else None

    def foreign_streaming_ids(self) -> list[int]:
        """Rows shown as streaming that another process writes (re-read until they settle)."""
        return [w.row_id for w in self._rows()
                if getattr(w, "status", None) == "streaming" and w is not self._streaming]

    def begin_stream(self, row: RowLike, buffer: StreamBuffer) -> None:
        """Show the reply ``row`` and let it draw what the worker puts in ``buffer``.

        A store refresh may already have mounted the row: that widget is handed the
        stream. Replacing it would mount a second ``row-N`` while the first is still
        being removed (removal completes later), which Textual refuses (DuplicateIds).
        """
        existing = self.row_widget(row.id)
        if isinstance(existing, StreamingReply):
            existing.stream_from(buffer, row.content)
            self._streaming = existing
            return
        if existing is not None:
            return  # already settled and drawn: the finished row follows with the end of the turn
        if not self.at_latest:
            return  # the owner paged far back: the reply is there when they come back
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
            widget.set_thinking(getattr(row, "thinking", ""), getattr(row, "thought_secs", None))
            widget.finish(row.content, row.status, row.parts)
        else:
            self.append_rows([row])
