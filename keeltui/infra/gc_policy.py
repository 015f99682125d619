"""Short collector pauses for an app open for months.

Python's full collection scans every tracked object not frozen. A room's rendered lines
are many small tracked objects (a Textual ``Strip`` carries seven caches), so a long
reply or a few hundred rows drawn made each full pass 40-150 ms: a key pressed then
waited for it. What survives a full collection is alive; it is frozen right after the
collection, so the next one scans only what was made since. Frozen objects are still
freed by reference counting when dropped (a row leaving the cache, a reply's lines);
only a cycle among them would wait, until :func:`thaw` collects them all again, which
the app calls now and then while no reply streams.
"""

from __future__ import annotations

import gc
import time

THAW_SECS = 15 * 60.0
"""How often frozen objects are scanned again (a full pass of the whole heap)."""

_thawed_at = [time.monotonic()]


def _after_collection(phase: str, info: dict) -> None:
    if phase == "stop" and info.get("generation") == 2:
        gc.freeze()  # gen 0 and 1 are empty now: only what survived the full pass is frozen


def freeze_survivors() -> None:
    """Freeze what lives now, and after each full collection what survived it (once per process)."""
    gc.freeze()
    if _after_collection not in gc.callbacks:
        gc.callbacks.append(_after_collection)


def hold_for_start() -> None:
    """No collection while start-up builds what lives as long as the app.

    Importing Textual and the room, composing and styling the first frame make a few hundred
    thousand objects, nearly all of them for good: the collector ran ~130 times over them
    before the first frame (one a full pass), all of it time before the room is on screen.
    :func:`start_done` turns it back on once the first frame is drawn.
    """
    gc.disable()


def start_done() -> None:
    """The first frame is on screen: collect again (see :func:`hold_for_start`).

    One pass now over what start-up made frees its garbage cycles before the brain client's
    arrival freezes the heap (:func:`freeze_survivors`): frozen, they would stay until the
    next thaw (~1.5 MB more at the peak after a long reply). One pass, not the ~130 it replaces.
    """
    gc.enable()
    gc.collect()


def thaw_due(now: float | None = None) -> bool:
    return (time.monotonic() if now is None else now) - _thawed_at[0] >= THAW_SECS


def thaw() -> None:
    """Scan everything once (cycles among frozen objects are freed), then freeze the survivors."""
    _thawed_at[0] = time.monotonic()
    gc.unfreeze()
    gc.collect()  # its own "stop" freezes what survived when the callback is installed
    if _after_collection not in gc.callbacks:
        gc.freeze()
