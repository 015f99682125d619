"""When the ambient controller must look at the clock again, if at all.

Most of what the controller shows changes on an event (a window seen, the line, the brain,
the store); only three things change with time alone: a running focus session's time left
(and its end), and a snooze's end. Everything else waits for its event, so an app nobody
touches does not wake once a second for nothing.
"""

from __future__ import annotations

FOCUS_STEP_SECS = 1.0
"""A focus session's time left, and its end, are looked at this often while it runs."""

SNOOZE_STEP_SECS = 10.0
"""A snooze's end is looked at at least this often: the wall clock it is stored in can jump
(a laptop's sleep) while the event loop's monotonic timers do not count the sleep."""

SOONEST_SECS = 1.0
"""Never sooner than this after a look: a moment already past (a store that would not take a
write) is looked at again once a second, as before, never in a loop."""


def next_look(now: float, *, focus_running: bool, snooze_until: float | None) -> float | None:
    """Seconds from ``now`` until the next look, or None when only an event can change anything."""
    waits = []
    if focus_running:
        waits.append(FOCUS_STEP_SECS)
    if snooze_until is not None and snooze_until > now:
        waits.append(min(snooze_until - now, SNOOZE_STEP_SECS))
    if not waits:
        return None
    return max(SOONEST_SECS, min(waits))
