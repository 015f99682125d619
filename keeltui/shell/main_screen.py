"""MainScreen: the app's layout -- drift banner, the Chief and Tutor tabs, status line, footer.

The app owns this one screen (``KeelApp.main_screen``); dialogs are pushed above it and
app-level queries go to it, never to whatever screen is on top. The screen is handed
the few values its widgets show and builds nothing else: no store, no brain.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from keeltui.panes.common.footer import KeelFooter
from keeltui.chief.context import Row
from keeltui.chief_view import ChiefRoom
from keeltui.panes.ambient.banner import DriftBanner
from keeltui.panes.chief.parts import ChiefParts
from keeltui.panes.chief.row_source import RowSource
from keeltui.panes.common.pane_tabs import Pane, PaneTabs
from keeltui.terminal.textual_seam import paint_changed_cells_only
from keeltui.panes.common.status_line import StatusLine


class MainScreen(Screen):
    # The app gives the first focus itself (the composer; nothing in Quiet Mode). Textual's
    # default gave it to the first focusable widget, the tab strip, which the app then took
    # it from: both restyled twice more before the first frame.
    AUTO_FOCUS = ""
    DEFAULT_CSS = """
    MainScreen #tutor-waiting { color: $text-muted; padding: 1 2; }
    MainScreen #controllers { display: none; }
    """

    def __init__(
        self, owner: str, companion: str, window_rows: int, *, snooze_secs: int,
        first_rows: Sequence[Row] = (), source: RowSource | None = None, parts: ChiefParts | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        paint_changed_cells_only(self)  # only the cells that changed are painted
        self._owner = owner
        self._companion = companion
        self._window_rows = window_rows
        self._snooze_secs = snooze_secs
        self._first_rows = first_rows
        self._source = source
        self._parts = parts
        self._resumed = False

    def compose_layout(self) -> ComposeResult:
        """The widgets of this screen. The app's compose yields them (so they are
        mounted here before the app's Mount event, in one batch with the first frame);
        the screen's own compose, which Textual runs later, stays empty."""
        yield DriftBanner(snooze_secs=self._snooze_secs, id="drift-banner")
        with PaneTabs(id="panes", initial="chief-tab"):
            with Pane("Chief", id="chief-tab"):
                yield ChiefRoom(self._owner, self._companion, self._window_rows,
                                first_rows=self._first_rows, source=self._source, parts=self._parts, id="chief-room")
            with Pane("Tutor", id="tutor-tab"):
                # The tutor pane is mounted right after the first frame (mount_tutor). Until
                # then an empty tab drew its own name ("TabPane#tutor-tab") on a quick Ctrl+T.
                yield Static("The tutor is on its way…", id="tutor-waiting")
        yield StatusLine(id="status-line")
        yield KeelFooter()
        # Where the widgets with no look of their own (the ambient controller) are mounted:
        # a mount makes its parent lay out again, and the screen's layout repaints every cell.
        yield Widget(id="controllers")

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Screen's own handler. Every widget was styled as it mounted, a moment
        # ago, and each class or focus change since restyled its widget: the first resume's
        # restyle of the whole screen would style each one again (~10 ms of the first frame).
        # A later resume (after a dialog) restyles as Textual does.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    @property
    def room(self) -> ChiefRoom:
        return self.query_one(ChiefRoom)

    @property
    def status_line(self) -> StatusLine:
        return self.query_one(StatusLine)

    @property
    def banner(self) -> DriftBanner:
        return self.query_one(DriftBanner)

    @property
    def panes(self) -> PaneTabs:
        return self.query_one(PaneTabs)

    @property
    def tutor_tab(self) -> Pane:
        return self.query_one("#tutor-tab", Pane)

    def mount_controller(self, controller: Widget) -> None:
        """Mount a widget that shows nothing (it runs timers and workers) without a repaint."""
        self.query_one("#controllers").mount(controller)

    def mount_tutor(self, pane: Widget) -> None:
        """Put the tutor pane in its tab, in place of the line that held it."""
        self.tutor_tab.query("#tutor-waiting").remove()
        self.tutor_tab.mount(pane)
