"""KeelApp: the layout, the bindings, the workers and the store watcher.

The app decides nothing itself: the pure cores decide, the store remembers, and the
widgets are handed what to show. Workers post messages and never touch widgets; one
``Worker.StateChanged`` handler turns any worker failure into a status-line line.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import TabbedContent
from textual.worker import Worker, WorkerState

from keeltui.brain import Brain, BrainError, BrainHTTPError
from keeltui.chief.quiet import QUIET_STATE_KEY, quiet_mode_on, screen_safe
from keeltui.chief.streaming import StreamBuffer
from keeltui.chief_view import PAGE_ROWS, ChiefRoom
from keeltui.config import Config
from keeltui.main_screen import MainScreen
from keeltui.paths import config_stamp
from keeltui.messages import (
    BrainChecked, ChiefReplyFinished, ChiefReplyStarted, StatusMessage, StoreWritten,
)
from keeltui.panes.banner import DriftBanner
from keeltui.panes.composer import Composer
from keeltui.panes.status_line import StatusLine
from keeltui.statusfile import StatusState, render_status, write_status
from keeltui.store import Store
from keeltui.wiring import Services, wire

if TYPE_CHECKING:
    from textual.timer import Timer

    from keeltui.ambient.controller import AmbientController
    from keeltui.tutor_view import TutorPane

log = logging.getLogger("keeltui.app")

STORE_POLL_SECS = 0.5
BRAIN_NOTICE_KEY = "brain_offline_notice"
# Enough rows to fill a tall pane for the first frame; more are paged in right after.
INITIAL_ROWS = 16
BRAIN_REPROBE_SECS = 30
BRAIN_OFFLINE = "brain offline"


def offline_notice(base_url: str, problem: str) -> str:
    return (
        f"The brain is offline: {problem}. keeltui keeps working — reports land, the "
        f"sentinel uses its local judge. To connect, start a server at {base_url} (e.g. "
        "`ollama serve`) or set brain.base_url and brain.model in config.toml "
        "(or KEEL_BRAIN_BASE_URL / KEEL_BRAIN_MODEL); `keeltui doctor` checks it."
    )


class KeelApp(App):
    TITLE = "keeltui"
    CSS_PATH = "keeltui.tcss"
    ENABLE_COMMAND_PALETTE = True

    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True, id="quit"),
        Binding("ctrl+g", "toggle_quiet", "Quiet", priority=True, id="quiet"),
        Binding("ctrl+t", "switch_pane", "Chief/Tutor", priority=True, id="switch_pane"),
        Binding("escape", "leave_composer", "Leave input", show=False, id="leave_composer"),
        Binding("i", "compose", "Write", id="compose"),
        Binding("z", "snooze", "Snooze 1h", id="snooze"),
        Binding("f", "start_focus", "Focus", id="focus"),
        Binding("F", "stop_focus", "Stop focus", show=False, id="stop_focus"),
        Binding("f2", "settings", "Settings", id="settings"),
    ]

    quiet: reactive[bool] = reactive(False)
    ambient_line: reactive[str] = reactive("")
    focus_text: reactive[str] = reactive("")
    context_text: reactive[str] = reactive("")
    judge_name: reactive[str] = reactive("")

    def __init__(
        self, config: Config, store: Store, brain: Brain | None = None, *, clock=time.time, services: Services | None = None,
    ) -> None:
        super().__init__()
        # One composition root (keeltui.wiring); these attributes are its parts, handed down.
        self.services = services if services is not None else wire(config, store, brain)
        self.config = config
        self.store = self.services.store
        self.brain = self.services.brain
        self.clock = clock
        self.chief = self.services.chief
        self._data_version = -1
        self._room_cursor = 0
        self._status_written: str | None = None
        self._status_path: Path = config.status_file_path()
        self._config_stamp = config_stamp(config.source_path or None)
        self.brain_online: bool | None = None
        self._reprobe: Timer | None = None
        self.ambient: AmbientController | None = None  # the ambient controller, mounted after the first frame
        self.tutor: TutorPane | None = None  # the tutor pane, mounted after the first frame
        self._main: MainScreen | None = None

    # -- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from self.main_screen.compose_layout()

    def get_default_screen(self) -> Screen:
        self._main = MainScreen(
            self.config.owner.name, self.config.owner.companion, self.config.chief.window_rows, id="main",
        )
        return self._main

    @property
    def main_screen(self) -> MainScreen:
        """The layout, under any dialog: app-level queries must not land on a dialog."""
        if self._main is None:
            raise RuntimeError("the main screen is built when the app starts")
        return self._main

    @property
    def ui_alive(self) -> bool:
        """False before the layout is up and during teardown, when late messages
        (a brain check, a worker's end, a store write) have no screen to land on."""
        # is_running turns False as shutdown begins, before the screens lose their widgets.
        return self.is_running and self._main is not None and self._main.is_attached and bool(self.screen_stack)

    @property
    def room(self) -> ChiefRoom:
        return self.main_screen.room

    @property
    def status_line(self) -> StatusLine:
        return self.main_screen.status_line

    @property
    def banner(self) -> DriftBanner:
        return self.main_screen.banner

    # -- start-up -------------------------------------------------------------------

    def on_mount(self) -> None:
        if self.config.keys:
            self.set_keymap(self.config.keys)
        self.quiet = quiet_mode_on(self.store)
        rows = self.store.tail(self.store.chief_id(), INITIAL_ROWS)
        self.room.show_rows(rows, plain_first=True)
        self._room_cursor = rows[-1].id if rows else 0
        if rows:
            self.call_after_refresh(self._page_in_backlog, rows[0].id)
        self._data_version = self.store.data_version()
        self.room.composer.focus_input()
        self.set_interval(STORE_POLL_SECS, self._poll_store)
        self._attach_ambient()
        self.call_after_refresh(self._mount_tutor)
        self._update_status()
        # The brain client costs ~0.4 s to import: after the first frame, off the UI thread.
        self.call_after_refresh(self._check_brain)

    def _mount_tutor(self) -> None:
        if not self.ui_alive:
            return
        # The tutor's modules are not needed for the first frame of the room.
        from keeltui.tutor_view import TutorPane

        self.tutor = TutorPane(id="tutor-pane", app_config=self.config, turns=self.services.tutor)
        self.main_screen.tutor_tab.mount(self.tutor)

    def _attach_ambient(self) -> None:
        # A non-visual widget: its workers and timer live and die with the app.
        # Mounted after the first frame, which does not need it.
        def attach() -> None:
            if not self.ui_alive:
                return
            from keeltui.ambient.controller import AmbientController

            self.ambient = AmbientController(self.config, self.store, self.brain, clock=self.clock, id="ambient")
            self.mount(self.ambient)

        self.call_after_refresh(attach)

    def _check_brain(self) -> None:
        self.run_worker(self._brain_check_worker(), name="brain-check", group="brain", exclusive=True, exit_on_error=False)

    async def _brain_check_worker(self) -> None:
        import asyncio

        await asyncio.to_thread(self.brain.warm)
        problem = None
        try:
            await self.brain.list_models()
        except BrainHTTPError as exc:
            # Some servers have no /models; an HTTP answer still means something listens.
            if exc.status >= 500 or exc.status in (401, 403):
                problem = str(exc)
        except BrainError as exc:
            problem = str(exc)
        self.post_message(BrainChecked(problem))

    def on_brain_checked(self, message: BrainChecked) -> None:
        if not self.ui_alive:
            return
        self.set_brain_online(message.problem is None, message.problem)
        if message.problem is None:
            # Clear only the brain's own notice: a check that ends late (a loaded machine)
            # must not wipe an unrelated failure reported meanwhile.
            if self.status_line.message.startswith(BRAIN_OFFLINE):
                self.status_line.message = ""
        elif self._reprobe is None:
            # An offline brain is asked again now and then, so the drift judge and the
            # status line notice when it comes back without waiting for a chat turn.
            self._reprobe = self.set_interval(BRAIN_REPROBE_SECS, self._check_brain)

    def set_brain_online(self, online: bool, problem: str | None = None) -> None:
        """Say once, as a notice, that the brain is offline; forget it once it answers."""
        self.brain_online = online
        if online:
            if self._reprobe is not None:
                self._reprobe.stop()
                self._reprobe = None
            if self.store.get_state(BRAIN_NOTICE_KEY):
                self.store.delete_state(BRAIN_NOTICE_KEY)
            return
        if self.store.get_state(BRAIN_NOTICE_KEY) != self.config.brain.base_url:
            self.store.set_state(BRAIN_NOTICE_KEY, self.config.brain.base_url)
            self.store.add_notice(offline_notice(self.config.brain.base_url, problem or "no answer"))
            self.refresh_room()
        self.status_line.message = f"{BRAIN_OFFLINE}: {problem}" if problem else BRAIN_OFFLINE

    # -- the store is the source of truth ---------------------------------------------

    def _poll_store(self) -> None:
        version = self.store.data_version()
        if version != self._data_version:
            self._data_version = version
            self.refresh_from_store()

    def refresh_from_store(self) -> None:
        if not self.ui_alive:
            return
        quiet = quiet_mode_on(self.store)
        if quiet != self.quiet:
            self.quiet = quiet
        self.refresh_room()
        if self.ambient is not None:
            self.ambient.sync_from_store()
        if self.tutor is not None and self.tutor.is_mounted:
            self.tutor.refresh_from_store()

    def refresh_room(self) -> None:
        if not self.ui_alive:
            return
        rows = self.store.after(self.store.chief_id(), self._room_cursor)
        # Rows another process is still streaming are re-read until they settle.
        streaming_ids = [
            getattr(w, "row_id") for w in self.room.log_view.children
            if getattr(w, "status", None) == "streaming" and w is not self.room._streaming
        ]
        refreshed = [row for row in (self.store.message(i) for i in streaming_ids) if row is not None]
        if rows:
            self._room_cursor = rows[-1].id
        if rows or refreshed:
            self.room.append_rows(refreshed + rows)

    def _page_in_backlog(self, before_id: int) -> None:
        self.room.prepend_rows(self.store.before(self.store.chief_id(), before_id, PAGE_ROWS))

    def on_chief_room_newer_wanted(self, message: ChiefRoom.NewerWanted) -> None:
        rows = self.store.after(self.store.chief_id(), message.after_id, PAGE_ROWS + 1)
        self.room.append_page(rows[:PAGE_ROWS], reaches_latest=len(rows) <= PAGE_ROWS)

    def on_chief_room_older_wanted(self, message: ChiefRoom.OlderWanted) -> None:
        older = self.store.before(self.store.chief_id(), message.before_id, PAGE_ROWS)
        self.room.prepend_rows(older)

    # -- the Chief ------------------------------------------------------------------

    def on_composer_submitted(self, message: Composer.Submitted) -> None:
        if message.composer.id != "chief-composer":
            return
        message.stop()
        if not self.room.at_latest:
            # Sending jumps back to the newest rows, where the reply will stand.
            self.room.show_rows(self.store.tail(self.store.chief_id(), INITIAL_ROWS))
        user_id = self.chief.add_user_turn(message.text)  # write-ahead
        self.refresh_room()
        message.composer.busy = True
        self.run_worker(self._chief_reply(user_id), name="chief-reply", group="chief", exit_on_error=False)

    async def _chief_reply(self, user_id: int) -> None:
        buffer = StreamBuffer()

        def on_start(reply_id: int) -> None:
            row = self.store.message(reply_id)
            if row is not None:
                self.post_message(ChiefReplyStarted(row, buffer))

        result = await self.chief.reply(user_id, buffer.append, on_start)
        self.post_message(ChiefReplyFinished(self.store.message(result.reply_id), result.error))
        if result.needs_compaction and await self.chief.compact() is not None:
            self.post_message(StoreWritten())

    def on_chief_reply_started(self, message: ChiefReplyStarted) -> None:
        if not self.ui_alive:
            return
        self._room_cursor = max(self._room_cursor, message.row.id)
        self.room.begin_stream(message.row, message.buffer)

    def on_chief_reply_finished(self, message: ChiefReplyFinished) -> None:
        if not self.ui_alive:
            return
        self.room.composer.busy = False
        if message.row is not None:
            self.room.end_stream(message.row)
        self.refresh_room()
        if message.error:
            self.status_line.message = message.error
            if self.brain_online is not False:
                self.set_brain_online(False, message.error)
        elif self.brain_online is not True:
            self.set_brain_online(True)
            self.status_line.message = ""

    # -- workers --------------------------------------------------------------------

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            error = event.worker.error
            log.error("worker %s failed: %r", event.worker.name, error)
            if not self.ui_alive:
                return  # logged; there is no status line any more
            self.status_line.message = f"{event.worker.name or 'a worker'} failed: {type(error).__name__}: {error}"
            if event.worker.group == "chief":
                self.room.composer.busy = False

    def on_store_written(self, message: StoreWritten) -> None:
        self.refresh_room()

    def on_status_message(self, message: StatusMessage) -> None:
        if not self.ui_alive:
            return
        self.status_line.message = message.text

    # -- Quiet Mode and the status line ------------------------------------------------

    def watch_quiet(self, quiet: bool) -> None:
        if not self.ui_alive:
            return
        self.room.quiet = quiet
        self._update_status()

    def watch_ambient_line(self) -> None:
        self._update_status()

    def watch_focus_text(self) -> None:
        self._update_status()

    def watch_context_text(self) -> None:
        self._update_status()

    def watch_judge_name(self) -> None:
        self._update_status()

    def status_state(self) -> StatusState:
        return StatusState(
            quiet=self.quiet, ambient_line=self.ambient_line, focus_text=self.focus_text,
            context_text=self.context_text, judge=self.judge_name,
        )

    def _update_status(self) -> None:
        if not self.ui_alive:
            return
        state = self.status_state()
        self.status_line.state = state
        # Quiet Mode holds the drift text back from the banner as well.
        self.banner.line = "" if self.focus_text else screen_safe(self.ambient_line, self.quiet)
        line = render_status(state)
        if line != self._status_written:
            self._status_written = line
            try:
                write_status(self._status_path, line, config_stamp=self._config_stamp)
            except OSError as exc:
                self.status_line.message = f"cannot write the status file {self._status_path}: {exc.strerror}"

    def action_toggle_quiet(self) -> None:
        self.store.set_state(QUIET_STATE_KEY, not self.quiet)
        self.quiet = not self.quiet
        self.notify("Quiet Mode on." if self.quiet else "Quiet Mode off.", timeout=2)

    # -- navigation -------------------------------------------------------------------

    def action_switch_pane(self) -> None:
        panes = self.main_screen.panes
        panes.active = "tutor-tab" if panes.active == "chief-tab" else "chief-tab"

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        # The pane you switch to gets the keyboard, so you can type at once. Focus
        # must leave the hidden pane first: a focused widget in it would pull its
        # tab back to the front.
        focused = self.focused
        if focused is not None and event.pane in focused.ancestors:
            return
        self.set_focus(None)
        self.call_after_refresh(self.action_compose)

    def action_leave_composer(self) -> None:
        """Escape: out of the composer, onto the newest row (so z, f, c act at once)."""
        panes = self.main_screen.panes
        rows = [w for w in self.room.log_view.children if w.can_focus] if panes.active == "chief-tab" else []
        if rows and not self.quiet:
            rows[-1].focus(scroll_visible=False)
        else:
            self.set_focus(None)

    def action_compose(self) -> None:
        panes = self.main_screen.panes
        if panes.active == "chief-tab" and not self.quiet:
            self.room.composer.focus_input()
        else:
            if self.tutor is not None:
                self.tutor.focus_input()

    def action_snooze(self) -> None:
        if self.ambient is not None:
            self.ambient.snooze_from_ui()

    def action_start_focus(self) -> None:
        if self.ambient is not None:
            self.ambient.start_focus_from_ui()

    def action_stop_focus(self) -> None:
        if self.ambient is not None:
            self.ambient.stop_focus_from_ui()

    def action_settings(self) -> None:
        if self.ambient is not None:
            self.ambient.open_settings()

    def on_drift_banner_snooze_requested(self, message: DriftBanner.SnoozeRequested) -> None:
        self.action_snooze()

    def on_drift_banner_focus_requested(self, message: DriftBanner.FocusRequested) -> None:
        self.action_start_focus()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Quiet Mode", "Toggle Quiet Mode (hide the Chief room)", self.action_toggle_quiet)
        yield SystemCommand("Chief / Tutor", "Switch between the Chief room and the tutor", self.action_switch_pane)
        yield SystemCommand("Snooze drift coaching", "Snooze the ambient sentinel for an hour", self.action_snooze)
        yield SystemCommand("Start focus", "Declare a focus session", self.action_start_focus)
        yield SystemCommand("Stop focus", "End the running focus session (reported in the room)", self.action_stop_focus)
        yield SystemCommand("Settings", "Ambient mode and cadence", self.action_settings)

    async def on_unmount(self) -> None:
        try:
            await self.brain.aclose()
        except Exception:  # closing must never turn an exit into a traceback
            pass


def run_app(config: Config, store: Store) -> int:
    app = KeelApp(config, store, services=wire(config, store))
    app.run()
    return app.return_code or 0


__all__ = ["KeelApp", "run_app"]
