"""How long the keys typed right behind Ctrl+T may wait for the tutor.

The tutor pane mounts after the first frame; keys typed behind the first Ctrl+T (one read
over SSH) wait for it, in order, then go where it puts the keyboard. Handed on before it is
there, they go where the focus is: nowhere. On a loaded machine the mount alone can take
seconds, so the wait counts from the mount: a tutor that is there but never ready lets the
keys go after AFTER_TUTOR_SECS, one that never comes after AT_MOST_SECS.
"""

from __future__ import annotations

AFTER_TUTOR_SECS = 10.0
"""The tutor is mounted (or was when the keys began to wait) and has not said it is ready."""

AT_MOST_SECS = 60.0
"""The tutor never mounts: the keys are not held for ever."""

SAY_AFTER_SECS = 0.5
"""Keys held this long are said to be waiting (the status line): a pause the owner notices
must not look like keys lost. Shorter holds (the usual case, ~0.1 s) say nothing."""

WAITING_LINE = "the tutor is opening: what you type waits for it"


def hold_left(now: float, *, held_since: float, tutor_since: float | None) -> float:
    """Seconds the held keys may still wait (0 or less: hand them on now). ``tutor_since``
    is when the tutor pane mounted (None: not yet); all three on one monotonic clock."""
    end = held_since + AT_MOST_SECS
    if tutor_since is not None:
        end = min(end, max(held_since, tutor_since) + AFTER_TUTOR_SECS)
    return end - now
