"""The evidence ticks: the stored proof that keeltui was watching, for the day's timeline.

A tick (``ambient_tick``) says "from ``at``, the window in front was of ``class``"
and covers at most ``span`` seconds: the next tick, or a closing tick (``end``)
when the app stops, cuts it short. A new window writes one at once; a window that
stays writes one a minute, so a crash loses at most ``span`` seconds of the day.
An excluded window's class is private too: it is stored as "".

Called from the poll thread (``seen`` after each read, then ``tick``) and the event loop
(``close``): the poll thread already wakes for each read, so the once-a-minute tick needs no
timer of its own in the app.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from keeltui.ambient.timeline import TICK_KIND
from keeltui.ambient.window import EXCLUDED, WindowSnapshot

log = logging.getLogger("keeltui.services.evidence_ticks")

EVERY_SECS = 60.0


class EvidenceTicks:
    def __init__(self, record: Callable[[str, dict], object], clock: Callable[[], float], poll_secs: float) -> None:
        self._record = record
        self._clock = clock
        self._poll_secs = float(poll_secs)
        # A tick holds past the next one's due time by a few polls: a slow poll is no gap.
        self.span = EVERY_SECS + max(30.0, 3 * self._poll_secs)
        self._lock = threading.Lock()
        self._read_at: float | None = None  # the last successful read
        self._class = ""
        self._changed = False
        self._last_tick: float | None = None
        # A tick and the closing tick never interleave: nothing is stored after the end.
        self._writing = threading.Lock()
        self._closed = False

    @property
    def window_class(self) -> str:
        return self._class

    def seen(self, snapshot: WindowSnapshot) -> None:
        """The poll thread read a window."""
        wm_class = "" if snapshot.title == EXCLUDED else snapshot.wm_class
        with self._lock:
            self._read_at = self._clock()
            if wm_class != self._class:
                self._class, self._changed = wm_class, True

    def fresh(self, now: float) -> bool:
        """The source answered within a few polls."""
        with self._lock:
            return self._read_at is not None and now - self._read_at <= max(3 * self._poll_secs, 10.0)

    def live_since(self, now: float) -> float | None:
        """Since when this process has evidence that is not stored yet (None when the source is silent)."""
        if not self.fresh(now):
            return None
        return self._last_tick if self._last_tick is not None else self._read_at

    def tick(self) -> None:
        """After each read: store a tick on a new window, or once a minute."""
        with self._writing:
            now = self._clock()
            if self._closed or not self.fresh(now):
                return
            with self._lock:
                due = self._changed or self._last_tick is None or now - self._last_tick >= EVERY_SECS
                if not due:
                    return
                self._changed = False
                wm_class = self._class
            self._write({"at": now, "span": self.span, "class": wm_class})
            self._last_tick = now

    def close(self) -> None:
        """The app stops: the coverage ends now, not a span later; no tick after this one."""
        with self._writing:
            self._closed = True
            if self._last_tick is not None:
                self._write({"at": self._clock(), "end": True})
                self._last_tick = None

    def _write(self, data: dict) -> None:
        try:
            self._record(TICK_KIND, data)
        except Exception as exc:  # noqa: BLE001 - a lost tick is a minute of "no evidence", not a crash
            log.warning("could not store an evidence tick: %s", exc)
