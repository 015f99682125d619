"""The ambient drift sentinel: an always-on observer beside focus mode.

It collects window titles cheaply (:meth:`Sentinel.on_window`) and, on each
cadence tick, decides whether to ask a judge and what to surface
(:meth:`Sentinel.evaluate`). Textual-free and clock-injected, so every rule
below is a unit test. The trigger discipline, in order:

1. mode ``off`` → nothing (no judge call);
2. snoozed → nothing;
3. a focus session is active → clear the line (focus owns coaching) and stop;
4. cheap gate: the recent-titles ring is unchanged since the last judgement
   and we are on-track → no judge call (steady work and AFK cost nothing);
5. judge the frame and the titles, under a timeout:

   * on-track → clear the line and end the episode;
   * drift, first tick of an episode → set the line (status line, banner), no toast;
   * drift, next consecutive tick → record an ``ambient_nudge`` event and, in
     ``notify`` mode and once per episode, send one toast;
   * the judge fails → keep the prior line, log one line, set ``last_error``.
     Drift is never invented.

Episode flags also reset on snooze, on a focus session, and on mode ``off``,
so the first drift afterwards starts a fresh episode (line first, toast later).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable

from keeltui.textsafe import one_line
from .ambient.evidence import WindowSnapshot
from .ambient.judges import MESSAGE_LIMIT
from .ambient.modes import DEFAULT_CADENCE_SECS, parse_mode
from .ambient.notifier import APP_NAME, Notifier

log = logging.getLogger("keeltui.sentinel")

Judge = Callable[[str, list[str]], Awaitable[str]]
NUDGE_EVENT = "ambient_nudge"


def _cadence(value: float) -> float:
    """Positive seconds (fractions allowed, for tests); anything else → default."""
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
    :func:`keeltui.ambient.evidence.poll_source`).
    """

    def __init__(
        self,
        *,
        clock: Callable[[], float],
        judge: Judge,
        frame: Callable[[], str],
        notifier: Notifier,
        record_event: Callable[[str, dict], None],
        focus_active: Callable[[], bool],
        mode: str = "notify",
        cadence_secs: float = DEFAULT_CADENCE_SECS,
        ring_size: int = 12,
        judge_timeout: float = 30,
        judge_name: str = "brain",
        quiet_active: Callable[[], bool] | None = None,
    ) -> None:
        self._clock = clock
        self._judge = judge
        self.judge_name = judge_name
        self._frame = frame
        self._notifier = notifier
        self._record_event = record_event
        self._focus_active = focus_active
        self._quiet_active = quiet_active or (lambda: False)
        self._mode = parse_mode(mode)
        self._cadence = _cadence(cadence_secs)
        self._ring_size = max(1, int(ring_size))
        self._judge_timeout = judge_timeout

        self._ring: list[str] = []
        self._ring_lock = threading.Lock()
        self.last_window: WindowSnapshot | None = None
        self._line = ""
        # The ring at the last judgement; () so that an empty ring never calls.
        self._last_eval: tuple[str, ...] = ()
        self._was_drifting = False
        self._episode_notified = False
        self._snooze_until = 0.0
        # Bumped whenever a judgement in flight must be discarded on arrival
        # (snooze, mode off, focus started): its answer is about a stale world.
        self._gen = 0
        self._on_change: list[Callable[[], object]] = []
        self._eval_lock = asyncio.Lock()
        self._wake = asyncio.Event()
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
            return tuple(self._ring)

    # ------------------------------------------------------------ inputs

    def on_window(self, snapshot: WindowSnapshot) -> None:
        """Remember a window. Cheap: a consecutive duplicate is skipped, the ring capped."""
        title = snapshot.title or (f"[{snapshot.wm_class}]" if snapshot.wm_class else "")
        with self._ring_lock:
            self.last_window = snapshot
            if not title or (self._ring and self._ring[-1] == title):
                return
            self._ring.append(title)
            del self._ring[: -self._ring_size]

    def add_on_change(self, callback: Callable[[], object]) -> None:
        """Call ``callback()`` whenever the line (or the snooze) changes."""
        self._on_change.append(callback)

    def set_judge(self, judge: Judge, name: str) -> None:
        """Swap the judge (brain ↔ local) when the brain goes away or comes back."""
        self._judge = judge
        self.judge_name = name

    def set_config(self, mode: str, cadence_secs: float) -> None:
        """Apply live settings. ValueError for an unknown mode; bad cadence → 300."""
        mode = parse_mode(mode)
        self._cadence = _cadence(cadence_secs)
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
        if self._mode == "off" or self.snoozed:
            return
        try:
            in_focus = bool(self._focus_active())
        except Exception as exc:  # noqa: BLE001 - unknown focus state: stay quiet this tick
            log.warning("sentinel: cannot tell whether focus is active: %s", exc)
            return
        if in_focus:
            self._gen += 1
            self._end_episode()
            return
        ring = self.ring
        if ring == self._last_eval and not self._line:
            return  # the cheap gate
        gen = self._gen
        self._last_eval = ring
        try:
            # In a thread: a task provider may run a command or read files, and
            # the event loop draws the UI.
            frame = await asyncio.to_thread(self._frame)
        except Exception as exc:  # noqa: BLE001 - a shorter brief beats no judgement
            log.warning("sentinel: frame failed, judging without it: %s", exc)
            frame = ""
        self.judge_calls += 1
        try:
            verdict = await asyncio.wait_for(self._judge(frame, list(ring)), self._judge_timeout)
        except Exception as exc:  # noqa: BLE001 - incl. timeout: keep the line, invent nothing
            self.last_error = _describe(exc)
            log.warning("sentinel: %s judge failed: %s", self.judge_name, self.last_error)
            return
        self.last_error = ""
        if gen != self._gen or self._mode == "off" or self.snoozed or self._focus_now():
            return  # the world changed while the judge was thinking
        message = one_line(verdict, MESSAGE_LIMIT) if isinstance(verdict, str) else ""
        if not message:
            self._end_episode()
        elif not self._was_drifting:
            self._was_drifting = True
            self._episode_notified = False
            self._set_line(message)
        else:
            self._set_line(message)
            await self._sustained(message)

    async def _sustained(self, message: str) -> None:
        """A drift seen on two consecutive ticks: record it, toast once per episode."""
        window = self.last_window
        try:
            self._record_event(
                NUDGE_EVENT,
                {
                    "message": message,
                    "title": window.title if window else "",
                    "class": window.wm_class if window else "",
                },
            )
        except Exception as exc:  # noqa: BLE001 - losing a record must not lose the toast
            log.warning("sentinel: could not record %s: %s", NUDGE_EVENT, exc)
        if self._mode != "notify" or self._episode_notified:
            return
        try:
            quiet = bool(self._quiet_active())
        except Exception:  # noqa: BLE001 - unsure whether the screen is shared: stay quiet
            quiet = True
        if quiet:
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
        while not stop_event.is_set():
            started = loop.time()
            while not stop_event.is_set():
                remaining = started + self._cadence - loop.time()
                if remaining <= 0:
                    break
                self._wake.clear()
                await _wait_any((stop_event, self._wake), remaining)
            if stop_event.is_set():
                return
            try:
                await self.evaluate()
            except Exception:  # noqa: BLE001 - one bad tick must not end the loop
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

    def _end_episode(self, notify: bool = True) -> None:
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
            except Exception:  # noqa: BLE001 - a broken surface must not stop the others
                log.exception("sentinel: on_change callback failed")


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
