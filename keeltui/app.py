"""KeelApp: the layout, the bindings, the workers and the store watcher.

The app decides nothing itself: the pure cores decide, the store remembers, and the
widgets are handed what to show. Workers post messages and never touch widgets; one
``Worker.StateChanged`` handler turns any worker failure into a status-line line.
"""

from __future__ import annotations

import gc
import logging
import time
from pathlib import Path
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterable, Iterator

from textual import events, on
from textual.app import App, ComposeResult, SystemCommand
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import TabbedContent
from textual.worker import Worker, WorkerState

from keeltui.brain import Brain, BrainError, BrainHTTPError
from keeltui.chief.failure_words import BRAIN_GONE, reply_failure_kind
from keeltui.chief.quiet import QUIET_STATE_KEY, quiet_mode_on, screen_safe
from keeltui.chief.streaming import StreamBuffer
from keeltui.chief_view import PAGE_ROWS, ChiefRoom
from keeltui.services.room_rows import StoreRows
from keeltui.config import Config
from keeltui.main_screen import MainScreen
from keeltui.panes.bindings import bind
from keeltui.paths import config_stamp
from keeltui.messages import (
    BrainChecked, ChiefReplyFinished, ChiefReplyStarted, StatusMessage, StoreWritten,
)
from keeltui.messages import ContextChanged
from keeltui.messages import ChiefFirstChunk
from keeltui import focus_places, gc_policy
from keeltui.chief import controls as chief_controls
from keeltui.chief.editing import Edit
from keeltui.panes.room_controls import REPLY_IDLE, REPLY_STREAMING, REPLY_WAITING, RoomControls
from keeltui.messages import AmbientChanged, JudgeFailed
from keeltui.panes.banner import DriftBanner
from keeltui.panes.composer import Composer
from keeltui.terminal.textual_seam import release_render_caches
from keeltui.panes.status_line import StatusLine
from keeltui.adapters.status_file import HEARTBEAT_SECS as STATUS_HEARTBEAT_SECS, write_status
from keeltui.statusfile import StatusState, render_status
from keeltui.store import Row, Store, StoreError
from keeltui.wiring import Services, wire

if TYPE_CHECKING:
    from keeltui.services.chief_turns import TurnResult
    import asyncio

    from textual.timer import Timer

    from keeltui.panes.ambient_controller import AmbientController
    from keeltui.panes.search_bar import SearchBar  # mounted on first use (Ctrl+F)
    from keeltui.services.chief_turns import ChiefTurns
    from keeltui.panes.row_text import PagerWanted  # loaded with the room's row keys
    from keeltui.panes.landed_signal import TurnLanded  # loaded with the first long reply
    from keeltui.tutor_view import TutorPane

log = logging.getLogger("keeltui.app")

