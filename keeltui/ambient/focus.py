"""Focus mode: one declared commitment, coached against the active window.

Pure state and decisions; persistence belongs to the store (sessions are plain
dicts via :meth:`FocusSession.to_dict`), surfaces to the app. The rules:

* each window is matched locally against the commitment (:func:`on_task`);
  an on-task window clears any drift line at once;
* only when off-task has lasted ``grace_secs`` is the judge asked, and at most
  once per ``nudge_debounce_secs`` (a judge that said "fine" is not asked again
  right away either);
* a drift verdict counts one drift and sets the line; an on-task verdict clears
  it; a failing judge keeps the prior line and invents nothing;
* a drift is an episode, as outside focus: it began when the owner left the
  commitment (off-task since) and ends when a window is on task again, the
  session ends, or the owner says it was work. Ended episodes wait in
  :meth:`FocusCoach.take_ended` for the service to store; :attr:`FocusCoach.new_episode`
  tells it to send the episode's one toast.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass

from keeltui.text.durations import format_duration
from keeltui.text.textsafe import one_line

from .window import WindowSnapshot
from .judges import MESSAGE_LIMIT, on_task

log = logging.getLogger("keeltui.ambient.focus")

FocusJudge = Callable[[str, list[str]], Awaitable[str]]
COMMITMENT_LIMIT = 200


class FocusBusyError(RuntimeError):
    """A focus session is already running; the message names it."""


@dataclass
class FocusSession:
    """One declared focus session. JSON-serialisable through :meth:`to_dict`."""

    commitment: str
    started_at: float
    minutes: float | None = None
    drifts: int = 0
    last_nudge_at: float | None = None

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> FocusSession:
        """Rebuild a stored session; ValueError if it is not one."""
        if not isinstance(data, dict):
            raise ValueError("a focus session must be a JSON object")
        try:
            commitment = one_line(data["commitment"], COMMITMENT_LIMIT)
            started_at = float(data["started_at"])
            minutes = data.get("minutes")
            minutes = float(minutes) if minutes is not None else None
            drifts = int(data.get("drifts") or 0)
            last = data.get("last_nudge_at")
            last = float(last) if last is not None else None
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a focus session: {exc}") from None
        if not commitment:
            raise ValueError("not a focus session: empty commitment")
        return cls(commitment, started_at, minutes if minutes and minutes > 0 else None, max(0, drifts), last)


def time_left(session: FocusSession, now: float) -> float | None:
    """Seconds left (never negative), or None for an open-ended session."""
    if session.minutes is None:
        return None
    return max(0.0, session.started_at + session.minutes * 60 - now)


def is_over(session: FocusSession, now: float) -> bool:
    """A timed session whose time has run out."""
    left = time_left(session, now)
    return left is not None and left <= 0


def begin_focus(current: FocusSession | None, commitment: str, minutes: float | None, now: float) -> FocusSession:
    """A new session, unless one is running (refused by name).

    A timed session that is already over does not block: the caller reports it
    (:func:`focus_report_text`) and starts the new one.
    """
    if current is not None and not is_over(current, now):
        raise FocusBusyError(f'focus is already running: "{current.commitment}" (stop it first)')
    text = one_line(commitment, COMMITMENT_LIMIT)
    if not text:
        raise ValueError("a focus session needs a commitment")
    if minutes is not None and not (isinstance(minutes, (int, float)) and math.isfinite(minutes) and minutes > 0):
        raise ValueError("focus minutes must be a positive number")
    return FocusSession(commitment=text, started_at=now, minutes=float(minutes) if minutes else None)


def _span(secs: float) -> str:
    """Minutes as "23m" or "1h 05m", rounding up so 20 s left reads "1m"."""
    minutes = max(0, math.ceil(secs / 60))
    if minutes < 60:
        return f"{minutes}m"
    return f"{minutes // 60}h {minutes % 60:02d}m"


def focus_status_text(session: FocusSession, now: float, drift_line: str = "") -> str:
    """``◎ Focus: <commitment> · 23m left`` (or ``· 12m in``), plus ``· ⚠ <drift>``."""
    left = time_left(session, now)
    if left is None:
        when = f"{_span(max(0.0, now - session.started_at))} in"
    elif left <= 0:
        when = "time's up"
    else:
        when = f"{_span(left)} left"
    text = f"◎ Focus: {one_line(session.commitment, 60)} · {when}"
    drift = one_line(drift_line, MESSAGE_LIMIT)
    return f"{text} · ⚠ {drift}" if drift else text


def focus_report_text(session: FocusSession, ended_at: float) -> str:
    """The Chief room's ``task`` line for a finished session."""
    took = format_duration(max(0.0, ended_at - session.started_at))
    planned = f" of {format_duration(session.minutes * 60)} planned" if session.minutes else ""
    drifts = {0: "no drifts", 1: "1 drift"}.get(session.drifts, f"{session.drifts} drifts")
    return f'Focus session ended: "{session.commitment}" — {took}{planned}, {drifts}.'


