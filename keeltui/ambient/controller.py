"""The ambient controller: evidence, the sentinel and focus mode, wired into the app.

A non-visual widget the app mounts. It owns the moving parts and hands the app
three plain values -- ``ambient_line``, ``focus_text``, ``judge_name`` -- which the
app already turns into the status line, the banner and the status file.

Threads and tasks, and why:

* the evidence source is polled in a **thread** worker (a source may block on an
  X server or a shell command); each new window is posted as :class:`WindowSeen`;
* the sentinel's ``run`` loop is an **async** worker; it reports line changes
  through its on-change callback, which posts :class:`LineChanged`;
* focus judgements are short async workers, one at a time;
* a 1 s timer refreshes the focus text (time left), ends a timed session, and
  follows the brain going away or coming back (brain judge ↔ local judge).

The store is the single source of truth: snooze, the focus session and the live
settings are written there first, and :meth:`sync_from_store` (called by the app
whenever another process commits) follows them.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable

from textual.message import Message
from textual.notifications import SeverityLevel
from textual.widget import Widget
from textual.worker import get_current_worker

from keeltui import ambient_state as state
from keeltui.ambient.evidence import NoneSource, WindowSnapshot, make_source, poll_source
from keeltui.ambient.focus import FocusCoach, FocusSession, focus_status_text, is_over
from keeltui.ambient.frame import load_frame
from keeltui.ambient.judges import (
    LocalJudge, build_ambient_messages, build_focus_messages, drift_message,
)
from keeltui.ambient.notifier import Notifier, make_notifier
from keeltui.ambient.tasks import make_task_provider
from keeltui.panes.modals import FocusPrompt, SettingsScreen
from keeltui.sentinel import Sentinel

log = logging.getLogger("keeltui.ambient.controller")

SNOOZE_SECS = 3600
TICK_SECS = 1.0


class _LazyNotifier:
    """Build the real notifier on the first toast, which the sentinel sends from a
    thread: probing D-Bus or PATH then never costs the UI thread anything."""

    name = "lazy"

    def __init__(self) -> None:
        self._real: Notifier | None = None
        self._lock = threading.Lock()

    def notify(self, title: str, body: str) -> None:
        with self._lock:
            if self._real is None:
                self._real = make_notifier()
        self._real.notify(title, body)


def _same(a: FocusSession | None, b: FocusSession | None) -> bool:
    """Two stored sessions are the same session (drift counts may differ)."""
    if a is None or b is None:
        return a is b
    return (a.commitment, a.started_at) == (b.commitment, b.started_at)


class AmbientController(Widget):
    """See the module docstring. The app calls the public methods from its actions."""

    DEFAULT_CSS = "AmbientController { display: none; }"

    class WindowSeen(Message):
        """The poll thread saw a (new) active window."""

        def __init__(self, snapshot: WindowSnapshot) -> None:
            super().__init__()
            self.snapshot = snapshot

    class LineChanged(Message):
        """The sentinel's line (or snooze) changed."""

    class FocusJudged(Message):
        """A focus judgement finished; the focus text may change."""

    class PrefillReady(Message):
        """Today's first task was read (off the UI thread) for the focus prompt."""

        def __init__(self, commitment: str) -> None:
            super().__init__()
            self.commitment = commitment

    def __init__(
        self,
        config,
        store,
        brain,
        *,
        notifier: Notifier | None = None,
        clock: Callable[[], float] = time.time,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.config = config
        self.store = store
        self.brain = brain
        self.clock = clock
        self._tasks = make_task_provider(config.tasks.provider, config.tasks.source)
        self._local = LocalJudge(config.ambient.time_sinks)
        self._using_brain = True
        self.sentinel = Sentinel(
            clock=clock,
            judge=self._brain_judge,
            judge_name="brain",
            frame=self._frame,
            notifier=notifier if notifier is not None else _LazyNotifier(),
            record_event=store.add_event,
            focus_active=lambda: state.current_session(store) is not None,
            quiet_active=lambda: bool(self.app.quiet),
            mode=config.ambient.mode,
            cadence_secs=config.ambient.cadence_secs,
            judge_timeout=config.ambient.judge_timeout_secs,
        )
        self.coach = FocusCoach(
            clock, self._focus_judge,
            grace_secs=config.focus.grace_secs,
            nudge_debounce_secs=config.focus.nudge_debounce_secs,
            judge_timeout=config.ambient.judge_timeout_secs,
        )
        self._stop = asyncio.Event()  # ends the sentinel's run loop
        self._halt = threading.Event()  # ends the poll thread
        self._settings_seen: tuple | None = None  # the stored settings last applied
        self._focus_judging = False
        self._started = False

    # ------------------------------------------------------------ life cycle

    def on_mount(self) -> None:
        self.sentinel.add_on_change(lambda: self.post_message(self.LineChanged()))
        self._started = True
        self.sync_from_store()  # stored settings override the config from the start
        self._follow_brain()
        self.run_worker(self._poll_evidence, thread=True, name="evidence", group="ambient-evidence", exit_on_error=False)
        self.run_worker(self.sentinel.run(self._stop), name="sentinel", group="ambient", exit_on_error=False)
        self.set_interval(TICK_SECS, self._each_second)

    def on_unmount(self) -> None:
        self._halt.set()
        self._stop.set()

    # ------------------------------------------------------------ evidence (thread)

    def _poll_evidence(self) -> None:
        """Read the active window every ``poll_secs``; post only when it changes."""
        evidence = self.config.evidence
        try:
            # Built here, not in __init__: ``auto`` may probe X or tmux, which can block.
            source = make_source(evidence.source, evidence.command)
        except ValueError as exc:
            log.warning("evidence: %s", exc)
            return
        if isinstance(source, NoneSource):
            return  # nothing will ever be read; the sentinel stays silent
        worker = get_current_worker()
        last = None
        while not (self._halt.is_set() or worker.is_cancelled):
            snapshot = poll_source(source, evidence.exclude_titles)
            if snapshot is not None and (snapshot.wm_class, snapshot.title) != last:
                last = (snapshot.wm_class, snapshot.title)
                self.post_message(self.WindowSeen(snapshot))
            self._halt.wait(evidence.poll_secs)

    def on_ambient_controller_window_seen(self, message: WindowSeen) -> None:
        self.sentinel.on_window(message.snapshot)
        self.coach.on_window(message.snapshot)
        self._show_focus()

    # ------------------------------------------------------------ judges

    def _frame(self) -> str:
        """The brief; called by the sentinel in a thread (it may run a task command)."""
        frame = self.config.frame
        return load_frame(frame.dir or None, frame.goals_file, self._tasks, frame.max_chars)

    async def _brain_judge(self, frame: str, titles: list[str]) -> str:
        verdict, _ = await self.brain.judge("judge", build_ambient_messages(frame, titles))
        return drift_message(verdict)

    async def _focus_judge(self, commitment: str, titles: list[str]) -> str:
        if not self._using_brain:
            # Without a brain, the commitment is the whole frame the local judge gets.
            return self._local.judge(commitment, titles)
        verdict, _ = await self.brain.judge("judge", build_focus_messages(commitment, titles))
        return drift_message(verdict)

    def _follow_brain(self) -> None:
        """Use the brain judge unless the app knows the brain is offline."""
        online = self.app.brain_online is not False
        if online != self._using_brain:
            self._using_brain = online
            if online:
                self.sentinel.set_judge(self._brain_judge, "brain")
            else:
                self.sentinel.set_judge(self._local.ajudge, "local")
        self.app.judge_name = self.sentinel.judge_name

    # ------------------------------------------------------------ surfaces

    def on_ambient_controller_line_changed(self, message: LineChanged) -> None:
        self.app.ambient_line = self.sentinel.line

    def _show_focus(self) -> None:
        session = self.coach.session
        self.app.focus_text = focus_status_text(session, self.clock(), self.coach.line) if session else ""

    def _each_second(self) -> None:
        self._follow_brain()
        session = self.coach.session
        if session is None:
            return
        now = self.clock()
        if is_over(session, now):
            self._end_focus(now)
            return
        self._show_focus()
        if self.coach.off_task_since is not None and not self._focus_judging:
            self._focus_judging = True
            self.run_worker(self._focus_tick(), name="focus-judge", group="focus", exit_on_error=False)

    async def _focus_tick(self) -> None:
        """Let the coach judge (it decides whether grace and debounce allow it)."""
        try:
            session = self.coach.session
            drifts = session.drifts if session else 0
            await self.coach.tick()
            if session is not None and session is self.coach.session and session.drifts != drifts:
                state.update_focus(self.store, drifts=session.drifts, last_nudge_at=session.last_nudge_at)
        finally:
            self._focus_judging = False
        self.post_message(self.FocusJudged())

    def on_ambient_controller_focus_judged(self, message: FocusJudged) -> None:
        self._show_focus()

    def _tell(self, text: str, *, private: str | None = None, severity: SeverityLevel = "information") -> None:
        """A toast in the app; in Quiet Mode the ``private`` (screen-safe) wording."""
        if private is not None and self.app.quiet:
            text = private
        self.app.notify(text, severity=severity, timeout=4)

    # ------------------------------------------------------------ the store

    def sync_from_store(self) -> None:
        """Follow what any process wrote: snooze, focus session, live settings."""
        if not self._started:
            return
        self._sync_snooze()
        self._sync_focus()
        self._sync_settings()

    def _sync_snooze(self) -> None:
        until = self.store.get_state(state.SNOOZE_KEY)
        valid = isinstance(until, (int, float)) and not isinstance(until, bool)
        self.sentinel.snooze(float(until) if valid else 0.0)  # idempotent; 0 lifts it

    def _sync_focus(self) -> None:
        session = state.current_session(self.store)
        live = self.coach.session
        if session is not None and live is not None and _same(session, live):
            # Same session: keep the live object (a judgement in flight is tied to
            # it by identity) and take any drift another process counted.
            live.drifts = max(live.drifts, session.drifts)
            self._show_focus()
            return
        started = session is not None
        self.coach.sync(session)
        if started and self.sentinel.last_window is not None:
            # The poll thread posts only changes: hand the new session the window
            # already on screen, or an off-task start would go unnoticed.
            self.coach.on_window(self.sentinel.last_window)
        self._show_focus()
        if started:
            # Clear the drift line now rather than at the next cadence tick: one
            # evaluation with focus active ends the episode and calls no judge.
            self.run_worker(self.sentinel.evaluate(), name="sentinel-focus", group="ambient-eval", exit_on_error=False)

    def _sync_settings(self) -> None:
        """Stored settings win over the config; an unusable stored value falls back to it."""
        stored = (self.store.get_state(state.SETTINGS_MODE_KEY), self.store.get_state(state.SETTINGS_CADENCE_KEY))
        if stored == self._settings_seen:
            return  # set_config wakes the run loop: only call it on a real change
        self._settings_seen = stored
        ambient = self.config.ambient
        mode, cadence, problem = state.load_settings(self.store, ambient.mode, ambient.cadence_secs)
        if problem:
            log.warning("ignoring stored settings: %s", problem)
            self._tell(f"Ignoring stored settings: {problem}", severity="warning")
        self.sentinel.set_config(mode, cadence)

    # ------------------------------------------------------------ actions

    def snooze_from_ui(self) -> None:
        """Snooze 1h: the same stored state ``keeltui snooze`` writes."""
        until = self.clock() + SNOOZE_SECS
        try:
            self.store.set_state(state.SNOOZE_KEY, until)
        except Exception as exc:  # noqa: BLE001 - a locked disk must not end the app
            self._tell(f"Could not snooze: {exc}", severity="error")
            return
        self.sentinel.snooze(until)
        self._tell("Drift coaching snoozed for 1h (keeltui snooze off lifts it).")

    def start_focus_from_ui(self) -> None:
        """Open the focus prompt, prefilled with today's first task; refuse while one runs."""
        refusal = state.busy_refusal(self.store, self.clock())
        if refusal:
            self._tell(f"{refusal} — F (or keeltui focus stop) ends it.", private="A focus session is already running.",
                       severity="warning")
            return
        if isinstance(self.app.screen, (FocusPrompt, SettingsScreen)):
            return
        # The task provider may run a command: read it off the UI thread.
        self.run_worker(self._first_task, thread=True, name="focus-prefill", group="focus-prefill",
                        exclusive=True, exit_on_error=False)

    def _first_task(self) -> None:
        try:
            tasks = [t for t in self._tasks.today() if t.strip()]
        except Exception as exc:  # noqa: BLE001 - no prefill is fine
            log.warning("focus: task provider failed: %s", exc)
            tasks = []
        self.post_message(self.PrefillReady(tasks[0] if tasks else ""))

    def on_ambient_controller_prefill_ready(self, message: PrefillReady) -> None:
        if isinstance(self.app.screen, (FocusPrompt, SettingsScreen)):
            return
        prompt = FocusPrompt(message.commitment, self.config.focus.default_minutes or None)
        self.app.push_screen(prompt, self._focus_chosen)

    def _focus_chosen(self, result: tuple[str, float | None] | None) -> None:
        if result is None:
            return
        commitment, minutes = result
        try:
            state.start_focus(self.store, commitment, minutes, self.clock())
        except state.FocusBusy as exc:
            self._tell(str(exc), private="A focus session is already running.", severity="warning")
            return
        except ValueError as exc:
            self._tell(f"Focus not started: {exc}", severity="warning")
            return
        self.app.refresh_room()  # a timed-out session may just have been reported
        self._sync_focus()
        self._tell(f'Focus started: "{commitment}".', private="Focus started.")

    def stop_focus_from_ui(self) -> None:
        """End the running session now (the F key, the palette, or `keeltui focus stop`)."""
        if self.coach.session is None and state.current_session(self.store) is None:
            self._tell("No focus session is running.")
            return
        self._end_focus(self.clock())

    def _end_focus(self, now: float) -> None:
        """Stop the stored session and report it as a ``task`` line in the Chief room."""
        try:
            text = state.stop_focus(self.store, now)
        except Exception as exc:  # noqa: BLE001 - retried by the next second's tick
            log.warning("focus: could not stop the session: %s", exc)
            return
        self.coach.sync(None)
        self._show_focus()
        if text:
            self.app.refresh_room()
            self._tell(text, private="Focus session ended.")

    def open_settings(self) -> None:
        """The settings modal; a valid result applies live and is stored."""
        if isinstance(self.app.screen, (FocusPrompt, SettingsScreen)):
            return
        screen = SettingsScreen(self.sentinel.mode, self.sentinel.cadence_secs)
        self.app.push_screen(screen, self._settings_chosen)

    def _settings_chosen(self, values: tuple[str, int] | None) -> None:
        if values is None:
            return
        mode, cadence = values
        self.sentinel.set_config(mode, cadence)
        try:
            state.save_settings(self.store, mode, cadence)
        except Exception as exc:  # noqa: BLE001 - applied now, just not remembered
            self._tell(f"Applied, but could not store the settings: {exc}", severity="warning")
            return
        self._settings_seen = (mode, cadence)
        self._tell(f"Ambient mode {mode}, a judgement every {cadence}s.")
