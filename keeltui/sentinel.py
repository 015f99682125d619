"""The ambient drift sentinel: an always-on observer beside focus mode.

It collects window titles cheaply (:meth:`Sentinel.on_window`) and, on each
cadence tick, decides whether to ask a judge and what to surface
(:meth:`Sentinel.evaluate`). Textual-free and clock-injected, so every rule
below is a unit test. The trigger discipline, in order:

1. mode ``off`` → nothing (no judge call);
2. snoozed → nothing;
3. a focus session is active → clear the line (focus owns coaching) and stop;
4. away from the keyboard → nothing (no judge call, no line, no record); coming
   back starts fresh (the ring holds only the window in front now);
5. cheap gate: the recent-titles ring and the frame are unchanged since the last
   judgement, nothing else changed (snooze lifted, focus ended, mode, cadence or
   judge changed, the last check failed) and we are on-track → no judge call
   (the free local judge, which weighs time in front, is asked every tick);
6. judge the frame and the titles (each with its time in front), under a timeout;
   never with no titles (nothing seen yet is nothing to judge):

   * on-track → clear the line and end the episode;
   * drift, first tick of an episode → set the line (status line, banner), no toast;
   * drift, next consecutive tick → once per episode, record an ``ambient_nudge``
     event and, in ``notify`` mode, send one toast;
   * the judge fails → the fallback (local) judge answers in the same tick and
     the sentinel stays on it (``judge_label`` says why) until :meth:`set_judge`
     brings the brain back. With no fallback, the line is kept only while its
     evidence is unchanged. Drift is never invented.
   * the judge answers but with no verdict (no JSON) → the fallback answers this
     tick, ``judge_label`` says ``bad answers (model X)``, and the brain is asked
     again next tick (it is reachable: no endpoint check can clear or confirm it).

Episode flags also reset on snooze, on a focus session, on mode ``off`` and when
the owner goes away, so the first drift afterwards starts a fresh episode (line
first, toast later). Every episode ends in one ``ambient_episode`` record (start,
end, duration, titles); every away period in one ``ambient_away`` record.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import SupportsFloat, SupportsIndex

from keeltui.text.jsonextract import JSONExtractError
from keeltui.text.textsafe import one_line

from .ambient.window import EXCLUDED, WindowSnapshot, timed_titles
from .ambient.judges import MESSAGE_LIMIT
from .ambient.modes import DEFAULT_CADENCE_SECS, parse_mode
from .ambient.ports import APP_NAME, Notifier

log = logging.getLogger("keeltui.sentinel")

Judge = Callable[[str, list[str]], Awaitable[str]]
NUDGE_EVENT = "ambient_nudge"
EPISODE_EVENT = "ambient_episode"
AWAY_EVENT = "ambient_away"
EPISODE_TITLES = 12  # titles kept in an episode record
# A window change under a drift line is judged early, but not more often than this:
# flipping between tabs must not cost a judge call per poll.
EARLY_JUDGE_SECS = 30.0


def _cadence(value: object) -> float:
    """Positive seconds (fractions allowed, for tests); anything else → default."""
    if not isinstance(value, (SupportsFloat, SupportsIndex, str, bytes, bytearray)):
        return float(DEFAULT_CADENCE_SECS)  # what float() cannot take at all
    try:
        secs = float(value)
    except (TypeError, ValueError):
        return float(DEFAULT_CADENCE_SECS)
    return secs if secs > 0 and secs != float("inf") else float(DEFAULT_CADENCE_SECS)


class Sentinel:
    """State machine for ambient coaching. See the module docstring for the rules.

    Call :meth:`evaluate`, :meth:`run`, :meth:`set_config` and :meth:`snooze`
    from the event loop's thread; :meth:`on_window` is safe from any thread.
    ``frame()`` is called in a worker thread (it may read files or run a task
    command); ``judge``, ``record_event``, ``focus_active`` and the on-change
    callbacks run on the event loop; ``notifier.notify`` runs in a thread.
    Apply privacy exclusions before :meth:`on_window` (see
    :func:`keeltui.adapters.evidence.poll_source`).
    """

    def __init__(
        self,
        *,
        clock: Callable[[], float],
        judge: Judge,
        frame: Callable[[], str],
        notifier: Notifier,
        record_event: Callable[[str, dict], object],
        focus_active: Callable[[], bool],
        mode: str = "notify",
        cadence_secs: float = DEFAULT_CADENCE_SECS,
        ring_size: int = 12,
        judge_timeout: float = 30,
        judge_name: str = "brain",
        fallback: Judge | None = None,
        fallback_name: str = "local",
        judge_model: Callable[[], str] | None = None,
    ) -> None:
        self._clock = clock
        self._judge = judge
        self.judge_name = judge_name
        self._frame = frame
        self._notifier = notifier
        self._record_event = record_event
        self._focus_active = focus_active
        # Quiet Mode, set by the app (attributes down): no toast while it is on.
        self.quiet = False
        self._fallback = fallback
        self._fallback_name = fallback_name
        self.judge_problem = ""  # why the judge in use is not the one asked for
        # The brain answers, but with no verdict ("bad answers (model X)"); "" when fine.
        self.bad_answers = ""
        self._judge_model = judge_model
        self._label_until_answer = ""  # the label kept while a returned brain is on trial
        self.fallbacks = 0  # times the judge failed and the fallback took over
        self._mode = parse_mode(mode)
        self._cadence = _cadence(cadence_secs)
        self._ring_size = max(1, int(ring_size))
        self._judge_timeout = judge_timeout

        self._ring: list[tuple[str, float]] = []  # (title, first seen at)
        self._ring_lock = threading.Lock()
        self.last_window: WindowSnapshot | None = None
        self._line = ""
        # The ring at the last judgement; () so that an empty ring never calls.
        self._last_eval: tuple[str, ...] = ()
        self._last_frame: str | None = None
        # Something other than the titles changed since the last judgement
        # (snooze lifted, focus ended, settings, judge): judge again.
        self._dirty = False
        self._was_snoozed = False
        self._was_in_focus = False
        self._away_since: float | None = None
        self._episode: dict | None = None  # the drift episode in progress
        self._line_ring: tuple[str, ...] = ()  # the ring when the line was set
        self._was_drifting = False
        self._episode_notified = False
        self._snooze_until = 0.0
        # Bumped whenever a judgement in flight must be discarded on arrival
        # (snooze, mode off, focus started): its answer is about a stale world.
        self._gen = 0
        self._on_change: list[Callable[[], object]] = []
        self._eval_lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        # A new window while a drift line shows: judge now, not at the next cadence
        # tick, so the line is never held past the evidence it was about.
        self._evidence_moved = False
        self._last_judged_at = float("-inf")
        self.last_error = ""
        self.judge_calls = 0

    # ------------------------------------------------------------ read-only state

    @property
    def line(self) -> str:
        """The current coaching line; "" when on-track, off, snoozed or in focus."""
        return self._line

    @property
    def mode(self) -> str:
        return self._mode

    @property
    def cadence_secs(self) -> float:
        return self._cadence

    @property
    def snooze_until(self) -> float:
        return self._snooze_until

    @property
    def snoozed(self) -> bool:
        return self._clock() < self._snooze_until

    @property
    def ring(self) -> tuple[str, ...]:
        with self._ring_lock:
            return tuple(title for title, _ in self._ring)

    @property
    def away(self) -> bool:
        return self._away_since is not None

    @property
    def away_since(self) -> float | None:
        """When the current away period began (the last input), None when present."""
        return self._away_since

    @property
    def episode(self) -> dict | None:
        """The drift episode in progress (a copy: start, titles, message), None when on track."""
        episode = self._episode
        return {**episode, "titles": list(episode["titles"])} if episode is not None else None

    @property
    def judge_label(self) -> str:
        """``brain``, ``local``, ``local · brain unreachable`` when it fell back, or
        ``bad answers (model X)`` while the brain answers with no verdict."""
        if self._label_until_answer:
            return self._label_until_answer
        if self.bad_answers and not self.judge_problem:
            return self.bad_answers
        return f"{self.judge_name} · {self.judge_problem}" if self.judge_problem else self.judge_name

    # ------------------------------------------------------------ inputs

    def on_window(self, snapshot: WindowSnapshot) -> None:
        """Remember a window. Cheap: a consecutive duplicate is skipped, the ring capped."""
        title = _title(snapshot)
        with self._ring_lock:
            self.last_window = snapshot
            if self._away_since is not None:
                return  # nothing seen while away counts; coming back starts fresh
            if not title or (self._ring and self._ring[-1][0] == title):
                return
            self._ring.append((title, snapshot.at))
            del self._ring[: -self._ring_size]
            moved = bool(self._line)
        if moved:
            self._evidence_moved = True
            if self._loop is not None:
                self._loop.call_soon_threadsafe(self._wake.set)

    def add_on_change(self, callback: Callable[[], object]) -> None:
        """Call ``callback()`` whenever the line (or the snooze) changes."""
        self._on_change.append(callback)

    def set_judge(self, judge: Judge, name: str, problem: str = "", *, until_it_answers: bool = False) -> None:
        """Swap the judge (brain ↔ local) when the brain goes away or comes back.

        ``until_it_answers``: the endpoint says the brain is back, but only its next
        judgement can tell; the label stays as it is until then, so an endpoint check
        that passes while the judge still fails does not make it flap.
        """
        label = self.judge_label
        changed = (name, problem) != (self.judge_name, self.judge_problem)
        self._judge = judge
        self.judge_name = name
        self.judge_problem = problem
        self._label_until_answer = label if until_it_answers and changed else ""
        if changed:
            self._dirty = True  # a different judge may see it differently
            if not self._label_until_answer:
                self._fire()

    def set_away(self, away: bool, since: float | None = None) -> None:
        """The owner left the keyboard (or came back). See rule 4 in the module docstring.

        ``since`` is when the away period began: the last input, which the evidence
        knows (its idle time), not the moment the poll noticed it.
        """
        now = self._clock()
        if away and self._away_since is None:
            self._away_since = min(now, since) if since is not None else now
            self._gen += 1
            # A drift open until the last input ends there: the minutes after it are away.
            self._end_episode(at=self._away_since)
        elif not away and self._away_since is not None:
            since, self._away_since = self._away_since, None
            with self._ring_lock:
                # What was on screen before lunch is no evidence now; the window in
                # front is, from now (the poll only reports windows that change).
                self._ring.clear()
                window = self.last_window
                title = _title(window) if window is not None else ""
                if title:
                    self._ring.append((title, now))
            self._last_eval = ()
            self._dirty = True
            self._record(AWAY_EVENT, {"start": since, "end": now, "secs": round(now - since, 1)})
            self._fire()

    def forgive(self) -> None:
        """The owner said the drift on screen was work: end the episode (its record
        stands, the correction overrules it) and judge afresh next tick."""
        self._gen += 1  # a verdict in flight was about the same windows
        self._end_episode()
        self._dirty = True

    def set_config(self, mode: object, cadence_secs: object) -> None:
        """Apply live settings (any values: both are checked here).
        ValueError for an unknown mode; bad cadence → 300."""
        mode = parse_mode(mode)
        cadence = _cadence(cadence_secs)
        if (mode, cadence) != (self._mode, self._cadence):
            self._dirty = True
        self._cadence = cadence
        if mode != self._mode:
            self._mode = mode
            if mode == "off":
                self._gen += 1
                self._end_episode()
        # Let a sleeping run loop re-measure its wait with the new cadence.
        self._wake.set()

    def snooze(self, until: float) -> None:
        """Stay silent until the epoch time ``until``. Idempotent for the same value.

        The app mirrors the stored snooze into this on every store change, so a
        repeated value must not fire callbacks again. A time in the past lifts
        the snooze.
        """
        until = float(until)
        if until == self._snooze_until:
            return
        self._snooze_until = until
        if self._clock() < until:
            self._gen += 1
            self._end_episode(notify=False)
        self._fire()

    # ------------------------------------------------------------ the decision

    async def evaluate(self) -> None:
        """One tick of the trigger discipline (see the module docstring)."""
        async with self._eval_lock:
            await self._evaluate()

    async def _evaluate(self) -> None:
        self._evidence_moved = False
        if self._mode == "off":
            return
        if self.snoozed:
            self._was_snoozed = True
            return
        if self._was_snoozed:
            self._was_snoozed = False
            self._dirty = True  # the snooze ended: a drift still on screen is named again
        try:
            in_focus = bool(self._focus_active())
        except Exception as exc:  # noqa: BLE001 - unknown focus state: stay quiet this tick
            log.warning("sentinel: cannot tell whether focus is active: %s", exc)
            return
        if in_focus:
            self._was_in_focus = True
            self._gen += 1
            self._end_episode()
            return
        if self._was_in_focus:
            self._was_in_focus = False
            self._dirty = True
        if self._away_since is not None:
            return  # away: no judgement, no line, no record
        ring = self.ring
        gate = ring == self._last_eval and not self._line and not self._dirty and not self.last_error
        if self.judge_name == self._fallback_name and ring:
            # The local judge costs nothing and weighs time: a stay that grows long
            # with no new window must still be seen, so it judges every tick.
            gate = False
        if not ring:
            return  # nothing seen yet: no judge call, not even the frame is read
        gen = self._gen
        try:
            # In a thread: a task provider may run a command or read files, and
            # the event loop draws the UI.
            frame = await asyncio.to_thread(self._frame)
        except Exception as exc:  # noqa: BLE001 - a shorter brief beats no judgement
            log.warning("sentinel: frame failed, judging without it: %s", exc)
            frame = ""
        if gate and frame == self._last_frame:
            return  # the cheap gate: nothing the judge sees has changed
        self._last_eval, self._last_frame, self._dirty = ring, frame, False
        with self._ring_lock:
            titles = timed_titles(self._ring, self._clock())
        verdict = await self._ask(frame, titles)
        if verdict is None:
            if self._line and ring != self._line_ring:
                self._end_episode()  # never hold a line past the evidence it was about
            return
        if gen != self._gen or self._mode == "off" or self.snoozed or self._focus_now() or self.away:
            return  # the world changed while the judge was thinking
        message = one_line(verdict, MESSAGE_LIMIT) if isinstance(verdict, str) else ""
        if not message:
            self._end_episode()
        elif not self._was_drifting:
            self._was_drifting = True
            self._episode_notified = False
            self._episode = {"start": self._clock(), "message": message, "titles": []}
            self._note_titles(ring[-1:])  # what is on screen now, not the work before it
            self._line_ring = ring
            self._set_line(message)
        else:
            # The titles seen since the last check (or the one still in front).
            self._note_titles([t for t in ring if t not in self._line_ring] or ring[-1:])
            self._line_ring = ring
            self._set_line(message)
            await self._sustained(message)

    async def _ask(self, frame: str, titles: list) -> str | None:
        """The judge's verdict; on failure the fallback's, in the same tick; None if neither answers."""
        self.judge_calls += 1
        self._last_judged_at = self._clock()
        try:
            verdict = await asyncio.wait_for(self._judge(frame, titles), self._judge_timeout)
        except JSONExtractError as exc:
            # The brain answered, just not with a verdict: it is reachable, its model
            # is the problem. Say so, answer with the fallback this tick, and keep
            # asking the brain (no endpoint check can tell whether it answers well).
            self.last_error = _describe(exc)
            log.warning("sentinel: %s judge answered badly: %s", self.judge_name, self.last_error)
            return await self._bad_answer(frame, titles)
        except Exception as exc:  # noqa: BLE001 - incl. timeout: fall back, invent nothing
            self.last_error = _describe(exc)
            log.warning("sentinel: %s judge failed: %s", self.judge_name, self.last_error)
            if self._fallback is None or self.judge_name == self._fallback_name:
                return None
            # Stay on the fallback until the app sees the brain answer again
            # (set_judge): a dead brain must not cost a timeout every tick.
            self.fallbacks += 1
            self.set_judge(self._fallback, self._fallback_name, f"{self.judge_name} unreachable")
            self._dirty = False
            try:
                verdict = await asyncio.wait_for(self._judge(frame, titles), self._judge_timeout)
            except Exception as exc2:  # noqa: BLE001
                log.warning("sentinel: %s judge failed too: %s", self.judge_name, _describe(exc2))
                return None
            return verdict
        self.last_error = ""
        if self.bad_answers or self._label_until_answer:
            self.bad_answers = self._label_until_answer = ""  # the brain answers well again
            self._fire()
        return verdict

    async def _bad_answer(self, frame: str, titles: list) -> str | None:
        problem = f"bad answers (model {self._judge_model()})" if self._judge_model else "bad answers"
        if problem != self.bad_answers:
            self.bad_answers = problem
            self._fire()
        if self._fallback is None or self.judge_name == self._fallback_name:
            return None
        try:
            return await asyncio.wait_for(self._fallback(frame, titles), self._judge_timeout)
        except Exception as exc:  # noqa: BLE001
            log.warning("sentinel: %s judge failed too: %s", self._fallback_name, _describe(exc))
            return None

    def _note_titles(self, ring: Sequence[str]) -> None:
        """Add the episode's titles (excluded windows stay ``excluded``, nothing more)."""
        if self._episode is None:
            return
        kept = self._episode["titles"]
        for title in ring:
            if title not in kept:
                kept.append(title)
        del kept[:-EPISODE_TITLES]

    async def _sustained(self, message: str) -> None:
        """A drift seen on two consecutive ticks: record it and toast, once per episode."""
        if self._episode is not None and not self._episode.get("sustained"):
            self._episode["sustained"] = True
            window = self.last_window
            excluded = window is not None and window.title == EXCLUDED
            self._record(NUDGE_EVENT, {
                "message": message,
                "title": window.title if window else "",
                # An excluded window's class is private too.
                "class": window.wm_class if window and not excluded else "",
            })
        if self._mode != "notify" or self._episode_notified:
            return
        if self.quiet:
            return  # Quiet Mode: no toast now; a later tick may still send it
        self._episode_notified = True  # set first: a slow toast must not double up
        try:
            await asyncio.to_thread(self._notifier.notify, APP_NAME, message)
        except Exception as exc:  # noqa: BLE001 - notifiers promise not to raise; belt and braces
            log.warning("sentinel: toast failed: %s", exc)

    # ------------------------------------------------------------ the loop

    async def run(self, stop_event: asyncio.Event) -> None:
        """Evaluate every ``cadence_secs`` until ``stop_event`` is set.

        The cadence is re-read on every wait, and :meth:`set_config` wakes the
        wait, so a changed setting applies without a restart.
        """
        loop = asyncio.get_running_loop()
        self._loop = loop
        while not stop_event.is_set():
            started = loop.time()
            while not stop_event.is_set():
                remaining = started + self._cadence - loop.time()
                if self._evidence_moved:
                    remaining = min(remaining, self._last_judged_at + EARLY_JUDGE_SECS - self._clock())
                if remaining <= 0:
                    break
                self._wake.clear()
                await _wait_any((stop_event, self._wake), remaining)
            if stop_event.is_set():
                return
            try:
                await self.evaluate()
            except Exception:
                log.exception("sentinel: evaluation failed")

    # ------------------------------------------------------------ helpers

    def _focus_now(self) -> bool:
        try:
            return bool(self._focus_active())
        except Exception:  # noqa: BLE001 - unsure: treat as focus, i.e. stay quiet
            return True

    def _set_line(self, line: str) -> None:
        if line != self._line:
            self._line = line
            self._fire()

    def close(self) -> None:
        """The app is ending: store the episode (or away period) in progress."""
        self._end_episode(notify=False)
        if self._away_since is not None:
            now = self._clock()
            self._record(AWAY_EVENT, {"start": self._away_since, "end": now, "secs": round(now - self._away_since, 1)})
            self._away_since = None

    def _record(self, kind: str, data: dict) -> None:
        try:
            self._record_event(kind, data)
        except Exception as exc:  # noqa: BLE001 - losing a record must not lose the toast
            log.warning("sentinel: could not record %s: %s", kind, exc)

    def _end_episode(self, notify: bool = True, at: float | None = None) -> None:
        episode, self._episode = self._episode, None
        if episode is not None:
            end = self._clock() if at is None else max(episode["start"], at)
            episode.update(end=end, secs=round(end - episode["start"], 1))
            episode["sustained"] = bool(episode.get("sustained"))
            self._record(EPISODE_EVENT, episode)
        self._was_drifting = False
        self._episode_notified = False
        if self._line:
            self._line = ""
            if notify:
                self._fire()

    def _fire(self) -> None:
        for callback in list(self._on_change):
            try:
                callback()
            except Exception:
                log.exception("sentinel: on_change callback failed")


def _title(snapshot: WindowSnapshot) -> str:
    """What the ring holds for a window: its title, else its class in brackets."""
    return snapshot.title or (f"[{snapshot.wm_class}]" if snapshot.wm_class else "")


def _describe(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "timed out"
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:160]}" if text else type(exc).__name__


async def _wait_any(events: tuple[asyncio.Event, ...], timeout: float) -> None:
    """Return when any event is set or ``timeout`` seconds pass."""
    waiters = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()
