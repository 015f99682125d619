"""The ambient controller: evidence, the sentinel and focus mode, wired into the app.

A non-visual widget the app mounts. It owns the moving parts and posts what the
app should show as one :class:`~keeltui.messages.AmbientChanged` message (line,
focus text, judge, snooze, mode, away), which the app turns into the status line,
the banner and the status file. It never writes the app's attributes.

Threads and tasks, and why:

* the evidence source is polled in a **thread** worker (a source may block on an
  X server or a shell command); each new window is posted as :class:`WindowSeen`,
  and leaving or coming back to the keyboard as :class:`AwayChanged`;
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
from keeltui.messages import AmbientChanged, JudgeFailed, StoreWritten
from keeltui.adapters.evidence import NoneSource, make_source, poll_source
from keeltui.ambient.settings_order import ENVIRONMENT, FILE, LIVE, Setting, resolve
from keeltui.ambient.window import WindowSnapshot, is_away
from keeltui.durations import format_duration as span
from keeltui.ambient.focus import FocusCoach, FocusSession, focus_status_text, is_over
from keeltui.ambient.frame import load_frame
from keeltui.ambient.judges import (
    LocalJudge, build_ambient_messages, build_focus_messages, drift_message,
)
from keeltui.adapters.notifier import Notifier, make_notifier
from keeltui.adapters.tasks import make_task_provider
from keeltui.panes.modals import FocusPrompt, SettingsScreen
from keeltui.sentinel import Sentinel

log = logging.getLogger("keeltui.panes.ambient_controller")

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
        """The sentinel's line (or snooze, or judge) changed."""

    class AwayChanged(Message):
        """The owner left the keyboard, or came back (from the evidence's idle time)."""

        def __init__(self, away: bool) -> None:
            super().__init__()
            self.away = away

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
        # Attributes down: the app sets these (it owns Quiet Mode and the brain checks).
        self.brain_online: bool | None = None
        self.quiet = False
        self._brain_seen: bool | None = None  # brain_online when last followed
        self._told_failure = False
        self._published: tuple | None = None
        self._focus_text = ""
        self.sentinel = Sentinel(
            clock=clock,
            judge=self._brain_judge,
            judge_name="brain",
            frame=self._frame,
            notifier=notifier if notifier is not None else _LazyNotifier(),
            record_event=store.add_event,
            focus_active=lambda: state.current_session(store) is not None,
            quiet_active=lambda: bool(self.quiet),
            mode=config.ambient.mode,
            cadence_secs=config.ambient.cadence_secs,
            judge_timeout=config.ambient.judge_timeout_secs,
            fallback=self._local.ajudge,
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
        self.sentinel.add_on_change(self._judge_may_have_failed)
        self._started = True
        self.sync_from_store()  # stored settings override the config from the start
        self._follow_brain()
        self.run_worker(self._poll_evidence, thread=True, name="evidence", group="ambient-evidence", exit_on_error=False)
        self.run_worker(self.sentinel.run(self._stop), name="sentinel", group="ambient", exit_on_error=False)
        self.set_interval(TICK_SECS, self._each_second)

    def on_unmount(self) -> None:
        self._halt.set()
        self._stop.set()
        self.sentinel.close()  # the episode or away period in progress is stored

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
        away = False
        while not (self._halt.is_set() or worker.is_cancelled):
            snapshot = poll_source(source, evidence.exclude_titles)
            now_away = is_away(snapshot, self.config.ambient.away_after_secs)
            if now_away != away:
                away = now_away
                self.post_message(self.AwayChanged(away))
            if snapshot is not None and (snapshot.wm_class, snapshot.title) != last:
                last = (snapshot.wm_class, snapshot.title)
                self.post_message(self.WindowSeen(snapshot))
            self._halt.wait(evidence.poll_secs)

    def on_ambient_controller_window_seen(self, message: WindowSeen) -> None:
        self.sentinel.on_window(message.snapshot)
        self.coach.on_window(message.snapshot)
        self._show_focus()

    def on_ambient_controller_away_changed(self, message: AwayChanged) -> None:
        self.sentinel.set_away(message.away)
        self._publish()

    # ------------------------------------------------------------ judges

    def _frame(self) -> str:
        """The brief; called by the sentinel in a thread (it may run a task command)."""
        frame = self.config.frame
        return load_frame(frame.dir or None, frame.goals_file, self._tasks, frame.max_chars)

    async def _brain_judge(self, frame: str, titles: list[str]) -> str:
        verdict, _ = await self.brain.judge("judge", build_ambient_messages(frame, titles))
        return drift_message(verdict)

    async def _focus_judge(self, commitment: str, titles: list[str]) -> str:
        if self.sentinel.judge_name != "brain":
            # Without a brain, the commitment is the whole frame the local judge gets.
            return self._local.judge(commitment, titles)
        verdict, _ = await self.brain.judge("judge", build_focus_messages(commitment, titles))
        return drift_message(verdict)

    def _follow_brain(self) -> None:
        """Follow the app's news about the brain: offline → local judge, back → brain.

        Only changes count: the sentinel may have fallen back by itself in between
        (see :meth:`_judge_may_have_failed`), and only the brain's next answer
        brings it back.
        """
        known = self.brain_online
        if known != self._brain_seen:
            self._brain_seen = known
            if known is False:
                self.sentinel.set_judge(self._local.ajudge, "local", "brain unreachable")
            elif self.sentinel.judge_name != "brain":
                self.sentinel.set_judge(self._brain_judge, "brain")
        self._publish()

    def _judge_may_have_failed(self) -> None:
        """The sentinel fell back to the local judge by itself: tell the app (it re-probes)."""
        if self.sentinel.judge_problem and not self._told_failure:
            self._told_failure = True
            self.post_message(JudgeFailed(self.sentinel.last_error or "no answer"))
        elif not self.sentinel.judge_problem:
            self._told_failure = False

    # ------------------------------------------------------------ surfaces

    def on_ambient_controller_line_changed(self, message: LineChanged) -> None:
        self._publish()

    def _show_focus(self) -> None:
        session = self.coach.session
        self._focus_text = focus_status_text(session, self.clock(), self.coach.line) if session else ""
        self._publish()

    def _publish(self) -> None:
        """Post what the app shows, when it changed (messages up, never its attributes)."""
        s = self.sentinel
        values = (s.line, self._focus_text, s.judge_label, s.snooze_until if s.snoozed else 0.0, s.mode, s.away)
        if values != self._published:
            self._published = values
            line, focus_text, judge, snoozed_until, mode, away = values
            self.post_message(AmbientChanged(line, focus_text, judge, snoozed_until=snoozed_until, mode=mode, away=away))

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
        if private is not None and self.quiet:
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
        """Apply the settings in their one order (keeltui.ambient.settings_order):
        defaults < file < live (stored) < environment; an unusable stored value is skipped."""
        stored = (self.store.get_state(state.SETTINGS_MODE_KEY), self.store.get_state(state.SETTINGS_CADENCE_KEY))
        if stored == self._settings_seen:
            return  # set_config wakes the run loop: only call it on a real change
        self._settings_seen = stored
        mode, cadence, problem = self._resolved_settings()
        if problem:
            log.warning("ignoring stored settings: %s", problem)
            self._tell(f"Ignoring stored settings: {problem}", severity="warning")
        self.sentinel.set_config(mode.value, cadence.value)

    def _resolved_settings(self) -> tuple[Setting, Setting, str]:
        ambient = self.config.ambient
        layers = self.config.setting_layers or {
            "mode": {FILE: ambient.mode}, "cadence_secs": {FILE: ambient.cadence_secs},
        }
        live_mode, live_cadence, problem = state.stored_settings(self.store)
        mode = resolve("mode", {**layers["mode"], LIVE: live_mode})
        cadence = resolve("cadence_secs", {**layers["cadence_secs"], LIVE: live_cadence})
        return mode, cadence, problem

    # ------------------------------------------------------------ actions

    def snooze_from_ui(self) -> None:
        """Snooze 1h: the same stored state ``keeltui snooze`` writes."""
        until = self.clock() + self.config.ambient.snooze_secs
        try:
            self.store.set_state(state.SNOOZE_KEY, until)
        except Exception as exc:  # noqa: BLE001 - a locked disk must not end the app
            self._tell(f"Could not snooze: {exc}", severity="error")
            return
        self.sentinel.snooze(until)
        self._tell(f"Drift coaching snoozed for {span(self.config.ambient.snooze_secs)} (keeltui snooze off lifts it).")

    def start_focus_from_ui(self) -> None:
        """Open the focus prompt, prefilled with today's first task; refuse while one runs."""
        refusal = state.busy_refusal(self.store, self.clock())
        if refusal:
            self._tell(f"{refusal} — F8 (or keeltui focus stop) ends it.", private="A focus session is already running.",
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
        self.post_message(StoreWritten())  # a timed-out session may just have been reported
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
            self.post_message(StoreWritten())
            self._tell(text, private="Focus session ended.")

    def open_settings(self) -> None:
        """The settings modal; a valid result applies live and is stored."""
        if isinstance(self.app.screen, (FocusPrompt, SettingsScreen)):
            return
        mode, cadence, _ = self._resolved_settings()
        origins = [mode.describe(), cadence.describe()]
        screen = SettingsScreen(self.sentinel.mode, self.sentinel.cadence_secs, origins=origins)
        self.app.push_screen(screen, self._settings_chosen)

    def _settings_chosen(self, values: tuple[str, int] | str | None) -> None:
        if values is None:
            return
        if values == SettingsScreen.RESET:
            try:
                state.forget_settings(self.store)
            except Exception as exc:  # noqa: BLE001 - a locked disk must not end the app
                self._tell(f"Could not forget the live settings: {exc}", severity="error")
                return
            self._settings_seen = None
            self._sync_settings()
            self._tell(f"Back to the file's values: mode {self.sentinel.mode}, every {self.sentinel.cadence_secs:g}s.")
            return
        if isinstance(values, str):  # RESET is the only string the screen gives
            return
        mode, cadence = values
        try:
            state.save_settings(self.store, mode, cadence)
        except Exception as exc:  # noqa: BLE001 - applied now, just not remembered
            self.sentinel.set_config(mode, cadence)
            self._tell(f"Applied, but could not store the settings: {exc}", severity="warning")
            return
        self._settings_seen = None
        self._sync_settings()  # the one order decides; the environment may still win
        if (self.sentinel.mode, self.sentinel.cadence_secs) != (mode, cadence):
            pinned = [s.describe() for s in self._resolved_settings()[:2] if s.source == ENVIRONMENT]
            self._tell(f"Stored, but the environment wins while it is set: {'; '.join(pinned)}.",
                       severity="warning")
            return
        self._tell(f"Ambient mode {mode}, a judgement every {cadence}s.")
