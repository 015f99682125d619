"""The day's timeline read from the store (for ``keeltui day`` and the day view).

The records are the store's; what only the running app knows (the open drift
episode, the current away period, the evidence since the last tick) comes in as a
:class:`~keeltui.ambient.timeline.Live`. The running focus session is in the store,
so even ``keeltui day`` in another shell counts it up to now.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from keeltui.services import ambient_state as state
from keeltui.ambient.day import QUERY_AFTER, QUERY_BEFORE, QUERY_KINDS
from keeltui.ambient.timeline import Live, Timeline, build_timeline

if TYPE_CHECKING:
    from keeltui.store import Store


def with_running_focus(store: Store, live: Live) -> Live:
    """``live`` plus the stored running focus session (a timed one ends at its planned end)."""
    session = state.current_session(store)
    if session is None:
        return live
    until = session.started_at + session.minutes * 60 if session.minutes else None
    return replace(live, focus_since=session.started_at, focus_until=until, focus_commitment=session.commitment)


def day_timeline(store: Store, start: float, end: float, live: Live) -> Timeline:
    records = store.events_between(QUERY_KINDS, start - QUERY_BEFORE, end + QUERY_AFTER)
    return build_timeline(records, start, end, with_running_focus(store, live))
