"""The Chief room's rows as one virtual log (Textual's line API).

One widget draws every row: a :class:`~keeltui.chief.room_window.RoomWindow` holds a
bounded run of rows with their heights (estimated until a row is first drawn), rows
render lazily into a bounded cache (keeltui/chief/row_cache.py), and only the lines in
view are drawn. Older and newer rows are read from the :class:`RowSource` a few pages
ahead of the view, so paging never waits for them and memory stays flat however far one
pages; once a frame is out, the rows two screens around the view are read and rendered
ahead in short slices, so a PageUp finds its rows drawn.

The row the keys act on (copy, fold, show an earlier version) is the cursor, moved by
↑/↓; it is drawn highlighted while the log has the focus. A streaming reply grows in
place: only its tail is re-rendered, and only the lines that changed are refreshed.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING
from collections.abc import Callable, Iterable, Sequence

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.events import Blur, Click, Focus, Resize
from textual.filter import LineFilter
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.worker import Worker

from keeltui.chief.context import Row
from keeltui.chief.room_window import RoomWindow
from keeltui.chief.row_cache import DrawnLines, Line, RowCache
from keeltui.chief.row_colours import COMPONENTS, badge_components, log_css
from keeltui.chief.turn_kinds import SUMMARY
from keeltui.chief.row_time import day_label, starts_day
from keeltui.chief.welcome import welcome_lines, welcome_state
from keeltui.panes.common.bindings import bind
from keeltui.panes.chief.row_render import (
    MARGIN, RowLook, RowShape, estimate_height, markdown_look, folds, has_thinking, row_lines, row_thinking,
)
from keeltui.panes.chief.room_stream import LiveReply
from keeltui.panes.chief.log_stream import StreamingReply
from keeltui.panes.chief.row_source import RowSource
from keeltui.panes.common.turn import copy_row_text
from keeltui.panes.chief.row_keys import ROW_KEY_BINDINGS
from keeltui.terminal.textual_seam import set_virtual_size

if TYPE_CHECKING:
    from keeltui.panes.chief.row_text import RowText

PAGE_ROWS = 40
"""Rows read per page from the source."""
AHEAD_PAGES = 1
"""Rows are read while the view is within this many screens of the window's edge (the
reads are synchronous: a key that needs rows has them before it moves the view)."""
AHEAD_SCREENS = 2
"""Once a frame is out, the rows this many screens above and below the view are read and
rendered ahead, so the next PageUp (or PageDown) finds its rows drawn."""
SLICE_SECS = 0.002
"""Rendering ahead hands the loop back this often: a key is never held behind it."""
PAUSE_SECS = 0.001
"""And waits this long before the next slice, rather than only yielding: a key travels
from the terminal to the log in several hops of the loop, and a slice ready to run at
each hop would hold it a slice per hop."""
CACHE_ROWS = 400
"""Rendered rows kept (least recently drawn dropped first)."""
CACHE_BYTES = 1_500_000
"""And about this many bytes of their lines: a few long replies (a 5 000-line code block is
one row) would otherwise keep tens of megabytes under the row count's bound."""
DRAWN_SCREENS = 3
"""Drawn lines kept: this many screens of them (a page back and forth finds them). Each is a
few Textual strips of nine objects and more, alive until the next full collection walks
them (a strip the screen divides keeps itself in its own cache): 240 lines were ~13 000
objects, half of what a full pass walked while the owner paged (issue 19)."""