class FocusCoach:
    """Live coaching for the current session (see the module docstring)."""

    def __init__(
        self,
        clock: Callable[[], float],
        judge: FocusJudge,
        grace_secs: float = 90,
        nudge_debounce_secs: float = 300,
        *,
        ring_size: int = 12,
        judge_timeout: float = 30,
    ) -> None:
        self._clock = clock
        self._judge = judge
        self.grace_secs = grace_secs
        self.nudge_debounce_secs = nudge_debounce_secs
        self._ring_size = max(1, ring_size)
        self._judge_timeout = judge_timeout
        self.session: FocusSession | None = None
        self.episode: dict | None = None  # the drift episode in progress
        self.new_episode = False  # an episode began and its toast is not sent yet
        self._ended: list[dict] = []
        self._reset()

    def _reset(self) -> None:
        self._end_episode()
        self._ring: list[str] = []
        self._off_since: float | None = None
        self._last_judged_at: float | None = None
        self._line = ""
        self.last_error = ""

    @property
    def line(self) -> str:
        return self._line

    @property
    def off_task_since(self) -> float | None:
        return self._off_since

    def sync(self, session: FocusSession | None) -> None:
        """Follow the stored session. Idempotent; a different session starts afresh."""
        same = (
            session is not None
            and self.session is not None
            and (session.commitment, session.started_at) == (self.session.commitment, self.session.started_at)
        )
        if same and session is not None and self.session is not None:
            # Keep live counters that may be ahead of what was stored.
            session.drifts = max(session.drifts, self.session.drifts)
            if self.session.last_nudge_at is not None:
                session.last_nudge_at = max(session.last_nudge_at or 0.0, self.session.last_nudge_at)
            self.session = session
            return
        self.session = session
        self._reset()

    def on_window(self, snapshot: WindowSnapshot) -> None:
        """Match one window locally; no judge call here."""
        if self.session is None:
            return
        title = snapshot.title or snapshot.wm_class
        if title and (not self._ring or self._ring[-1] != title):
            self._ring.append(title)
            del self._ring[: -self._ring_size]
        if on_task(self.session.commitment, snapshot):
            self._off_since = None
            self._line = ""
            self._end_episode()
        elif self.episode is not None and title and title not in self.episode["titles"]:
            self.episode["titles"] = [*self.episode["titles"], title][-12:]
        elif self._off_since is None:
            self._off_since = self._clock()

    async def tick(self) -> str:
        """Ask the judge if off-task has outlasted the grace; return the drift line."""
        session = self.session
        if session is None or self._off_since is None:
            return self._line
        now = self._clock()
        if now - self._off_since < self.grace_secs:
            return self._line
        if self._last_judged_at is not None and now - self._last_judged_at < self.nudge_debounce_secs:
            return self._line
        self._last_judged_at = now
        try:
            verdict = await asyncio.wait_for(self._judge(session.commitment, list(self._ring)), self._judge_timeout)
        except Exception as exc:  # noqa: BLE001 - incl. timeout: keep the line
            self.last_error = f"{type(exc).__name__}: {exc}"[:200]
            log.warning("focus: judge failed: %s", self.last_error)
            return self._line
        self.last_error = ""
        if self.session is not session or self._off_since is None:
            return self._line  # the session ended, or the owner came back, meanwhile
        message = one_line(verdict, MESSAGE_LIMIT) if isinstance(verdict, str) else ""
        if message:
            session.drifts += 1
            session.last_nudge_at = now
            if self.episode is None:
                self.episode = {"start": self._off_since, "message": message, "titles": list(self._ring[-3:]),
                                "focus": session.commitment}
                self.new_episode = True
        else:
            self._end_episode()
        self._line = message
        return self._line

    def forgive(self) -> dict | None:
        """The owner said the drift was work: end the episode (returned, to correct) and the line."""
        episode = self.episode
        self._line = ""
        self._off_since = None
        self._end_episode()
        return episode

    def _end_episode(self) -> None:
        episode = getattr(self, "episode", None)
        if episode is None:
            return
        self.episode = None
        self.new_episode = False
        end = max(float(episode["start"]), self._clock())
        self._ended.append({**episode, "end": end, "secs": round(end - float(episode["start"]), 1), "sustained": True})

    def take_ended(self) -> list[dict]:
        """The episodes that ended since the last call (for the store)."""
        ended, self._ended = self._ended, []
        return ended
