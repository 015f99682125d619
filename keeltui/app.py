"""KeelApp: the layout, the global keys, the store watcher and the routing.

The app decides nothing itself: the pure cores decide, the store remembers, and the rooms
own their behaviour (chief_view.py, tutor_view.py). Its parts live in shell/: the status
line and file, the brain and database health, the global keys. Rooms post up; it routes.
"""
from __future__ import annotations

from contextlib import suppress

import logging
import time
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from keeltui.shell.health import Health
from keeltui.shell.store_watch import StoreWatch
from keeltui.shell.global_keys import GlobalKeys
from keeltui.shell.status_keeping import StatusKeeping
from keeltui.chief.quiet import QUIET_STATE_KEY, quiet_mode_on
from keeltui.chief_view import INITIAL_ROWS, ChiefRoom
from keeltui.config import Config
from keeltui.shell.main_screen import MainScreen
from keeltui.panes.common.events import ModelChanged, SendFailed, StatusMessage, StoreWritten
from keeltui.panes.chief.parts import ChiefParts
from keeltui.panes.common.status_line import StatusLine
from keeltui.panes.common.theme_choice import use_theme
from keeltui.status.file import HEARTBEAT_SECS as STATUS_HEARTBEAT_SECS
from keeltui.panes.common import focus_places
from keeltui.infra import gc_policy
from keeltui.infra.paths import config_stamp
from keeltui.services.room_rows import StoreRows
from keeltui.store import Store, StoreError
from keeltui.terminal.css_cache import CssKeepingApp
from keeltui.terminal.exit_hooks import CrashLineApp
from keeltui.wiring import Services, wire

if TYPE_CHECKING:
    from keeltui.brain import Brain
    from keeltui.panes.ambient.controller import AmbientController
    from keeltui.tutor_view import TutorPane

log = logging.getLogger("keeltui.app")


