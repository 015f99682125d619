"""The ambient controller: the ambient service's threads and loops, in the app.

A non-visual widget the app mounts. It receives the
:class:`~keeltui.services.ambient.AmbientService` (built by the composition root,
which owns the sentinel, the focus coach, the judges, the frame and the task
provider), runs its loops as workers, and posts what the app should show as one
:class:`~keeltui.panes.common.events.AmbientChanged` message (line, focus text, judge,
snooze, mode, away), which the app turns into the status line, the banner and
the status file. It never writes the app's attributes.

Threads and tasks, and why:

* the evidence source is polled in a **thread** worker (a source may block on an
  X server or a shell command); each new window is posted as :class:`WindowSeen`,
  and leaving or coming back to the keyboard as :class:`AwayChanged`; the evidence
  ticks (the day's proof of watching) are stored from there, after each read;
* the sentinel's ``run`` loop is an **async** worker; it reports line changes
  through its on-change callback, which posts :class:`LineChanged`;
* focus judgements are short async workers, one at a time;
* a one-shot timer, set only while something changes with time alone (a focus
  session's time left and end, a snooze's end: keeltui/ambient/wake.py), looks again;
  nothing else needs the clock, so an untouched app does not wake for it. The brain going
  away or coming back (brain judge ↔ local judge) is followed when the app sets
  :attr:`brain_online` (the service's setter).

The store is the single source of truth: snooze, the focus session and the live
settings are written there first, and :meth:`sync_from_store` (called by the app
whenever another process commits) follows them.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time

from textual.message import Message
from textual.notifications import SeverityLevel
from textual.timer import Timer
from textual.widget import Widget
from textual.worker import get_current_worker

from keeltui.services import ambient_state as state
from keeltui.ambient.focus import focus_status_text, is_over
from keeltui.ambient.settings_order import ENVIRONMENT
from keeltui.ambient.wake import next_look
from keeltui.ambient.window import WindowSnapshot
from keeltui.text.durations import format_duration as span
from keeltui.panes.common.events import AmbientChanged, JudgeFailed, StoreWritten
from keeltui.panes.ambient.modals import FocusPrompt, SettingsScreen
from keeltui.services.ambient import AmbientService

log = logging.getLogger("keeltui.panes.ambient.controller")


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
        """The owner left the keyboard (``since`` the last input), or came back."""

        def __init__(self, away: bool, since: float | None = None) -> None:
            super().__init__()
            self.away = away
            self.since = since

    class NoEvidence(Message):
        """No evidence source answers (no DISPLAY, no tmux, no command): nothing will be read."""

    class FocusJudged(Message):
        """A focus judgement finished; the focus text may change."""

    class PrefillReady(Message):
        """Today's first task was read (off the UI thread) for the focus prompt."""

        def __init__(self, commitment: str) -> None:
            super().__init__()
            self.commitment = commitment

    def __init__(self, service: AmbientService, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.service = service
        self.config = service.config
        self.clock = service.clock
        self._sentinel = service.sentinel
        self._coach = service.coach
        self._told_failure = 0  # the sentinel's fallbacks already told to the app
        self._published: tuple | None = None
        self._focus_text = ""
        self._stop = asyncio.Event()  # ends the sentinel's run loop
        self._halt = threading.Event()  # ends the poll thread
        self._focus_judging = False
        self._look_timer: Timer | None = None
        self._look_due: float | None = None  # time.monotonic() of the pending look
        self._started = False
        self._no_evidence = False

    # Attributes down: the app sets these (it owns Quiet Mode and the brain checks);
    # they are the service's values.

    @property
    def quiet(self) -> bool:
        return self.service.quiet

    @quiet.setter
    def quiet(self, quiet: bool) -> None:
        self.service.quiet = quiet

    @property
    def brain_online(self) -> bool | None:
        return self.service.brain_online

    @brain_online.setter
    def brain_online(self, online: bool | None) -> None:
        self.service.brain_online = online  # the service follows it (brain judge ↔ local)

    # ------------------------------------------------------------ life cycle

    def on_mount(self) -> None:
        self._sentinel.add_on_change(lambda: self.post_message(self.LineChanged()))
        self._sentinel.add_on_change(self._judge_may_have_failed)
        self._started = True
        # Known without probing anything; "auto" finds out in the poll thread (NoEvidence).
        self._no_evidence = self.config.evidence.source.strip().lower() == "none"
        self.sync_from_store()  # stored settings override the config from the start
        self.service.follow_brain()
        self._publish()
        self.run_worker(self._poll_evidence, thread=True, name="evidence", group="ambient-evidence", exit_on_error=False)
        self.run_worker(self._sentinel.run(self._stop), name="sentinel", group="ambient", exit_on_error=False)

    def on_unmount(self) -> None:
        self._halt.set()
        self._stop.set()
        self.service.close()  # the episode or away period in progress is stored

    # ------------------------------------------------------------ evidence (thread)

    def _poll_evidence(self) -> None:
        """Read the active window every ``poll_secs``; post only when it changes."""
        source = self.service.open_source()
        if source is None:
            self.post_message(self.NoEvidence())  # the status line says so, not "idle"
            return  # nothing will ever be read; the sentinel stays silent
        worker = get_current_worker()
        last = None
        away = False
        while not (self._halt.is_set() or worker.is_cancelled):
            snapshot, away_since = self.service.read(source)
            self.service.evidence.tick()  # the day's proof that keeltui was watching
            if (away_since is not None) != away:
                away = away_since is not None
                self.post_message(self.AwayChanged(away, away_since))
            if snapshot is not None and (snapshot.wm_class, snapshot.title) != last:
                last = (snapshot.wm_class, snapshot.title)
                self.post_message(self.WindowSeen(snapshot))
            self._halt.wait(self.config.evidence.poll_secs)

    def on_ambient_controller_window_seen(self, message: WindowSeen) -> None:
        self._sentinel.on_window(message.snapshot)
        self._coach.on_window(message.snapshot)
        self.service.record_focus_episodes()  # back on task ends a focus drift
        self._show_focus()

    def on_ambient_controller_no_evidence(self, message: NoEvidence) -> None:
        self._no_evidence = True
        self._publish()

    def on_ambient_controller_away_changed(self, message: AwayChanged) -> None:
        self._sentinel.set_away(message.away, message.since)
        self._publish()

    # ------------------------------------------------------------ judges

    def _judge_may_have_failed(self) -> None:
        """The sentinel fell back to the local judge by itself: tell the app (it re-probes)."""
        # Bad answers are no failure to reach the brain: the endpoint checks would say it is
        # fine, bring the brain back, and the label would flap. Only unreachable counts.
        if self._sentinel.judge_problem and self._sentinel.fallbacks != self._told_failure:
            self._told_failure = self._sentinel.fallbacks  # once per fall, not once per change
            self.post_message(JudgeFailed(self._sentinel.last_error or "no answer"))

    # ------------------------------------------------------------ surfaces

    def on_ambient_controller_line_changed(self, message: LineChanged) -> None:
        self._publish()

    def _show_focus(self) -> None:
        session = self._coach.session
        self._focus_text = focus_status_text(session, self.clock(), self._coach.line) if session else ""
        self._publish()

    def _publish(self) -> None:
        """Post what the app shows, when it changed (messages up, never its attributes)."""
        s = self._sentinel
        line = s.line or self.service.focus_drift_line()
        values = (line, self._focus_text, s.judge_label, s.snooze_until if s.snoozed else 0.0, s.mode, s.away,
                  self._no_evidence)
        if values != self._published:
            self._published = values
            line, focus_text, judge, snoozed_until, mode, away, no_evidence = values
            self.post_message(AmbientChanged(line, focus_text, judge, snoozed_until=snoozed_until, mode=mode, away=away,
                                             no_evidence=no_evidence))
        self._plan_next_look()

    def _plan_next_look(self) -> None:
        """Set the timer for the next look, when something changes with time alone."""
        if not self._started:
            return
        s = self._sentinel
        wait = next_look(self.clock(), focus_running=self._coach.session is not None,
                         snooze_until=s.snooze_until if s.snoozed else None)
        if wait is None:
            return  # a look still pending runs once and finds nothing to do
        due = time.monotonic() + wait
        if self._look_due is not None and self._look_due <= due:
            return  # a sooner look is set
        if self._look_timer is not None:
            self._look_timer.stop()
        self._look_due, self._look_timer = due, self.set_timer(wait, self._look)

    def _look(self) -> None:
        self._look_due = self._look_timer = None
        self._publish()  # a snooze that ended shows; the next look is planned
        session = self._coach.session
        if session is None:
            return
        now = self.clock()
        if is_over(session, now):
            self._end_focus(now)
            return
        self._show_focus()
        if self._coach.off_task_since is not None and not self._focus_judging:
            self._focus_judging = True
            self.run_worker(self._focus_tick(), name="focus-judge", group="focus", exit_on_error=False)

    async def _focus_tick(self) -> None:
        """Let the coach judge (it decides whether grace and debounce allow it)."""
        try:
            await self.service.focus_tick()
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
        self.service.sync_snooze()

    def _sync_focus(self) -> None:
        started = self.service.sync_focus()
        self._show_focus()
        if started:
            # Clear the drift line now rather than at the next cadence tick: one
            # evaluation with focus active ends the episode and calls no judge.
            self.run_worker(self._sentinel.evaluate(), name="sentinel-focus", group="ambient-eval", exit_on_error=False)

    def _sync_settings(self, *, force: bool = False) -> None:
        problem = self.service.sync_settings(force=force)
        if problem:
            self._tell(f"Ignoring stored settings: {problem}", severity="warning")

    # ------------------------------------------------------------ actions

    def snooze_from_ui(self) -> None:
        """Snooze 1h: the same stored state ``keeltui snooze`` writes; on an active
        snooze, offer to lift it instead."""
        from keeltui.panes.ambient.lift_snooze import LiftSnooze

        if isinstance(self.app.screen, LiftSnooze):
            return
        if self._sentinel.snoozed:
            self.app.push_screen(LiftSnooze(self._sentinel.snooze_until), self._lift_chosen)
            return
        try:
            self.service.snooze()
        except Exception as exc:  # noqa: BLE001 - a locked disk must not end the app
            self._tell(f"Could not snooze: {exc}", severity="error")
            return
        self._tell(f"Drift coaching snoozed for {span(self.config.ambient.snooze_secs)} (keeltui snooze off lifts it).")

    def _lift_chosen(self, lift: bool | None) -> None:
        if not lift:
            return
        try:
            self.service.lift_snooze()
        except Exception as exc:  # noqa: BLE001 - a locked disk must not end the app
            self._tell(f"Could not lift the snooze in {self.service.store.path}: {exc}", severity="error")
            return
        self._publish()
        self._tell("Snooze lifted: drift coaching is back on.")

    def start_focus_from_ui(self) -> None:
        """Open the focus prompt, prefilled with today's first task; refuse while one runs."""
        refusal = self.service.focus_refusal()
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
        self.post_message(self.PrefillReady(self.service.first_task()))

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
            self.service.start_focus(commitment, minutes)
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
        if not self.service.focus_running():
            self._tell("No focus session is running.")
            return
        self._end_focus(self.clock())

    def _end_focus(self, now: float) -> None:
        """Stop the stored session and report it as a ``task`` line in the Chief room."""
        try:
            text = self.service.end_focus(now)
        except Exception as exc:  # noqa: BLE001 - retried by the next look (a second later)
            log.warning("focus: could not stop the session: %s", exc)
            return
        self._show_focus()
        if text:
            self.post_message(StoreWritten())
            self._tell(text, private="Focus session ended.")

    # ------------------------------------------------------------ the day

    def open_day(self) -> None:
        """The day view, handed a reader of the day's timeline (it re-reads it while open)."""
        from keeltui.ambient.day import day_bounds
        from keeltui.panes.ambient.day_view import DayScreen
        from keeltui.services.day import day_timeline

        start, end = day_bounds(None, self.clock())
        store = self.service.store

        def load():
            return day_timeline(store, start, end, self.service.live())

        self.app.push_screen(DayScreen(load, start))

    def correct(self, episode: dict | None) -> None:
        """"That was work" for ``episode`` (from the day view), or for the drift on screen."""
        try:
            done = self.service.correct(episode)
        except Exception as exc:  # noqa: BLE001 - a locked disk must not end the app
            self._tell(f"Could not store the correction in {self.service.store.path}: {exc}", severity="error")
            return
        if not done:
            self._tell("No drift on screen to correct (F3 lists the day's episodes).")
            return
        self.post_message(StoreWritten())
        self._publish()
        from keeltui.panes.ambient.day_view import DayScreen

        if isinstance(self.app.screen, DayScreen):
            self.app.screen.refresh_day()
        self._tell("Noted: that was work. The judge sees it as an example from now on.")

    def that_was_work(self) -> None:
        self.correct(None)

    def open_settings(self) -> None:
        """The settings modal; a valid result applies live and is stored."""
        if isinstance(self.app.screen, (FocusPrompt, SettingsScreen)):
            return
        mode, cadence, _ = self.service.resolved_settings()
        origins = [mode.describe(), cadence.describe()]
        screen = SettingsScreen(self._sentinel.mode, self._sentinel.cadence_secs, origins=origins)
        self.app.push_screen(screen, self._settings_chosen)

    def _settings_chosen(self, values: tuple[str, int] | str | None) -> None:
        if values is None:
            return
        if values == SettingsScreen.RESET:
            try:
                self.service.forget_settings()
            except Exception as exc:  # noqa: BLE001 - a locked disk must not end the app
                self._tell(f"Could not forget the live settings: {exc}", severity="error")
                return
            self._sync_settings(force=True)
            self._tell(f"Back to the file's values: mode {self._sentinel.mode}, every {self._sentinel.cadence_secs:g}s.")
            return
        if isinstance(values, str):  # RESET is the only string the screen gives
            return
        mode, cadence = values
        try:
            self.service.save_settings(mode, cadence)
        except Exception as exc:  # noqa: BLE001 - applied now, just not remembered
            self._sentinel.set_config(mode, cadence)
            self._tell(f"Applied, but could not store the settings: {exc}", severity="warning")
            return
        self._sync_settings(force=True)  # the one order decides; the environment may still win
        if (self._sentinel.mode, self._sentinel.cadence_secs) != (mode, cadence):
            pinned = [s.describe() for s in self.service.resolved_settings()[:2] if s.source == ENVIRONMENT]
            self._tell(f"Stored, but the environment wins while it is set: {'; '.join(pinned)}.",
                       severity="warning")
            return
        self._tell(f"Ambient mode {mode}, a judgement every {cadence}s.")