STORE_POLL_SECS = 0.5
BRAIN_NOTICE_KEY = "brain_offline_notice"
# Enough rows to fill a tall pane for the first frame; more are paged in right after.
INITIAL_ROWS = 16
BRAIN_REPROBE_SECS = 30
BRAIN_OFFLINE = "brain offline"
STOPPED_LINE = "Reply stopped; F5 asks again."


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

    def get_driver_class(self):
        from keeltui.hungup import hangup_safe

        # A terminal that hangs up must not wedge the exit (see keeltui/hungup.py).
        return hangup_safe(super().get_driver_class())

    BINDINGS = [
        bind("quit", "quit", "Quit", priority=True),
        bind("quiet", "toggle_quiet", "Quiet", priority=True),
        bind("switch_pane", "switch_pane", "Chief/Tutor", priority=True),
        bind("leave_composer", "leave_composer", "Leave input"),
        # F-keys work while typing (priority: the TextArea has its own F6/F7); the
        # single letters z/f/F/i live on the room's log (panes/row_keys.py).
        bind("snooze", "snooze", "Snooze 1h", priority=True),
        bind("focus", "start_focus", "Focus", priority=True),
        bind("stop_focus", "stop_focus", "Stop focus", priority=True, show=False),
        bind("settings", "settings", "Settings"),
        # The drift banner's keys: chords that work while typing, so acting on a drift
        # never means leaving the composer first (or typing a letter into it).
        bind("day", "day", "Your day", priority=True),
        bind("that_was_work", "that_was_work", "That was work", priority=True, show=False),
        bind("help", "help", "Help", priority=True),
    ]

    # ``var``, not ``reactive``: a reactive of the App repaints the whole screen when it
    # changes (App.refresh), and these change at every send, first chunk and drift.
    quiet: var[bool] = var(False)
    ambient_line: var[str] = var("")
    focus_text: var[str] = var("")
    context_text: var[str] = var("")
    context_warning: var[str] = var("")
    """The tutor's context warning, while the tutor is in view (the Chief never warns)."""
    judge_name: var[str] = var("")
    ambient_snoozed_until: var[float] = var(0.0)
    ambient_mode: var[str] = var("")
    ambient_away: var[bool] = var(False)
    ambient_no_evidence: var[bool] = var(False)
    reply_phase: var[str] = var(REPLY_IDLE)
    """The one place that says a Chief reply is on its way (handed down to the room)."""

    def __init__(
        self, config: Config, store: Store, brain: Brain | None = None, *, clock=time.time, services: Services | None = None,
    ) -> None:
        super().__init__()
        # One composition root (keeltui.wiring); these attributes are its parts, handed down.
        self.services = services if services is not None else wire(config, store, brain, clock=clock)
        self.config = config
        self.store = self.services.store
        self.brain = self.services.brain
        self.clock = clock
        self._data_version = -1
        self._room_cursor = 0
        self._first_rows: list[Row] = []  # the newest rows, read before the room composes
        self._status_written: str | None = None
        self._status_path: Path = config.status_file_path()
        self._config_stamp = config_stamp(config.source_path or None)
        self.brain_online: bool | None = None
        self._reprobe: Timer | None = None
        self.ambient: AmbientController | None = None  # the ambient controller, mounted after the first frame
        self.database_problem = ""
        """A damaged file (quick_check) or a write that failed: held on the status line,
        which other lines give way to, until a write succeeds again."""
        self.tutor: TutorPane | None = None  # the tutor pane, mounted after the first frame
        self._main: MainScreen | None = None
        self._tutor_context: tuple[str, str] = ("", "")  # (percentage, warning) of its open session
        self._stop_reply: asyncio.Event | None = None  # how to stop the reply on its way (not its state)
        self._unsaved_reply: TurnResult | None = None
        """A reply shown but not written (disk full): stored by F5 (or the next turn) once it can be."""
        self._editing: Edit | None = None  # the open edit of the last message (Ctrl+↑), shown above the composer
        self._search: tuple[str, int] | None = None  # (needle, id of the match shown)
        self._reply_started_at = 0.0  # monotonic: how long the owner waited (the landed signal)

    @property
    def chief(self) -> ChiefTurns:
        """The Chief's turns, built on first use: the first frame sends nothing."""
        return self.services.chief

    # -- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from self.main_screen.compose_layout()

    def get_default_screen(self) -> Screen:
        # The newest rows are read before the room composes, so the first frame has them.
        # The change counter is read with the rows: a write another process commits after
        # this read is then seen by the store watcher, not taken as already shown.
        self._data_version = self.store.data_version()
        self._first_rows = self.store.tail(self.store.chief_id(), INITIAL_ROWS)
        self._main = MainScreen(
            self.config.owner.name, self.config.owner.companion, self.config.chief.window_rows,
            snooze_secs=self.config.ambient.snooze_secs, first_rows=self._first_rows,
            source=StoreRows(self.store, self._store_failed), id="main",
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
        from keeltui.terminal_guard import install_signal_exit

        install_signal_exit(self)  # SIGTERM/SIGINT/SIGHUP: exit the ordinary way, terminal restored
        if self.config.keys:
            self.set_keymap(self.config.keys)
        self.quiet = quiet_mode_on(self.store)
        rows = self._first_rows  # composed into the room's first frame (get_default_screen)
        self._room_cursor = rows[-1].id if rows else 0  # older ones are read as the room log needs them
        if not self.quiet:  # in Quiet Mode the hidden composer must not take what is typed
            self.room.composer.focus_input()
        self.set_interval(STORE_POLL_SECS, self._poll_store)
        # Rewritten unchanged now and then: a line that stops being refreshed reads as stale.
        self.set_interval(STATUS_HEARTBEAT_SECS, self._status_heartbeat)
        self._attach_ambient()
        self.call_after_refresh(self._mount_tutor)
        self.status_line.model = self.config.brain.model_for("chief")
        self._update_status()
        # The brain client costs ~0.4 s to import: after the first frame, off the UI thread.
        self.call_after_refresh(self._check_brain)
        self.call_after_refresh(self._check_database)
        self.call_after_refresh(gc_policy.start_done)  # held since `keeltui` started (cmd_run)

    def _check_database(self) -> None:
        # A partly damaged file opens fine; PRAGMA quick_check finds the bad pages.
        self.run_worker(self._database_check, name="database-check", thread=True, exit_on_error=False)

    def _database_check(self) -> None:
        problem = Store.quick_check_file(self.store.path)
        if problem:
            self.post_message(self.DatabaseDamaged(problem))

    class DatabaseDamaged(Message):
        """quick_check failed: the line stays until the app ends (other lines give way to it)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def on_keel_app_database_damaged(self, message: "KeelApp.DatabaseDamaged") -> None:
        message.stop()
        self.database_problem = message.text
        self.status_line.message = message.text

    def _mount_tutor(self) -> None:
        if not self.ui_alive:
            return
        # The tutor's modules are not needed for the first frame of the room.
        from keeltui.tutor_view import TutorPane

        self.tutor = TutorPane(id="tutor-pane", app_config=self.config, turns=self.services.tutor, jobs=self.services.tutor_jobs,
                               records=self.services.tutor_records)
        self.main_screen.tutor_tab.mount(self.tutor)

    def _attach_ambient(self) -> None:
        # A non-visual widget: its workers and timer live and die with the app.
        # Mounted after the first frame, which does not need it.
        def attach() -> None:
            if not self.ui_alive:
                return
            from keeltui.panes.ambient_controller import AmbientController

            self.ambient = AmbientController(self.services.ambient, id="ambient")
            self.ambient.brain_online = self.brain_online
            self.ambient.quiet = self.quiet
            self.mount(self.ambient)

        self.call_after_refresh(attach)

    def _check_brain(self) -> None:
        self.run_worker(self._brain_check_worker(), name="brain-check", group="brain", exclusive=True, exit_on_error=False)

    async def _brain_check_worker(self) -> None:
        import asyncio

        await asyncio.to_thread(self.brain.warm)
        if not gc.get_freeze_count():
            # What start-up built (Textual, the room, the brain client) lives as long as the
            # app: out of the collector's full passes, which scanned it all (0.1 s and more,
            # a PageUp's frame late), and so is what survives each later full pass (see
            # gc_policy). (No gc.collect() first: a full pass here held a first message
            # ~0.3 s in the bench.)
            gc_policy.freeze_survivors()
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
                self.status_line.message = self.database_problem
        elif self._reprobe is None:
            # An offline brain is asked again now and then, so the drift judge and the
            # status line notice when it comes back without waiting for a chat turn.
            self._reprobe = self.set_interval(BRAIN_REPROBE_SECS, self._check_brain)

    def set_brain_online(self, online: bool, problem: str | None = None, *, notice: bool = True) -> None:
        """Say once, as a notice, that the brain is offline; forget it once it answers."""
        with self._store_guarded():  # the notice could not be stored: the status line says why
            self._set_brain_online(online, problem, notice=notice)

    def _set_brain_online(self, online: bool, problem: str | None, *, notice: bool) -> None:
        self.brain_online = online
        if self.ambient is not None:
            self.ambient.brain_online = online  # attributes down: it follows brain ↔ local judge
        if not online and self._reprobe is None:
            # However it was found offline (start-up, a failed Chief turn, the drift
            # judge), it is asked again on the same schedule until it answers.
            self._reprobe = self.set_interval(BRAIN_REPROBE_SECS, self._check_brain)
        if online:
            if self._reprobe is not None:
                self._reprobe.stop()
                self._reprobe = None
            if self.store.get_state(BRAIN_NOTICE_KEY):
                self.store.delete_state(BRAIN_NOTICE_KEY)
            return
        if notice and self.store.get_state(BRAIN_NOTICE_KEY) != self.config.brain.base_url:
            self.store.set_state(BRAIN_NOTICE_KEY, self.config.brain.base_url)
            self.store.add_notice(offline_notice(self.config.brain.base_url, problem or "no answer"))
            self.refresh_room()
        self.status_line.message = self.database_problem or (f"{BRAIN_OFFLINE}: {problem}" if problem else BRAIN_OFFLINE)

    # -- the store is the source of truth ---------------------------------------------

    def _store_failed(self, exc: StoreError) -> None:
        """A store read or write failed: its one line (naming the file) goes on the status
        line, unless a database problem is already held there (other lines give way)."""
        self.status_line.message = self.database_problem or str(exc)

    @contextmanager
    def _store_guarded(self) -> Iterator[None]:
        """Run a block that reads or writes the store; a failure ends the block and says
        why on the status line. What is on screen stays; the app keeps running."""
        try:
            yield
        except StoreError as exc:
            self._store_failed(exc)

    def _show_latest(self) -> list:
        """The newest rows, following the bottom; older ones are read as the log needs them."""
        rows = self.store.tail(self.store.chief_id(), INITIAL_ROWS)
        self.room.show_rows(rows)
        return rows

    def _poll_store(self) -> None:
        with self._store_guarded():  # a damaged page, a vanished file: say so, keep running
            self._poll_store_once()

    def _poll_store_once(self) -> None:
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
        streaming_ids = self.room.foreign_streaming_ids()
        refreshed = [row for row in (self.store.message(i) for i in streaming_ids) if row is not None]
        if rows:
            self._room_cursor = rows[-1].id
        if rows or refreshed:
            self.room.append_rows(refreshed + rows)
            release_render_caches()  # rows pruned from the room must not live on in Textual's caches

    # -- the Chief ------------------------------------------------------------------

    @on(Composer.Submitted, "#chief-composer")
    def _chief_composer_submitted(self, message: Composer.Submitted) -> None:
        message.stop()
        if self.quiet:
            self.bell()  # the room is hidden: nothing typed goes to the Chief
            return
        if not self.room.at_latest:
            # Sending jumps back to the newest rows, where the reply will stand.
            self._show_latest()
        try:
            user_id = self._resend_edited(message.text) if self._editing is not None else None
            if user_id is None:
                user_id = self.chief.add_user_turn(message.text)  # write-ahead
        except StoreError as exc:
            # Nothing was stored: the text goes back into the composer, to send again.
            self._keep_unsent(message.composer, message.text)
            self.database_problem = f"not sent: {exc}"
            self.status_line.message = self.database_problem
            return
        if self.database_problem.startswith("not sent: "):
            self.database_problem = ""
            self.status_line.message = ""
        self._start_reply(user_id)

    def _keep_unsent(self, composer: Composer, text: str) -> None:
        field = composer.input
        field.text = text + (f"\n{field.text}" if field.text.strip() else "")
        field.move_cursor(field.document.end)
        composer.focus_input()

    def _save_unsaved_reply(self) -> bool:
        """Store the reply the screen holds but the disk refused; False (said on the status
        line) while it still cannot be written."""
        if self._unsaved_reply is None:
            return True
        try:
            self.chief.save_unsaved(self._unsaved_reply)
        except StoreError as exc:
            self.status_line.message = f"the reply on screen is still not saved: {exc}"
            return False
        self._unsaved_reply = None
        return True

    def _start_reply(self, user_id: int) -> None:
        import asyncio

        self._save_unsaved_reply()  # the new turn is stored, so the disk has room again
        self.refresh_room()
        if self.status_line.message == STOPPED_LINE:
            self.status_line.message = ""  # about the stopped reply: a new turn makes it untrue
        self.reply_phase = REPLY_WAITING
        self.room.retry_ready = False
        self._reply_started_at = time.monotonic()
        self._stop_reply = asyncio.Event()
        self.run_worker(self._chief_reply(user_id, self._stop_reply), name="chief-reply", group="chief",
                        exit_on_error=False)

    async def _chief_reply(self, user_id: int, stop=None) -> None:
        buffer = StreamBuffer()
        first: list[bool] = []

        started: list = []
        shown: list[str] = []

        def on_start(reply_id: int) -> None:
            started.append(self.store.message(reply_id))
            self.post_message(ChiefReplyStarted(started[0], buffer))

        def on_delta(piece: str) -> None:
            buffer.thinking.end()  # the answer began: the thinking's time stops
            shown.append(piece)
            buffer.append(piece)
            if not first:
                first.append(True)
                self.post_message(ChiefFirstChunk())

        def on_unsaved(line: str) -> None:
            self.post_message(StatusMessage(f"the reply is not being saved: {line}"))

        def on_thinking(piece: str) -> None:
            buffer.thinking.append(piece)  # drawn by the reply's widget on its timer
            if not first:
                first.append(True)
                self.post_message(ChiefFirstChunk())

        try:
            result = await self.chief.reply(user_id, on_delta, on_start, stop=stop, on_unsaved=on_unsaved,
                                            on_thinking=on_thinking)
        except StoreError as exc:
            # The reply could not be stored (the disk filled mid-stream): what was shown
            # stays, marked cut off; the row settles as cut off at the next start.
            from dataclasses import replace

            row = replace(started[0], content="".join(shown), status="partial") if started else None
            self.post_message(ChiefReplyFinished(row, None))  # the composer is free again either way
            self.post_message(StatusMessage(str(exc)))
            return
        if result.unsaved is not None:
            # The row on disk is behind the screen: the screen shows all that came, as not saved.
            from dataclasses import replace

            self._unsaved_reply = result
            on_screen = replace(started[0], content=result.text, status="partial", parts=[result.unsaved])
            self.post_message(ChiefReplyFinished(on_screen, result.error))
            self.post_message(StatusMessage(result.unsaved["message"]))
            return
        self.post_message(ChiefReplyFinished(self.store.message(result.reply_id), result.error))
        if result.needs_compaction and await self.chief.compact() is not None:
            self.post_message(StoreWritten())

    def on_chief_reply_started(self, message: ChiefReplyStarted) -> None:
        if not self.ui_alive:
            return
        self._room_cursor = max(self._room_cursor, message.row.id)
        self.room.begin_stream(message.row, message.buffer)

    def on_chief_first_chunk(self, message: ChiefFirstChunk) -> None:
        if self.reply_phase == REPLY_WAITING:
            self.reply_phase = REPLY_STREAMING

    def watch_reply_phase(self, phase: str) -> None:
        if self.ui_alive:
            self.room.reply_phase = phase

    def on_chief_reply_finished(self, message: ChiefReplyFinished) -> None:
        if not self.ui_alive:
            return
        self._reply_settled(message.row)
        if message.row is not None and message.row.status == chief_controls.STOPPED:
            self.status_line.message = STOPPED_LINE
        if message.row is not None:
            self.room.end_stream(message.row)
            if message.row.status != chief_controls.STOPPED:  # stopped: the owner was there
                self._signal_landed("the Chief's reply", time.monotonic() - self._reply_started_at)
        self.refresh_room()
        if message.error:
            self.status_line.message = message.error
            if self.brain_online is not False and reply_failure_kind(message.row) in BRAIN_GONE:
                self.set_brain_online(False, message.error)
        elif self.brain_online is not True:
            self.set_brain_online(True)
            self.status_line.message = self.database_problem

    # -- workers --------------------------------------------------------------------

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
            if event.worker.group == "chief":
                self._reply_settled(None)

    def on_store_written(self, message: StoreWritten) -> None:
        self.refresh_room()

    def on_status_message(self, message: StatusMessage) -> None:
        if not self.ui_alive:
            return
        self.status_line.message = message.text

    # -- Quiet Mode and the status line ------------------------------------------------

    def watch_quiet(self, was_quiet: bool, quiet: bool) -> None:
        if not self.ui_alive:
            return
        self.room.quiet = quiet
        if self.ambient is not None:
            self.ambient.quiet = quiet
        self._update_status()
        if was_quiet != quiet:  # not the watcher's first call, at mount
            focus_places.after_quiet(self, quiet)

    # -- the tutor's context: its open session's, shown while the tutor is in view -------

    @on(ContextChanged)
    def _tutor_context_changed(self, message: ContextChanged) -> None:
        self._tutor_context = (message.context_text, message.warning)
        self._show_tutor_context()

    @on(TabbedContent.TabActivated)
    def _tutor_context_follows_the_tab(self) -> None:
        self._show_tutor_context()

    def _show_tutor_context(self) -> None:
        text, warning = self._tutor_context
        if not self.ui_alive:
            return  # a message that lands during teardown
        in_view = self.main_screen.panes.active == "tutor-tab"
        # No watcher per field: one render, one status-file write per change.
        self.set_reactive(KeelApp.context_text, text if in_view else "")
        self.set_reactive(KeelApp.context_warning, warning if in_view else "")
        self._update_status()

    @on(AmbientChanged)
    def _ambient_changed(self, message: AmbientChanged) -> None:
        if not self.ui_alive:
            return  # tearing down: there is no status line left to update
        # Six values, one render and one status-file write (no watcher per field).
        self.set_reactive(KeelApp.ambient_line, message.line)
        self.set_reactive(KeelApp.focus_text, message.focus_text)
        self.set_reactive(KeelApp.judge_name, message.judge)
        self.set_reactive(KeelApp.ambient_snoozed_until, message.snoozed_until)
        self.set_reactive(KeelApp.ambient_mode, message.mode)
        self.set_reactive(KeelApp.ambient_away, message.away)
        self.set_reactive(KeelApp.ambient_no_evidence, message.no_evidence)
        self._update_status()

    @on(JudgeFailed)
    def _judge_failed(self, message: JudgeFailed) -> None:
        if not self.ui_alive:
            return  # tearing down
        if self.brain_online is not False:
            # No room notice: a judge model that answers badly while the chat works
            # would otherwise add one every re-probe cycle. The status line says it.
            self.set_brain_online(False, f"drift judge: {message.problem}", notice=False)

    def status_state(self) -> StatusState:
        return StatusState(
            quiet=self.quiet, ambient_line=self.ambient_line, focus_text=self.focus_text,
            context_text=self.context_text, judge=self.judge_name,
            context_warning=self.context_warning,
            snoozed_until=self.ambient_snoozed_until, ambient_off=self.ambient_mode == "off",
            away=self.ambient_away, no_evidence=self.ambient_no_evidence,
        )

    def _update_status(self) -> None:
        if not self.ui_alive:
            return
        state = self.status_state()
        self.status_line.state = state
        # Quiet Mode holds the drift text back from the banner as well.
        # In focus too: a drift from the commitment gets the banner ("back to <commitment>").
        self.banner.line = screen_safe(self.ambient_line, self.quiet)
        # The status file (tmux, `keeltui status`) mirrors the warning whichever pane shows.
        line = render_status(state._replace(context_warning=self._tutor_context[1]))
        if line != self._status_written:
            self._write_status_file(line)

    def _write_status_file(self, line: str) -> None:
        """Write the status file; a failed write is tried again at the next change or heartbeat
        (until then `keeltui status` says the line is stale)."""
        try:
            write_status(self._status_path, line, config_stamp=self._config_stamp)
            self._status_written = line
        except OSError as exc:
            self._status_written = None
            self.status_line.message = f"cannot write the status file {self._status_path}: {exc.strerror}"

    def _status_heartbeat(self) -> None:
        self._status_written = None  # the same line again, with a fresh time (or a retry after a failure)
        self._update_status()
        if self.reply_phase == REPLY_IDLE and gc_policy.thaw_due():
            gc_policy.thaw()  # a whole-heap pass now and then, never while a reply streams

    def action_toggle_quiet(self) -> None:
        with self._store_guarded():
            self.store.set_state(QUIET_STATE_KEY, not self.quiet)
            self.quiet = not self.quiet
            self.notify("Quiet Mode on." if self.quiet else "Quiet Mode off.", timeout=2)

    # -- navigation -------------------------------------------------------------------

    def action_switch_pane(self) -> None:
        panes = self.main_screen.panes
        self.set_focus(None)  # a focus left in the old pane must not pull it back (see PaneTabs)
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave_composer":
            # Escape leaves a text field; the footer offers it only there.
            from textual.widgets import Input, TextArea

            return isinstance(self.focused, (TextArea, Input))
        return True

    def action_focus_next(self) -> None:
        focus_places.cycle(self, 1)

    def action_focus_previous(self) -> None:
        focus_places.cycle(self, -1)

    async def _on_key(self, event: events.Key) -> None:
        # In place of Textual's own (the bindings; the app has no key_ methods), except that
        # a typed character no binding took lands in the composer or is refused with a
        # reason. Textual runs each class's handler: the default is prevented, or App's
        # would run the bindings a second time.
        event.prevent_default()
        if not await self._check_bindings(event.key):
            focus_places.stray_key(self, event)

    def action_leave_composer(self) -> None:
        """Escape: out of the composer, onto the newest row (so z, f, c act at once)."""
        panes = self.main_screen.panes
        if panes.active == "chief-tab" and not self.quiet:
            self.room.focus_latest_row()  # an empty room: the log's keys still work
        else:
            self.set_focus(None)

    def action_compose(self) -> None:
        panes = self.main_screen.panes
        if panes.active == "chief-tab" and self.quiet:
            # Quiet Mode: the Chief tab shows only its sentence and takes no text; the
            # tutor's input must not get it either (it would pull the tutor tab forward).
            self.set_focus(None)
        elif panes.active == "chief-tab":
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

    def action_help(self) -> None:
        """F1: every key and every place, from the key registry (remaps applied)."""
        from keeltui.help_text import help_sections
        from keeltui.panes.help_screen import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)  # F1 again closes it (this binding comes first)
        else:
            self.push_screen(HelpScreen(help_sections(self.config.keys)))

    def action_day(self) -> None:
        """Your day: the timeline, per-hour bars, episodes, focus sessions, apps (live)."""
        from keeltui.panes.day_view import DayScreen

        if isinstance(self.screen, DayScreen):
            return
        if self.quiet:
            # Window titles are not screen-safe.
            self.notify("Quiet Mode is on: your day stays hidden until it is turned off.", timeout=3)
            return
        if self.ambient is not None:
            self.ambient.open_day()

    def action_that_was_work(self) -> None:
        if self.ambient is not None:
            self.ambient.that_was_work()

    def on_day_screen_corrected(self, message) -> None:
        """"That was work" on an episode in the day view (keeltui.panes.day_view)."""
        if self.ambient is not None:
            self.ambient.correct(message.episode)

    def on_drift_banner_snooze_requested(self, message: DriftBanner.SnoozeRequested) -> None:
        self.action_snooze()

    def on_drift_banner_focus_requested(self, message: DriftBanner.FocusRequested) -> None:
        self.action_start_focus()

    def on_drift_banner_work_requested(self, message: DriftBanner.WorkRequested) -> None:
        self.action_that_was_work()

    # -- the room's conversation controls (decided in chief/controls.py) -----------------

    def _reply_settled(self, row) -> None:
        self._stop_reply = None
        self.reply_phase = REPLY_IDLE
        self.room.retry_ready = row is None or row.status in chief_controls.UNFINISHED

    @on(RoomControls.StopWanted)
    def action_stop_reply(self) -> None:
        if self.reply_phase != REPLY_IDLE and self._stop_reply is not None:
            self._stop_reply.set()

    @on(RoomControls.RetryWanted)
    async def action_chief_retry(self) -> None:
        await self._answer_again(only_unfinished=True)

    @on(RoomControls.RegenerateWanted)
    async def action_regenerate(self) -> None:
        await self._answer_again(only_unfinished=False)

    async def _answer_again(self, *, only_unfinished: bool) -> None:
        if self.quiet or self.reply_phase != REPLY_IDLE:
            self.bell()
            return
        if not self._save_unsaved_reply():
            return
        _, old_reply = self.chief.last_exchange()
        user_id = self.chief.prepare_again(only_unfinished=only_unfinished)
        if user_id is None:
            self.status_line.message = (
                "Nothing to retry: the last reply finished." if only_unfinished else "No reply to regenerate yet."
            )
            return
        if old_reply is not None:
            self.room.redraw_rows([self.store.message(old_reply.id)])
        self.status_line.message = ""
        self._start_reply(user_id)

    @on(RoomControls.EditWanted)
    def action_edit_last(self) -> None:
        user, reply = self.chief.last_exchange()
        if self.quiet or self.reply_phase != REPLY_IDLE or not chief_controls.can_edit(user, reply):
            self.bell()
            return
        field = self.room.composer.input
        # A second Ctrl+↑ keeps the draft the first one saved: Escape must give that back.
        draft = self._editing.draft if self._editing is not None else field.text
        self._set_editing(Edit(user.id, user.created_at, draft))
        field.load_text(user.content)
        field.move_cursor(field.document.end)  # ready to type on
        self.room.composer.focus_input()

    def _set_editing(self, edit: Edit | None) -> None:
        """The one place the edit state changes: the line above the composer follows it."""
        self._editing = edit
        self.room.edit_note = edit.note() if edit is not None else ""

    @on(RoomControls.EditCancelled)
    def _edit_cancelled(self) -> None:
        """Escape while editing: the draft the composer held comes back; nothing is sent."""
        edit = self._editing
        if edit is None:
            return
        self._set_editing(None)
        field = self.room.composer.input
        field.load_text(edit.draft)
        field.move_cursor(field.document.end)
        self.room.composer.focus_input()

    def _resend_edited(self, text: str) -> int | None:
        edit = self._editing
        self._set_editing(None)
        if edit is None:  # nothing is being edited: nothing to resend
            return None
        editing = edit.user_id
        _, old_reply = self.chief.last_exchange()
        user_id = self.chief.resend_edited(editing, text)
        if user_id is not None:
            stale = [editing] + ([old_reply.id] if old_reply is not None else [])
            self.room.redraw_rows([self.store.message(i) for i in stale])
            self.status_line.message = ""
        return user_id

    # -- the owner's editor and pager (keeltui/panes/editor_bridge.py) -------------------

    @on(Composer.EditorWanted)
    def _draft_in_editor(self, message: Composer.EditorWanted) -> None:
        from keeltui.panes.editor_bridge import edit_draft

        message.stop()
        if self.quiet and message.composer.id == "chief-composer":
            self.bell()  # Quiet Mode: the room's draft is not screen-safe
            return
        self._terminal_back(edit_draft(self, message.composer.input))

    def on_pager_wanted(self, message: PagerWanted) -> None:
        from keeltui.panes.editor_bridge import page_text

        message.stop()
        if self.quiet:
            self.bell()  # Quiet Mode: no room text on screen
            return
        self._terminal_back(page_text(self, message.row.text, f"keeltui-row-{message.row.row_id}.md"))

    def on_turn_landed(self, message: TurnLanded) -> None:
        message.stop()
        self._signal_landed(message.what, message.seconds)

    def _signal_landed(self, what: str, seconds: float) -> None:
        from keeltui.panes.landed_signal import signal_landed

        signal_landed(self, self.config.ui, self.quiet, what, seconds)

    def _terminal_back(self, problem: str) -> None:
        """The editor or pager ended: its failure in one line, or an older one of its lines cleared."""
        if problem:
            self.status_line.message = problem
        elif self.status_line.message.startswith(("editor:", "pager:")):
            self.status_line.message = self.database_problem

    async def action_search_room(self) -> None:
        if not self.quiet:
            await self.room.action_search()

    def on_search_bar_find(self, message: SearchBar.Find) -> None:
        from keeltui.panes.search_bar import SearchBar
        needle = message.needle.strip()
        bar = self.room.query_one(SearchBar)
        if not needle:
            return
        room_id = self.store.chief_id()
        at = self._search[1] if self._search and self._search[0] == needle else None
        if message.older:
            row = self.store.search(room_id, needle, before_id=at)
        else:
            row = self.store.search(room_id, needle, after_id=at) if at is not None else None
        if row is None:
            bar.status = "no match" if at is None else ("no older match" if message.older else "no newer match")
            self.bell()
            return
        self._search = (needle, row.id)
        bar.status = "counting…"
        # Counting scans the whole room: off the UI thread, so typing never waits; a
        # newer search cancels an older count (exclusive), and its late answer is dropped.
        self.run_worker(lambda: self._count_matches(room_id, needle, row.id), name="search-count",
                        group="search-count", exclusive=True, thread=True, exit_on_error=False)
        if not self.room.shows(row.id):
            # Not held: show the rows around the match (the rest is read as you scroll).
            half = PAGE_ROWS // 2
            newer = self.store.after(room_id, row.id, half + 1)
            self.room.show_rows(self.store.before(room_id, row.id, half) + [row] + newer[:half],
                                reaches_latest=len(newer) <= half)
        self.call_after_refresh(self.room.mark_match, row.id)

    class MatchesCounted(Message):
        """What the search bar says once the count of ``needle``'s matches is in."""

        def __init__(self, needle: str, row_id: int, status: str) -> None:
            super().__init__()
            self.needle, self.row_id, self.status = needle, row_id, status

    def _count_matches(self, room_id: int, needle: str, row_id: int) -> None:
        from textual.worker import get_current_worker

        try:
            position, total = self.store.count_matches(room_id, needle, from_id=row_id)
            status = f"{position} of {total} (newest first)"
        except StoreError as exc:
            status = f"cannot count the matches: {exc}"  # never "counting…" for ever
        if not get_current_worker().is_cancelled:
            self.post_message(self.MatchesCounted(needle, row_id, status))

    def on_keel_app_matches_counted(self, message: "KeelApp.MatchesCounted") -> None:
        from keeltui.panes.search_bar import SearchBar

        if not self.ui_alive or self._search != (message.needle, message.row_id):
            return  # the search moved on (or closed) while this was counted
        self.room.query_one(SearchBar).status = message.status

    def on_search_bar_closed(self, message: SearchBar.Closed) -> None:
        from keeltui.panes.search_bar import SearchBar
        self._search = None
        self.room.query_one(SearchBar).close()
        self.room.mark_match(None)
        self.room.composer.focus_input()

    # -- the model per role and the Chief's persona (services/model_choice.py, services/persona.py) --

    class ModelsListed(Message):
        """What the endpoint's /v1/models listed (or why nothing): the picker opens with it."""

        def __init__(self, listed: list[str], problem: str | None) -> None:
            super().__init__()
            self.listed, self.problem = listed, problem

    def action_models(self) -> None:
        """The model picker: listed off the UI thread first, then shown."""
        self.run_worker(self._list_models(), name="list-models", group="models", exclusive=True, exit_on_error=False)

    async def _list_models(self) -> None:
        listed, problem = await self.services.models.available()
        self.post_message(self.ModelsListed(listed, problem))

    def on_keel_app_models_listed(self, message: "KeelApp.ModelsListed") -> None:
        from keeltui.panes.model_picker import ModelPicker

        if not self.ui_alive or isinstance(self.screen, ModelPicker):
            return
        picker = ModelPicker(self.services.models.current(), message.listed, message.problem, self.config.brain.base_url)
        self.push_screen(picker, self._model_chosen)

    def _model_chosen(self, choice: tuple[str, str] | None) -> None:
        from keeltui.services.model_choice import ChoiceError

        if choice is None:
            return
        try:
            self.notify(self.services.models.choose(*choice), timeout=4)
        except ChoiceError as exc:
            self.status_line.message = str(exc)
        self.status_line.model = self.config.brain.model_for("chief")

    def on_settings_screen_open_wanted(self, message) -> None:
        """The settings dialog's Models… and Persona… buttons."""
        if message.what == "models":
            self.action_models()
        elif message.what == "persona":
            self.action_persona()

    def action_persona(self) -> None:
        from keeltui.panes.persona_editor import PersonaEditor

        if isinstance(self.screen, PersonaEditor):
            return
        if self.quiet:
            self.notify("Quiet Mode is on: the Chief's persona stays hidden until it is turned off.", timeout=3)
            return
        self.push_screen(PersonaEditor(self.services.persona.text), self._persona_chosen)

    def _persona_chosen(self, text: str | None) -> None:
        from keeltui.services.model_choice import ChoiceError

        if text is None:
            return
        with self._store_guarded():  # saved and applied, but the room's line could not be written: said
            try:
                line = self.services.persona.change(text)
            except ChoiceError as exc:
                self.status_line.message = str(exc)
                return
            if line:
                self.notify(line, timeout=4)
                self.refresh_room()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Stop the reply", "Stop the Chief's reply on its way (Escape); its text is kept",
                            self.action_stop_reply)
        yield SystemCommand("Retry", "Ask the Chief again after a failed, cut or stopped reply (F5)",
                            self.action_chief_retry)
        yield SystemCommand("Regenerate", "Ask for the last reply again; the old one is kept, folded (Ctrl+R)",
                            self.action_regenerate)
        yield SystemCommand("Edit last message", "Change and resend your last message (Ctrl+↑)", self.action_edit_last)
        yield SystemCommand("Search the room", "Find text anywhere in the Chief room (Ctrl+F)", self.action_search_room)
        yield SystemCommand("Quiet Mode", "Toggle Quiet Mode (hide the Chief room)", self.action_toggle_quiet)
        yield SystemCommand("Chief / Tutor", "Switch between the Chief room and the tutor", self.action_switch_pane)
        yield SystemCommand("Snooze drift coaching", "Snooze the ambient sentinel for an hour", self.action_snooze)
        yield SystemCommand("Start focus", "Declare a focus session", self.action_start_focus)
        yield SystemCommand("Stop focus", "End the running focus session (reported in the room)", self.action_stop_focus)
        yield SystemCommand("Settings", "Ambient mode and cadence", self.action_settings)
        yield SystemCommand("Models", "Choose the model per role (chat, judge, tutor) from the endpoint's list",
                            self.action_models)
        yield SystemCommand("Persona", "See and edit the Chief's system prompt", self.action_persona)
        yield SystemCommand("Your day", "Time on task, drifting and away today (F3)", self.action_day)
        yield SystemCommand("That was work", "The drift on screen was not drift: tell the judge (F10)", self.action_that_was_work)
        yield SystemCommand("Keys", "Every key and where it works (F1)", self.action_help)
        if self.tutor is not None:
            yield SystemCommand("Tutor summary", "The open tutor session: mastered, to review", self.tutor.action_summary)

    def _fatal_error(self) -> None:
        """An unexpected error ends the app with one line: Textual's own traceback
        shows local variables, which hold the owner's text."""
        import sys

        from rich.text import Text

        from keeltui.crash import crash_line

        self.bell()
        self._exit_renderables.append(Text(crash_line(sys.exc_info()[1] or self._exception)))
        self._close_messages_no_wait()

    async def on_unmount(self) -> None:
        try:
            await self.brain.aclose()
        except Exception:  # closing must never turn an exit into a traceback
            pass


def run_app(config: Config, store: Store) -> int:
    from keeltui.terminal.keyinput import install as install_alt_enter

    install_alt_enter()  # Alt+Enter from tmux/SSH (ESC CR) is a new line, never a send
    from keeltui.logfile import install_log_file, log_path

    install_log_file(log_path(config))  # warnings go to a 0600 file, never onto the screen
    app = KeelApp(config, store, services=wire(config, store))
    app.run()
    return app.return_code or 0


__all__ = ["KeelApp", "run_app"]
