"""The ambient service: the sentinel, the focus coach and what feeds them, built once.

Built by the composition root (:class:`keeltui.wiring.Services`), Textual-free. It
owns the :class:`~keeltui.sentinel.Sentinel`, the :class:`~keeltui.ambient.focus.FocusCoach`,
the local judge, the task provider, the frame loading and the brain's judge calls,
and it applies the stored state (snooze, focus session, live settings) to them.
The controller widget (:mod:`keeltui.panes.ambient.controller`) runs its threads
and loops as workers, sets :attr:`quiet` and :attr:`brain_online` on it, and shows
what it reports.

The clock and the notifier are injectable: tests pass a recording notifier; the app
gets the real one, built on the first toast (:class:`LazyNotifier`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from keeltui.services import ambient_state as state
from keeltui.adapters.evidence import EvidenceSource, NoneSource, make_source, poll_source
from keeltui.adapters.notifier import Notifier, make_notifier
from keeltui.adapters.tasks import make_task_provider
from keeltui.ambient.focus import FocusCoach, FocusSession
from keeltui.ambient.frame import load_frame
from keeltui.ambient.judges import LocalJudge, build_ambient_messages, build_focus_messages, drift_message
from keeltui.ambient.settings_order import FILE, LIVE, Setting, resolve
from keeltui.ambient.corrections import EXAMPLES, correction, example_titles, with_examples
from keeltui.ambient.timeline import CORRECTION_KIND, Live
from keeltui.ambient.window import WindowSnapshot, is_away
from keeltui.config import Config
from keeltui.ambient.ports import APP_NAME
from keeltui.sentinel import EPISODE_EVENT, Sentinel
from keeltui.text.textsafe import one_line
from keeltui.services.evidence_ticks import EvidenceTicks

if TYPE_CHECKING:
    from keeltui.brain import Brain
    from keeltui.store import Store

log = logging.getLogger("keeltui.services.ambient")


class LazyNotifier:
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


class AmbientService:
    """See the module docstring. Call it from the event loop's thread, except where
    a method says it runs in a worker thread."""

    def __init__(
        self,
        config: Config,
        store: Store,
        brain: Brain,
        *,
        clock: Callable[[], float] = time.time,
        notifier: Notifier | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.brain = brain
        self.clock = clock
        self.tasks = make_task_provider(config.tasks.provider, config.tasks.source)
        self.local = LocalJudge(config.ambient.time_sinks)
        self._brain_online: bool | None = None
        self._brain_seen: bool | None = None  # brain_online when last followed
        self._settings_seen: tuple | None = None  # the stored settings last applied
        self.notifier = notifier if notifier is not None else LazyNotifier()
        self.sentinel = Sentinel(
            clock=clock,
            judge=self.brain_judge,
            judge_name="brain",
            frame=self.frame,
            notifier=self.notifier,
            record_event=store.add_event,
            focus_active=lambda: state.current_session(store) is not None,
            mode=config.ambient.mode,
            cadence_secs=config.ambient.cadence_secs,
            judge_timeout=config.ambient.judge_timeout_secs,
            fallback=self.local.ajudge,
            judge_model=lambda: self.brain.model_for("judge"),
        )
        self.evidence = EvidenceTicks(store.add_event, clock, config.evidence.poll_secs)
        self.coach = FocusCoach(
            clock, self.focus_judge,
            grace_secs=config.focus.grace_secs,
            nudge_debounce_secs=config.focus.nudge_debounce_secs,
            judge_timeout=config.ambient.judge_timeout_secs,
        )

    # ------------------------------------------------------------ attributes the app sets

    @property
    def quiet(self) -> bool:
        return self.sentinel.quiet

    @quiet.setter
    def quiet(self, quiet: bool) -> None:
        self.sentinel.quiet = bool(quiet)  # Quiet Mode holds the toast back

    @property
    def brain_online(self) -> bool | None:
        return self._brain_online

    @brain_online.setter
    def brain_online(self, online: bool | None) -> None:
        self._brain_online = online
        self.follow_brain()

    def follow_brain(self) -> None:
        """Follow the app's news about the brain: offline → local judge, back → brain.

        Only changes count: the sentinel may have fallen back by itself in between,
        and only the brain's next answer brings it back.
        """
        known = self._brain_online
        if known == self._brain_seen:
            return
        self._brain_seen = known
        if known is False:
            self.sentinel.set_judge(self.local.ajudge, "local", "brain unreachable")
        elif self.sentinel.judge_name != "brain":
            self.sentinel.set_judge(self.brain_judge, "brain", until_it_answers=True)

    # ------------------------------------------------------------ evidence (worker thread)

    def open_source(self) -> EvidenceSource | None:
        """The configured evidence source, or None when nothing will ever be read.
        Called in the poll thread: ``auto`` may probe X or tmux, which can block."""
        evidence = self.config.evidence
        try:
            source = make_source(evidence.source, evidence.command)
        except ValueError as exc:
            log.warning("evidence: %s", exc)
            return None
        return None if isinstance(source, NoneSource) else source

    def read(self, source: EvidenceSource) -> tuple[WindowSnapshot | None, float | None]:
        """One poll: the window in front (privacy exclusions applied) and, when the
        owner is away, since when (the last input: now minus the idle time)."""
        snapshot = poll_source(source, self.config.evidence.exclude_titles)
        if snapshot is not None:
            self.evidence.seen(snapshot)
        if not is_away(snapshot, self.config.ambient.away_after_secs):
            return snapshot, None
        assert snapshot is not None and snapshot.idle_secs is not None  # is_away says so
        return snapshot, snapshot.at - snapshot.idle_secs

    # ------------------------------------------------------------ judges and the frame

    def frame(self) -> str:
        """The brief; called by the sentinel in a thread (it may run a task command)."""
        frame = self.config.frame
        brief = load_frame(frame.dir or None, frame.goals_file, self.tasks, frame.max_chars)
        try:
            corrected = example_titles(self.store.events(CORRECTION_KIND, limit=EXAMPLES))
        except Exception as exc:  # noqa: BLE001 - the brief without examples still judges
            log.warning("could not read the corrections: %s", exc)
            corrected = []
        return with_examples(brief, corrected)

    async def brain_judge(self, frame: str, titles: list[str]) -> str:
        verdict, _ = await self.brain.judge("judge", build_ambient_messages(frame, titles))
        return drift_message(verdict)

    async def focus_judge(self, commitment: str, titles: list[str]) -> str:
        if self.sentinel.judge_name != "brain":
            # Without a brain, the commitment is the whole frame the local judge gets.
            return self.local.judge(commitment, titles)
        verdict, _ = await self.brain.judge("judge", build_focus_messages(commitment, titles))
        return drift_message(verdict)

    def first_task(self) -> str:
        """Today's first open task ("" if none or unreadable); runs a command: call it in a thread."""
        try:
            tasks = [t for t in self.tasks.today() if t.strip()]
        except Exception as exc:  # noqa: BLE001 - no prefill is fine
            log.warning("focus: task provider failed: %s", exc)
            tasks = []
        return tasks[0] if tasks else ""

    # ------------------------------------------------------------ the store

    def sync_snooze(self) -> None:
        until = self.store.get_state(state.SNOOZE_KEY)
        valid = isinstance(until, (int, float)) and not isinstance(until, bool)
        self.sentinel.snooze(float(until) if valid else 0.0)  # idempotent; 0 lifts it

    def snooze(self) -> float:
        """Snooze for the configured time: the same stored state ``keeltui snooze`` writes.
        Raises what the store raises (nothing changed then); returns the end."""
        until = self.clock() + self.config.ambient.snooze_secs
        self.store.set_state(state.SNOOZE_KEY, until)
        self.sentinel.snooze(until)
        return until

    def lift_snooze(self) -> None:
        """End the snooze now (what ``keeltui snooze off`` does). Raises what the store raises."""
        self.store.delete_state(state.SNOOZE_KEY)
        self.sentinel.snooze(0.0)

    def sync_focus(self) -> bool:
        """Follow the stored focus session; True when one just started (the caller
        then runs one sentinel evaluation, which clears a drift line at once)."""
        session = state.current_session(self.store)
        live = self.coach.session
        if session is not None and live is not None and _same(session, live):
            # Same session: keep the live object (a judgement in flight is tied to
            # it by identity) and take any drift another process counted.
            live.drifts = max(live.drifts, session.drifts)
            return False
        self.coach.sync(session)
        self.record_focus_episodes()
        if session is not None and self.sentinel.last_window is not None:
            # The poll thread posts only changes: hand the new session the window
            # already on screen, or an off-task start would go unnoticed.
            self.coach.on_window(self.sentinel.last_window)
        return session is not None

    def sync_settings(self, *, force: bool = False) -> str:
        """Apply the settings in their one order (keeltui.ambient.settings_order):
        defaults < file < live (stored) < environment. An unusable stored value is
        skipped; its problem is returned ("" when none)."""
        stored = (self.store.get_state(state.SETTINGS_MODE_KEY), self.store.get_state(state.SETTINGS_CADENCE_KEY))
        if stored == self._settings_seen and not force:
            return ""  # set_config wakes the run loop: only call it on a real change
        self._settings_seen = stored
        mode, cadence, problem = self.resolved_settings()
        if problem:
            log.warning("ignoring stored settings: %s", problem)
        self.sentinel.set_config(mode.value, cadence.value)
        return problem

    def resolved_settings(self) -> tuple[Setting, Setting, str]:
        ambient = self.config.ambient
        layers = self.config.setting_layers or {
            "mode": {FILE: ambient.mode}, "cadence_secs": {FILE: ambient.cadence_secs},
        }
        live_mode, live_cadence, problem = state.stored_settings(self.store)
        mode = resolve("mode", {**layers["mode"], LIVE: live_mode})
        cadence = resolve("cadence_secs", {**layers["cadence_secs"], LIVE: live_cadence})
        return mode, cadence, problem

    def focus_refusal(self) -> str:
        """Why a new focus session cannot start now ("" when it can)."""
        return state.busy_refusal(self.store, self.clock())

    def focus_running(self) -> bool:
        return self.coach.session is not None or state.current_session(self.store) is not None

    def start_focus(self, commitment: str, minutes: float | None) -> None:
        """Store a new session (raises ``FocusBusy`` or ``ValueError``); then :meth:`sync_focus`."""
        state.start_focus(self.store, commitment, minutes, self.clock())

    def end_focus(self, now: float) -> str | None:
        """Stop the stored session; its report for the Chief room (None when none).
        Raises what the store raises, and the coach keeps the session (a retry ends it)."""
        text = state.stop_focus(self.store, now)
        self.coach.sync(None)
        self.record_focus_episodes()
        return text

    async def focus_tick(self) -> None:
        """Let the coach judge (it decides whether grace and debounce allow it);
        a drift it counts is stored, so every process sees it."""
        session = self.coach.session
        drifts = session.drifts if session else 0
        await self.coach.tick()
        if session is not None and session is self.coach.session and session.drifts != drifts:
            state.update_focus(self.store, drifts=session.drifts, last_nudge_at=session.last_nudge_at)
        self.record_focus_episodes()
        if self.coach.new_episode:
            # The same surfaces as a drift outside focus: one toast per episode, worded for it.
            self.coach.new_episode = False
            if self.sentinel.mode == "notify" and not self.quiet:
                try:
                    await asyncio.to_thread(self.notifier.notify, APP_NAME, self.focus_drift_line())
                except Exception as exc:  # noqa: BLE001 - notifiers promise not to raise
                    log.warning("focus: toast failed: %s", exc)

    def focus_drift_line(self) -> str:
        """The banner's line for a drift in focus: the judge's words and the way back ("" when none)."""
        session = self.coach.session
        if session is None or not self.coach.line:
            return ""
        return f'{self.coach.line} — back to "{one_line(session.commitment, 60)}"'

    def record_focus_episodes(self) -> None:
        """Store the focus drift episodes that ended (the day counts them as drifting)."""
        for episode in self.coach.take_ended():
            try:
                self.store.add_event(EPISODE_EVENT, episode)
            except Exception as exc:  # noqa: BLE001 - a lost record must not lose the session
                log.warning("focus: could not record a drift episode: %s", exc)

    def save_settings(self, mode: str, cadence_secs: int) -> None:
        """Store live settings and apply them in their one order (raises what the store raises)."""
        state.save_settings(self.store, mode, cadence_secs)

    def forget_settings(self) -> None:
        state.forget_settings(self.store)

    def live(self) -> Live:
        """What the day's timeline needs from this process that is not stored yet."""
        now = self.clock()
        episode = self.sentinel.episode or self.coach.episode
        session = self.coach.session
        return Live(
            now=now, evidence_since=self.evidence.live_since(now), window_class=self.evidence.window_class,
            drift_since=episode["start"] if episode else None,
            drift_titles=tuple(episode["titles"]) if episode else (),
            drift_focus=session.commitment if episode and session else "",
            away_since=self.sentinel.away_since,
        )

    def correct(self, episode: dict | None = None) -> bool:
        """"That was work": store a correction of ``episode`` (a stored one from the day view),
        or of the drift on screen now, which then ends as corrected. False when there is none.
        Raises what the store raises."""
        live = self.sentinel.episode or self.coach.episode
        if episode is not None and live is not None and round(float(episode["start"]), 3) == round(float(live["start"]), 3):
            episode = None  # the drift on screen, chosen in the day view: it ends now, as F10 ends it
        if episode is None and self.coach.episode is not None:
            episode = self.coach.forgive()
            self.record_focus_episodes()
            if episode is None:
                return False
            self.store.add_event(CORRECTION_KIND, correction(episode, self.clock()))
            return True
        if episode is None:
            episode = self.sentinel.episode
            if episode is None:
                return False
            self.store.add_event(CORRECTION_KIND, correction(episode, self.clock()))
            self.sentinel.forgive()
            return True
        self.store.add_event(CORRECTION_KIND, correction(episode, self.clock()))
        return True

    def close(self) -> None:
        """The app is ending: the episode or away period in progress is stored, the evidence closed."""
        self.sentinel.close()
        self.coach.sync(None)  # a focus drift in progress ends now (the session stays stored)
        self.record_focus_episodes()
        self.evidence.close()