class KeelApp(StoreWatch, StatusKeeping, Health, GlobalKeys, CssKeepingApp, CrashLineApp):
    TITLE = "keeltui"
    CSS_PATH = "keeltui.tcss"
    ENABLE_COMMAND_PALETTE = True

    def get_driver_class(self):
        from keeltui.terminal.hungup import hangup_safe
        from keeltui.terminal.quiet_input import quiet_input

        # A terminal that hangs up must not wedge the exit (see keeltui/terminal/hungup.py);
        # the input thread sleeps until there is input (keeltui/terminal/quiet_input.py).
        return hangup_safe(quiet_input(super().get_driver_class()))

    def __init__(
        self, config: Config, store: Store, brain: Brain | None = None, *, clock=time.time, services: Services | None = None,
    ) -> None:
        super().__init__()
        # One composition root (keeltui.wiring); these attributes are its parts, handed down.
        self.services = services if services is not None else wire(config, store, brain, clock=clock)
        self.config, self.store, self.clock = config, self.services.store, clock
        self._status_path = config.status_file_path()
        self._config_stamp = config_stamp(config.source_path or None)
        self.ambient: AmbientController | None = None  # the ambient controller, mounted after the first frame
        self.tutor: TutorPane | None = None  # the tutor pane, mounted after the first frame
        self._main: MainScreen | None = None

    def compose(self) -> ComposeResult:
        yield from self.main_screen.compose_layout()

    def get_default_screen(self) -> Screen:
        # The newest rows are read before the room composes, so the first frame has them.
        # The change counter is read with the rows: a write another process commits after
        # this read is then seen by the store watcher, not taken as already shown.
        self._data_version = self.store.data_version()
        services, rows = self.services, StoreRows(self.store, self._store_failed)
        parts = ChiefParts(rows, lambda: services.chief, lambda: services.models, lambda: services.persona,
                           self.config.brain.base_url, self.clock)
        self._main = MainScreen(
            self.config.owner.name, self.config.owner.companion, self.config.chief.window_rows,
            snooze_secs=self.config.ambient.snooze_secs, first_rows=self.store.tail(self.store.chief_id(), INITIAL_ROWS),
            source=rows, parts=parts, id="main",
        )
        return self._main

    @property
    def brain(self) -> Brain:
        """The services' brain, built when first asked for (after the first frame)."""
        return self.services.brain

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

    def on_mount(self) -> None:
        from keeltui.terminal.guard import install_signal_exit

        install_signal_exit(self)  # SIGTERM/SIGINT/SIGHUP: exit the ordinary way, terminal restored
        use_theme(self, self.config.ui.theme)  # [ui] theme; the palette's picker saves a new choice there
        self.theme_changed_signal.subscribe(self, self._theme_chosen)
        # `fg` after a stop (SIGTSTP): Textual starts the terminal again on a blank alternate
        # screen and draws nothing until something changes. Draw the whole screen then.
        self.app_resume_signal.subscribe(self, lambda _app: self.refresh(layout=True))
        if self.config.keys:
            self.set_keymap(self.config.keys)
        self.quiet = quiet_mode_on(self.store)
        if not self.quiet:  # in Quiet Mode the hidden composer must not take what is typed
            self.room.composer.focus_input()
        self._start_store_watch()
        # Rewritten unchanged now and then: a line that stops being refreshed reads as stale.
        self.set_interval(STATUS_HEARTBEAT_SECS, self._status_heartbeat)
        self.call_after_refresh(self._mount_later)
        self.status_line.model = self.config.brain.model_for("chief")
        self._update_status()
        # The brain client costs ~0.4 s to import: after the first frame, off the UI thread.
        self.call_after_refresh(self._check_brain)
        self.call_after_refresh(gc_policy.start_done)  # held since `keeltui` started (cmd_run)
        # A partly damaged file opens fine; PRAGMA quick_check finds the bad pages.
        self.call_after_refresh(self.run_worker, self._database_check, name="database-check", thread=True, exit_on_error=False)

    def _mount_later(self) -> None:
        """The ambient controller (non-visual) and the tutor pane: not needed for the first frame."""
        if not self.ui_alive:
            return
        from keeltui.panes.ambient.controller import AmbientController
        from keeltui.tutor_view import TutorPane

        self.ambient = AmbientController(self.services.ambient, id="ambient")
        self.ambient.brain_online, self.ambient.quiet = self.brain_online, self.quiet
        self.main_screen.mount_controller(self.ambient)
        self.tutor = TutorPane(id="tutor-pane", app_config=self.config, turns=self.services.tutor, jobs=self.services.tutor_jobs,
                               records=self.services.tutor_records)
        self.main_screen.mount_tutor(self.tutor)

    # -- the store is the source of truth: the watcher ------------------------------------

    def refresh_from_store(self) -> None:
        if not self.ui_alive:
            return
        quiet = quiet_mode_on(self.store)
        if quiet != self.quiet:
            self.quiet = quiet
        self.room.refresh_from_store()
        if self.ambient is not None:
            self.ambient.sync_from_store()
        if self.tutor is not None and self.tutor.is_mounted:
            self.tutor.refresh_from_store()

    def on_store_written(self, message: StoreWritten) -> None:
        if self.ui_alive:
            self.room.refresh_from_store()

    # -- routing: what the rooms and workers post up ---------------------------------------

    def on_status_message(self, message: StatusMessage) -> None:
        if not self.ui_alive or (message.replaces is not None and self.status_line.message != message.replaces):
            return
        self.status_line.message = message.text

    def on_send_failed(self, message: SendFailed) -> None:
        if message.problem is not None:
            self.database_problem = self.status_line.message = f"not sent: {message.problem}"
        elif self.database_problem.startswith("not sent: "):
            self.database_problem = self.status_line.message = ""

    def on_model_changed(self, message: ModelChanged) -> None:
        self.status_line.model = self.config.brain.model_for("chief")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            error = event.worker.error
            log.error("worker %s failed: %r", event.worker.name, error)
            if not self.ui_alive:
                return  # logged; there is no status line any more
            if isinstance(error, StoreError):  # already one line naming the file
                self._store_failed(error)
            else:
                self.status_line.message = f"{event.worker.name or 'a worker'} failed: {type(error).__name__}: {error}"

    # -- Quiet Mode ------------------------------------------------------------------------

    def watch_quiet(self, was_quiet: bool, quiet: bool) -> None:
        if not self.ui_alive:
            return
        self.room.quiet = quiet
        if self.ambient is not None:
            self.ambient.quiet = quiet
        self._update_status()
        if was_quiet != quiet:  # not the watcher's first call, at mount
            focus_places.after_quiet(self, quiet)

    def action_toggle_quiet(self) -> None:
        with self._store_guarded():
            self.store.set_state(QUIET_STATE_KEY, not self.quiet)
            self.quiet = not self.quiet
            self.notify("Quiet Mode on." if self.quiet else "Quiet Mode off.", timeout=2)

    async def on_unmount(self) -> None:
        self._unwatch_store()
        with suppress(Exception):  # closing must never turn an exit into a traceback
            await self.brain.aclose()


def run_app(config: Config, store: Store) -> int:
    from keeltui.keys.keymap import keys_in_use
    from keeltui.terminal.keyinput import install as install_key_input

    # Alt+Enter from tmux/SSH (ESC CR) is a new line, never a send; Escape and the keys
    # typed right behind it (one read over SSH) stay Escape and those keys.
    install_key_input(keys_in_use(config.keys))
    from keeltui.infra.logfile import install_log_file, log_path

    install_log_file(log_path(config))  # warnings go to a 0600 file, never onto the screen
    app = KeelApp(config, store, services=wire(config, store))
    app.run()
    return app.return_code or 0


__all__ = ["KeelApp", "run_app"]