class RoomLog(StreamingReply, ScrollView, can_focus=True):
    """The room's rows; the owner scrolls, pages and moves the cursor through them."""

    COMPONENT_CLASSES = {*COMPONENTS, *badge_components(), "room-log--welcome-title"}

    # Every colour from the theme (keeltui/chief/row_colours.py).
    DEFAULT_CSS = """
    RoomLog { height: 1fr; scrollbar-size-vertical: 1; scrollbar-gutter: stable; overflow-x: hidden; }
    RoomLog > .room-log--welcome-title { color: $text-primary; text-style: bold; }
    """ + log_css("RoomLog")

    BINDINGS = [
        *ROW_KEY_BINDINGS,
        bind("room_first", "first", "First row", show=False),
        bind("room_latest", "latest", "Newest", show=False),
        bind("copy_message", "copy", "Copy"),
        bind("fold_summary", "toggle_fold", "Fold/unfold"),
        bind("toggle_version", "toggle_version", "Show/hide"),
        bind("toggle_thinking", "toggle_thinking", "Thinking"),
    ]

    class Grew(Message):
        """A streaming reply drew new text (the room says "new text below" if the owner is away)."""

    class EndReached(Message):
        """The owner is at the newest text again (the "new text below" note can go)."""

    class RenderedWhole(Message):
        """A reply whose code block streamed in pieces, rendered whole off the UI thread
        (whole_render.py): its lines, where they differ from the streamed ones."""

        def __init__(self, key: tuple, row_id: int, lines: list[Line]) -> None:
            super().__init__()
            self.key, self.row_id, self.lines = key, row_id, lines

    def __init__(self, owner_name: str, companion_name: str, *, source: RowSource | None = None,
                 window_rows: int = 120, first_rows: Sequence[Row] = (), plain_first: bool = False,
                 id: str | None = None, clock: Callable[[], float] = time.time) -> None:
        """``first_rows``: the newest rows (oldest first), drawn in the first frame;
        ``plain_first``: their text as written until Markdown is loaded after it;
        ``clock``: now, for the day separators' "Today" (a test sets it)."""
        super().__init__(id=id)
        self.clock = clock
        self.owner_name = owner_name
        self.companion_name = companion_name
        self.source = source
        self.window_rows = window_rows
        self._step_rows = min(PAGE_ROWS, max(8, window_rows // 5))
        """Rows read per step ahead: a fifth of the window, so a read never outgrows its bound."""
        self.window: RoomWindow[Row] = RoomWindow()
        self._plain = plain_first
        self.cache = RowCache(CACHE_ROWS, CACHE_BYTES)
        """The rendered rows (keeltui/chief/row_cache.py)."""
        self._toggled: set[int] = set()
        self._thinking_open: set[int] = set()
        """Rows whose thinking the owner unfolded (``t``); every other is drawn folded."""
        """Rows whose fold differs from the default (a summary or an earlier version starts folded)."""
        self.cursor: int | None = None
        self.match: int | None = None
        self._stream: LiveReply | None = None
        self._following = True
        self._width = 0
        self._adjusting = False
        self._first = list(first_rows)
        self._welcome_key: tuple = ()
        self._welcome: bool | None = False
        """Whether the welcome shows under the rows; None once a turn was seen (for good)."""
        self._started_empty = False
        self._look: tuple[int, RowLook] | None = None
        self._restyled = 0
        """Counts the themes applied: the rows' look, and what was drawn with it, is of one.
        Not the theme's name: the app names the new theme a moment before its CSS is in
        place, and a row drawn in that moment kept the old colours under the new name."""
        self._paint_styles: dict[str, Style] = {}
        self._base = Style()
        self._paint: tuple[int, Style, Color, tuple[LineFilter, ...]] = (0, Style(), Color(0, 0, 0), ())
        """This paint's width, the widget's background as a style and as a colour, the filters."""
        self._drawn = DrawnLines(DRAWN_SCREENS * 24)  # until the first paint tells the view's height
        """The view's lines as drawn, kept while they show the same (``render_lines``)."""
        self._ahead: Worker[None] | None = None
        self._ahead_again = False
        """The view moved since the render-ahead chose its rows."""
        self._heading = -1
        """Which way the view last moved (-1 up, 1 down): the render-ahead serves that side first."""
        self.lines_drawn = 0
        """Lines drawn across the log's width (a row's line with its margins and background):
        what the tests count to prove that a view moved a line draws the line that came in,
        not every line again."""
        self.lines_rendered = 0
        """Lines rendered from text so far (rows and streams): what the tests count to prove
        that a flush or a reply's end renders the lines that changed, not the whole reply."""

    # -- what the log shows ---------------------------------------------------------

    @property
    def following(self) -> bool:
        """Whether the view follows the newest text (the owner has not scrolled away)."""
        return self._following and self.window.at_latest

    @property
    def row_ids(self) -> list[int]:
        """The rows held in the window (oldest first)."""
        return self.window.ids

    def row(self, row_id: int) -> Row | None:
        index = self.window.index_of(row_id)
        return self.window.rows[index] if index is not None else None

    def is_folded(self, row: Row) -> bool:
        return folds(row) and row.id not in self._toggled

    def _shape(self, row: Row) -> RowShape:
        return RowShape(folded=self.is_folded(row), plain=self._plain,
                        thinking_unfolded=row.id in self._thinking_open)

    def _speaker(self, row: Row) -> str:
        return self.owner_name if row.role == "user" else self.companion_name

    def _estimate(self, row: Row) -> int:
        return estimate_height(row, max(10, self._width or 80), self._shape(row))

    def look(self) -> RowLook:
        """The rows' colours in the current theme (read from the CSS once per theme)."""
        if self._look is None or self._look[0] != self._restyled:
            self._look = self._restyled, RowLook(
                text=Style(),
                user_bar=Style(color=self.get_component_rich_style("room-log--user").color),
                assistant_bar=Style(color=self.get_component_rich_style("room-log--assistant").color),
                system_text=Style(color=self.get_component_rich_style("room-log--system").color),
                badges={name: self.get_component_rich_style(name) for name in badge_components()},
                markdown=markdown_look(self.app.get_css_variables(), self.app.current_theme.dark),
                dark=self.app.current_theme.dark,
            )
        return self._look[1]

    def _component(self, name: str) -> Style:
        """A component's style, once per paint (reading the CSS for every line cost ~1 ms a line)."""
        style = self._paint_styles.get(name)
        if style is None:
            style = self._paint_styles[name] = self.get_component_rich_style(name)
        return style

    # -- the window ----------------------------------------------------------------

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._theme_applied)
        if self._first:
            self.window.replace(self._first, [self._estimate(row) for row in self._first])
            self._first = []
        else:  # an empty room: the rows that come are all it holds, until a read says more
            self._started_empty = True
        if self._plain:
            # Markdown (~40 ms of imports) after the first frame, which shows the text as written.
            self.call_after_refresh(self._format)

    def _theme_applied(self, _theme: object) -> None:
        """The new theme's CSS is in place (Textual signals it after applying it)."""
        self._restyled += 1
        self.refresh()

    def on_unmount(self) -> None:
        if self._ahead is not None:
            self._ahead.cancel()

    def _format(self) -> None:
        self._plain = False
        self._reshape()

    def show(self, rows: Sequence[Row], *, at_latest: bool = True, no_older: bool = False, follow: bool = True) -> None:
        """Hold exactly ``rows`` (oldest first) and stand at their end (``follow``) or start."""
        self.window.replace(rows, [self._estimate(row) for row in rows])
        self.window.at_latest = at_latest
        self.window.no_older = no_older
        self._following = follow
        if self.cursor is not None and self.window.index_of(self.cursor) is None:
            self.cursor = None
        self._set_virtual_size()
        self._goto(self._max_y() if follow else 0)
        self._relayout(None if follow or not rows else (rows[0].id, 0))
        self._fill()
        self.refresh()

    def update_rows(self, rows: Sequence[Row]) -> None:
        """Rows changed in the store (their text, their status); new rows at the end are added."""
        new: list[Row] = []
        changed = False
        anchor = self._anchor()  # before any height changes
        for row in rows:
            index = self.window.index_of(row.id)
            if index is None:
                if self.window.at_latest and (not self.window.rows or row.id > self.window.rows[-1].id):
                    new.append(row)
                continue
            if self._stream is not None and row.id == self._stream.row_id:
                continue  # drawn from the stream until it ends
            old = self.window.rows[index]
            if _drawn_as(old) != _drawn_as(row):
                self.window.update(index, row, self._estimate(row))
                changed = True
        if not new and not changed:
            return
        if new:
            self.window.append(new, [self._estimate(row) for row in new])
        self._relayout(anchor)
        self._trim(keep_bottom=True)
        self.refresh()

    def _anchor(self) -> tuple[int, int] | None:
        """What holds the view in place while heights change: (row id, lines into it); None: the end."""
        if self.following or not self.window.rows:
            return None
        index, line = self.window.locate(round(self.scroll_y))
        return self.window.rows[index].id, line

    def _relayout(self, anchor: tuple[int, int] | None) -> None:
        """Measure the rows in view and keep ``anchor`` where it stood."""
        for _ in range(8):
            self._set_virtual_size()
            self._place(anchor)
            if not self._measure_view():
                break
        self._set_virtual_size()
        self._place(anchor)

    def _place(self, anchor: tuple[int, int] | None) -> None:
        if anchor is None:
            self._goto(self._max_y() if self.following else min(round(self.scroll_y), self._max_y()))
            return
        index = self.window.index_of(anchor[0])
        if index is None:
            return
        line = min(anchor[1], self.window.heights[index] - 1)
        self._goto(self.window.top(index) + line)

    def _measure_view(self) -> bool:
        """Render the rows in the view and a screen above it; whether a height changed.

        The screen above is measured before the view can move there: a PageUp then moves
        exactly a screen (its heights are known when the page is counted). Below needs
        nothing: the view's top row holds it in place while rows under it are measured,
        which the render-ahead does once the frame is out (a jump, Home among them, waits
        for the rows it shows, not for a screen more). The first frame's text as written
        measures the view alone: Markdown, right after it, measures every row again."""
        if self._width <= 0:
            return False
        height = max(1, self.scrollable_content_region.height)
        above = 0 if self._plain else height
        changed = False
        for index in self.window.rows_in(round(self.scroll_y) - above, height + above):
            if not self.window.known[index]:
                changed |= self.window.set_height(index, self._row_height(index)) != 0
        return changed

    def _row_height(self, index: int) -> int:
        row = self.window.rows[index]
        stream = self._stream
        if stream is not None and row.id == stream.row_id:
            return 1 + len(self._stream_head(row, stream)) + self._stream_rows(stream)
        return 1 + len(self._box_lines(row))

    def _welcome_height(self) -> int:
        """The lines of the welcome under the rows: all of them while the room holds no turn
        of the owner's or the companion's (empty, or only system lines such as the notice
        that the brain is offline, which lands a moment after the first frame), else none."""
        window = self.window
        rows = window.rows
        key = (len(rows), rows[0].id if rows else 0, rows[-1].id if rows else 0, window.no_older)
        if key != self._welcome_key and self._welcome is not None:
            self._welcome_key = key
            # All the room holds: it began empty (rows since came after), or nothing is older.
            self._welcome = welcome_state((row.turn_kind for row in rows),
                                          whole_room=not rows or window.no_older or self._started_empty)
        return 1 + len(welcome_lines(under_rows=bool(rows))) if self._welcome else 0

    def _set_virtual_size(self) -> None:
        size = Size(self._width, self.window.total + self._welcome_height())
        if self.virtual_size != size:
            set_virtual_size(self, size)

    def _max_y(self) -> int:
        total = self.window.total + self._welcome_height()
        return max(0, total - self.scrollable_content_region.height)

    def _goto(self, y: int) -> None:
        y = max(0, min(y, self._max_y()))
        if round(self.scroll_y) != y or self.scroll_target_y != y:
            self._adjusting = True
            try:
                self.scroll_to(y=y, animate=False, immediate=True, force=True)
                self.set_reactive(RoomLog.scroll_target_y, y)
            finally:
                self._adjusting = False

    def _reshape(self) -> None:
        """Every row's look changed (Markdown loaded, the width): heights are estimates again."""
        anchor = self._anchor()
        self.window.forget_heights(self._estimate)
        self._relayout(anchor)
        self.refresh()

    def _sync_width(self) -> bool:
        """Measure again at a new width; whether it changed. (The first frame is painted
        before the Resize event arrives: the log learns its width where it draws.)"""
        width = self.scrollable_content_region.width
        if width == self._width:
            return False
        self._width = width
        self._reshape()
        return True

    def on_resize(self, event: Resize) -> None:
        if not self._sync_width():
            self._relayout(self._anchor())
        self._fill()

    # -- reading ahead ---------------------------------------------------------------

    def _fill(self, pages: int = AHEAD_PAGES) -> None:
        """Read rows while the view is within ``pages`` screens of an edge of the window
        that is not the room's."""
        if self.source is None or self._width <= 0:
            return
        page = max(1, self.scrollable_content_region.height)
        ahead = pages * page
        for _ in range(50):
            if round(self.scroll_y) < ahead and not self.window.no_older and self.window.rows:
                if not self._read_older():
                    break
            elif (not self.window.at_latest and self.window.rows
                  and round(self.scroll_y) + page > self.window.total - ahead):
                if not self._read_newer():
                    break
            else:
                break

    def _read_older(self) -> bool:
        assert self.source is not None
        rows = self.source.older(self.window.rows[0].id, self._step_rows)
        if rows is None:
            return False
        if not rows:
            self.window.no_older = True
            return False
        anchor = self._anchor()
        self.window.prepend(rows, [self._estimate(row) for row in rows])
        self._relayout(anchor)
        self._trim(keep_bottom=False)
        return True

    def _read_newer(self) -> bool:
        assert self.source is not None
        step = self._step_rows
        rows = self.source.newer(self.window.rows[-1].id, step + 1)
        if rows is None:
            return False
        anchor = self._anchor()
        self.window.append(rows[:step], [self._estimate(row) for row in rows[:step]])
        self.window.at_latest = len(rows) <= step
        self._relayout(anchor)
        self._trim(keep_bottom=True)
        return bool(rows)

    def _trim(self, keep_bottom: bool) -> None:
        """Drop rows from the far end (the top if ``keep_bottom``) beyond the window's bound.

        Only rows two screens or more from the view go: the one screen ahead that the
        reads keep stays, so a read never makes room by dropping what the next one reads.
        """
        extra = len(self.window) - self.window_rows
        if extra <= 0:
            return
        anchor = self._anchor()
        y = round(self.scroll_y)
        height = max(1, self.scrollable_content_region.height)
        margin = max(2 * AHEAD_PAGES, AHEAD_SCREENS) * height  # what the render-ahead reads stays
        if keep_bottom:
            index, _ = self.window.locate(max(0, y - margin))
            count = min(extra, index)
            self.window.drop_top(count)
        else:
            index, _ = self.window.locate(y + height + margin)
            count = min(extra, max(0, len(self.window) - index - 1))
            self.window.drop_bottom(count)
        if count:
            self._relayout(anchor)

    # -- scrolling and paging --------------------------------------------------------

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        if self._adjusting:
            return
        # By where the view stands, not which way it moved: a layout that shortens the
        # log (the "new text below" line) clamps the view up a line, still at the end.
        if round(new) >= self._max_y():
            if not self._following and self.window.at_latest:
                self.post_message(self.EndReached())
            self._following = True
        elif round(new) < round(old):
            self._following = False
        self._heading = -1 if new < old else 1
        self._adjusting = True
        try:
            self._relayout(self._anchor())
        finally:
            self._adjusting = False
        self._fill()

    def page(self, direction: int) -> None:
        """One screen up (-1) or down (1) from wherever the view stands, at once."""
        height = max(1, self.scrollable_content_region.height)
        self._heading = direction
        if direction < 0:
            self._fill()
        y = round(self.scroll_y) + direction * height
        self._following = direction > 0 and y >= self._max_y() and self.window.at_latest
        self._goto(y)
        if self._following:
            self.post_message(self.EndReached())
        self._relayout(self._anchor())
        self._fill()
        self.refresh()

    def action_page_up(self) -> None:
        self.page(-1)

    def action_page_down(self) -> None:
        self.page(1)

    def go_first(self) -> None:
        """The room's first row, at the top."""
        if self.window.no_older:
            self._following = False
            self._goto(0)
            self._relayout(self._anchor())
            self.refresh()
            return
        if self.source is None:
            return
        rows = self.source.first(PAGE_ROWS + 1)
        if rows is None:
            return
        self.show(rows[:PAGE_ROWS], at_latest=len(rows) <= PAGE_ROWS, no_older=True, follow=False)

    def go_to_end(self) -> None:
        """The newest rows, followed again (read back in if paging dropped them)."""
        if not self.window.at_latest and self.source is not None:
            rows = self.source.latest(PAGE_ROWS)
            if rows is None:
                return
            self.show(rows)
        self._following = True
        self._relayout(None)
        self._goto(self._max_y())
        self.post_message(self.EndReached())
        self.refresh()

    def action_first(self) -> None:
        self.go_first()

    def action_latest(self) -> None:
        self.go_to_end()

    def scroll_to_row(self, row_id: int, *, center: bool = False, top: bool = True) -> None:
        index = self.window.index_of(row_id)
        if index is None:
            return
        self._following = False
        height = self.scrollable_content_region.height
        self._goto(self.window.top(index))  # measured where it stands
        self._relayout((row_id, 0))
        start, rows = self.window.top(index), self.window.heights[index]
        if center:
            y = start - max(0, (height - rows) // 2)
        elif top or rows >= height:
            y = start
        else:
            y = start + rows - height
        view = round(self.scroll_y)
        if center or not (view <= start and start + rows <= view + height):
            self._goto(y)
        self._following = self.window.at_latest and round(self.scroll_y) >= self._max_y()
        self._relayout(self._anchor())
        self._fill()
        self.refresh()

    # -- the cursor and the row keys -------------------------------------------------

    def on_focus(self, event: Focus) -> None:
        self.refresh()

    def on_blur(self, event: Blur) -> None:
        self.refresh()

    def on_click(self, event: Click) -> None:
        """A click puts the cursor on the row under the pointer (the log takes the focus)."""
        y = round(self.scroll_y) + event.y
        if not self.window.rows or y >= self.window.total:
            return
        index, _ = self.window.locate(y)
        self.cursor = self.window.rows[index].id
        self.refresh_bindings()
        self.refresh()

    def focus_row(self, row_id: int | None = None) -> None:
        """The cursor on ``row_id`` (the newest row if None), and the keys to the log."""
        if row_id is None and self.window.rows:
            row_id = self.window.rows[-1].id if self.window.at_latest else self._rows_in_view()[-1]
        self.cursor = row_id
        self.focus(scroll_visible=False)
        self.refresh_bindings()
        self.refresh()

    def _rows_in_view(self) -> list[int]:
        rng = self.window.rows_in(round(self.scroll_y), self.scrollable_content_region.height)
        return [self.window.rows[i].id for i in rng] or [0]

    def _step(self, step: int) -> None:
        """↑/↓: the cursor to the previous or next row. A cursor out of view (the owner
        paged away from it) steps from the edge of what is on screen, so ↑ moves the view
        up one row, never back down to where the cursor was."""
        if not self.window.rows:
            return
        shown = self._rows_in_view()
        base = self.cursor if self.cursor in shown else (shown[0] if step < 0 else shown[-1])
        index = self.window.index_of(base)
        if index is None:
            return
        if index + step < 0 and not self.window.no_older and self.source is not None:
            self._read_older()
        elif index + step >= len(self.window) and not self.window.at_latest and self.source is not None:
            self._read_newer()
        index = self.window.index_of(base)
        target = (index if index is not None else 0) + step
        if 0 <= target < len(self.window):
            self.cursor = self.window.rows[target].id
            self.scroll_to_row(self.cursor, top=step < 0)
        elif step > 0:
            self.go_to_end()
        self.refresh_bindings()
        self.refresh()

    def action_previous_row(self) -> None:
        self._step(-1)

    def action_next_row(self) -> None:
        self._step(1)

    def _cursor_row(self) -> Row | None:
        return self.row(self.cursor) if self.cursor is not None else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        row = self._cursor_row()
        if action == "toggle_fold":
            return row is not None and row.turn_kind == SUMMARY
        if action == "toggle_version":
            return row is not None and not row.turn_kind and row.status == "superseded"
        if action in ("copy", "copy_code", "view_row"):
            return row is not None
        if action == "toggle_thinking":
            return row is not None and bool(self._thinking_of(row)[0].strip())
        return True

    def action_copy(self) -> None:
        row = self._cursor_row()
        if row is not None:
            text = self._stream.text if self._stream is not None and self._stream.row_id == row.id else row.content
            copy_row_text(self, text)

    def cursor_row_text(self) -> RowText | None:
        """The cursor row as its id and text, for the row keys (copy a code block, the pager)."""
        from keeltui.panes.chief.row_text import RowText

        row = self._cursor_row()
        if row is None:
            return None
        stream = self._stream
        return RowText(row.id, stream.text if stream is not None and stream.row_id == row.id else row.content)

    def action_copy_code(self) -> None:
        from keeltui.panes.chief.row_text import copy_code, focused_row

        row = focused_row(self)
        if row is None:
            self.app.bell()
        else:
            copy_code(self.app, row)

    def action_view_row(self) -> None:
        from keeltui.panes.chief.row_text import PagerWanted, focused_row

        row = focused_row(self)
        if row is None:
            self.app.bell()
        else:
            self.post_message(PagerWanted(row))

    def _thinking_of(self, row: Row) -> tuple[str, float | None, bool]:
        """(text, seconds, still thinking) of the thinking drawn above a reply's answer."""
        stream = self._stream
        if stream is not None and stream.row_id == row.id and stream.buffer.thinking.text:
            live = stream.buffer.thinking
            return live.text, live.seconds(), not live.ended
        if not has_thinking(row):
            return "", None, False
        return (*row_thinking(row), False)

    def action_toggle_thinking(self) -> None:
        """Unfold (or fold again) the cursor row's thinking."""
        row = self._cursor_row()
        if row is None:
            return
        self._thinking_open ^= {row.id}
        index = self.window.index_of(row.id)
        if index is None:
            return
        anchor = self._anchor()
        if anchor is not None and anchor[0] == row.id:
            anchor = (row.id, 0)
        stream = self._stream
        if stream is not None and stream.row_id == row.id:
            stream.head_key = None
            self.window.set_height(index, self._row_height(index))
        else:
            self.window.set_height(index, self._estimate(row), known=False)
        self._relayout(anchor)
        self.refresh()

    def toggle_fold(self, row_id: int) -> None:
        """Fold or unfold a summary or an earlier version."""
        index = self.window.index_of(row_id)
        if index is None:
            return
        self._toggled ^= {row_id}
        anchor = self._anchor()
        if anchor is not None and anchor[0] == row_id:
            anchor = (row_id, 0)
        self.window.set_height(index, self._estimate(self.window.rows[index]), known=False)
        self._relayout(anchor)
        self.refresh()

    def action_toggle_fold(self) -> None:
        if self.cursor is not None:
            self.toggle_fold(self.cursor)

    def action_toggle_version(self) -> None:
        if self.cursor is not None:
            self.toggle_fold(self.cursor)

    def mark_match(self, row_id: int | None) -> None:
        self.match = row_id
        if row_id is not None:
            self.scroll_to_row(row_id, center=True)
        self.refresh()

    # -- drawing -----------------------------------------------------------------------

    def _cache_key(self, row: Row) -> tuple:
        shape = self._shape(row)  # its fields, not itself: a key of atoms is no work for the collector
        return row.id, hash(_drawn_as(row)), self._width, self._restyled, shape.folded, shape.plain, shape.thinking_unfolded

    def _box_lines(self, row: Row) -> tuple[Line, ...]:
        key = self._cache_key(row)
        lines = self.cache.get(key)
        if lines is None:
            rendered = row_lines(row, self._speaker(row), self._width, self.look(), self._shape(row), self.app.console)
            self.lines_rendered += len(rendered)
            lines = self.cache.put(key, rendered)
        return lines

    def _background(self, row: Row) -> Style:
        if row.id == self.match:
            return self._component("room-log--match")
        cursor = row.id == self.cursor and self.has_focus
        if row.turn_kind:
            return self._component("room-log--system-cursor" if cursor else "room-log--system")
        if cursor:
            return self._component("room-log--cursor")
        return Style()

    def _row_line(self, index: int, line: int) -> Strip | Line | None:
        """Line ``line`` of row ``index``'s box (None: blank room, or the gap of a row that starts no day)."""
        if line <= 0:
            return self._day_line(index)
        row = self.window.rows[index]
        stream = self._stream
        if stream is not None and row.id == stream.row_id:
            return self._stream_line(row, stream, line - 1)
        lines = self._box_lines(row)
        return lines[line - 1] if line - 1 < len(lines) else None

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines in ``crop``, each drawn once while it shows the same: a line that only
        moved (the view followed a reply a line, the wheel scrolled) is the strip it was.

        Textual's own path (its styles cache) builds every line of the view anew after a
        scroll: the widget's padding, border, tint and opacity, then its line filters. The
        log has none of the first four, so its lines take only the filters here, and each
        strip keeps what Textual derives from it (filtered, cropped) for the next frame."""
        if self._sync_width():
            self._fill()
        self._render_ahead_soon()
        # What every line of this paint shares, read once (Textual computes each anew).
        self._paint_styles = {}
        self._base = self.rich_style
        if not self._plain_box():
            return super().render_lines(crop)
        base_background, background = self.background_colors
        self._paint = self.size.width, Style(bgcolor=(base_background + background).rich_color), background, tuple(
            self.get_line_filters())
        self._drawn.start_paint((*self._paint, self._base), DRAWN_SCREENS * max(1, self.size.height))
        x1, x2 = crop.column_span
        whole = x1 == 0 and x2 == self.size.width
        lines = [self._drawn_line(y) for y in crop.line_range]
        return lines if whole else [line.crop(x1, x2) for line in lines]

    def _plain_box(self) -> bool:
        """Whether the log is drawn without padding, border, outline, tint, hatch or opacity
        (its CSS): only then may it skip Textual's styles cache."""
        styles = self.styles
        return not (styles.border or styles.outline or any(styles.padding) or styles.tint.a
                    or self.opacity != 1.0 or styles.text_opacity != 1.0 or styles.has_rule("hatch"))

    def _drawn_line(self, y: int) -> Strip:
        """Line ``y`` of the view as the screen gets it: the widget's width, filtered."""
        virtual_y = round(self.scroll_y) + y
        if not self.window.rows or virtual_y >= self.window.total:
            return self._finish(self.render_line(y))
        index, line = self.window.locate(virtual_y)
        box = self._row_line(index, line)
        if isinstance(box, Strip):  # a day's name in the gap above a row: drawn each time
            return self._finish(self._line_strip(index, line, box))
        if box is None:  # a blank line (the gap between rows): one for all
            drawn, under = _BLANK, None
        else:
            drawn, under = box, self._background(self.window.rows[index])
        strip = self._drawn.get(drawn, under)
        if strip is None:
            strip = self._drawn.put(drawn, under, self._finish(self._line_strip(index, line, box)))
        return strip

    def _finish(self, strip: Strip) -> Strip:
        """A line as Textual's styles cache would hand it on: the widget's width (the column
        under the scrollbar in the widget's background), the terminal's filters applied."""
        width, under, background, filters = self._paint
        strip = strip.adjust_cell_length(width, under)
        for line_filter in filters:
            strip = strip.apply_filter(line_filter, background)
        return strip

    @property
    def rendering_ahead(self) -> bool:
        """Whether rows around the view are still being read and rendered ahead."""
        return self._ahead is not None and not self._ahead.is_finished

    def _render_ahead_soon(self) -> None:
        """A frame is being drawn: once it is out, render the rows around the view. Not while
        a reply streams (its flushes have the loop) nor before Markdown is loaded (the rows
        would be drawn again)."""
        self._ahead_again = True
        if self._stream is None and not self._plain and not self.rendering_ahead:
            # A worker, not a bare task: an error in it is the app's crash, not lost.
            self._ahead = self.run_worker(self._render_ahead(), group="render-ahead", exit_on_error=True)

    async def _render_ahead(self) -> None:
        """Read and render the rows ``AHEAD_SCREENS`` above and below the view, the side it
        is heading to first, into the cache, a slice of ``SLICE_SECS`` at a time; start over
        when the view moves."""
        while self._ahead_again:
            self._ahead_again = False
            await asyncio.sleep(PAUSE_SECS)  # the frame that asked goes out first
            if self._stream is not None or self._plain or self._width <= 0 or not self.window.rows:
                continue
            edges = self._edges()
            self._fill(AHEAD_SCREENS)
            if self._edges() != edges:
                self.refresh()  # the first row's day line may change with what is above it
            started = time.perf_counter()
            for row in self._rows_ahead():
                if self._ahead_again or self._stream is not None:
                    break
                index = self.window.index_of(row.id)
                if index is None or self.window.rows[index] is not row:
                    continue  # dropped or changed meanwhile
                self._box_lines(row)
                if time.perf_counter() - started >= SLICE_SECS:
                    await asyncio.sleep(PAUSE_SECS)
                    started = time.perf_counter()

    def _edges(self) -> tuple[int, int, bool, bool]:
        """The window's first and last rows, and whether they are the room's."""
        return self.window.rows[0].id, self.window.rows[-1].id, self.window.no_older, self.window.at_latest

    def _rows_ahead(self) -> list[Row]:
        """The rows within ``AHEAD_SCREENS`` of the view: those in it, then those on the side
        it is heading to, then the other side, each nearest it first."""
        height = max(1, self.scrollable_content_region.height)
        y = round(self.scroll_y)
        reach = AHEAD_SCREENS * height
        indexes = self.window.rows_in(y - reach, 2 * reach + height)
        top, bottom = y, y + height

        def order(index: int) -> tuple[bool, int]:
            start = self.window.top(index)
            end = start + self.window.heights[index]
            if end <= top:
                return self._heading > 0, top - end
            if start >= bottom:
                return self._heading < 0, start - bottom
            return False, -1

        return [self.window.rows[i] for i in sorted(indexes, key=order)]

    def render_line(self, y: int) -> Strip:
        width = self._width
        base = self._base
        virtual_y = round(self.scroll_y) + y
        if virtual_y >= self.window.total:
            if self._welcome_height():
                welcome = self._welcome_line(virtual_y - self.window.total)
                return welcome.extend_cell_length(width).crop(0, width).apply_style(base)
            return Strip.blank(width, base)
        index, line = self.window.locate(virtual_y)
        return self._line_strip(index, line, self._row_line(index, line))

    def _line_strip(self, index: int, line: int, box: Strip | Line | None) -> Strip:
        """Line ``line`` of row ``index`` (its box line ``box``) across the log's width."""
        self.lines_drawn += 1
        width = self._width
        base = self._base
        if box is None:
            return Strip.blank(width, base)
        row = self.window.rows[index]
        cells = width - 2 * MARGIN
        segments: Iterable[Segment]
        # A row's lines are the box's width (``box_line``); a day's name in the gap is not.
        if isinstance(box, Strip):
            segments = box if box.cell_length == cells else box.extend_cell_length(cells).crop(0, cells)
        else:
            segments = self.cache.segments(box)  # kept packed (keeltui/chief/row_cache.py)
        # One strip, the row's background and the widget's style applied in one pass (a
        # PageUp draws every line anew: the joins and copies were most of its frame).
        margin = Segment(" " * MARGIN, base)
        if line <= 0:  # the gap above the row (a day's name): not part of its box
            return Strip([margin, *Segment.apply_style(segments, base), margin], width)
        return Strip([margin, *Segment.apply_style(segments, base + self._background(row)), margin], width)

    def _day_line(self, index: int) -> Strip | None:
        """The gap above the first row of a day holds the day's name ("Today", "Mon 30 Nov"):
        drawn in a line every row has anyway, so a separator never changes a height."""
        row = self.window.rows[index]
        if index == 0 and not self.window.no_older:
            return None  # the row before it is not read yet
        previous = getattr(self.window.rows[index - 1], "created_at", None) if index else None
        when = getattr(row, "created_at", 0.0) or 0.0
        if not starts_day(previous, when):
            return None
        return Strip([Segment(f"─── {day_label(when, self.clock())} ", self._component("room-log--empty"))])

    def _welcome_line(self, y: int) -> Strip:
        """Line ``y`` of the welcome an empty room shows (chief/welcome.py), below one blank line."""
        lines = welcome_lines(under_rows=bool(self.window.rows))
        if not 1 <= y <= len(lines):
            return Strip.blank(0)
        text, title = lines[y - 1]
        style = self._component("room-log--welcome-title" if title else "room-log--empty")
        return Strip([Segment("  " + text, style)])

_BLANK: Line = ()
"""What a blank line of the log shows (kept among the drawn lines like a row's line)."""


def _drawn_as(row: Row) -> tuple:
    """What a row is drawn from: a change in any of it redraws the row."""
    return (row.content, row.status, row.turn_kind, repr(row.parts), *row_thinking(row))


__all__ = ["PAGE_ROWS", "RoomLog"]
