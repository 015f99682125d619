"""A synthetic 8-hour day replayed through the real ``keeltui.sentinel.Sentinel``.

A fake clock, evidence every 5 s (the default poll), a tick every 300 s (the default
cadence), a counting fake judge (drift when the latest title is a time sink) and a
counting fake notifier. Runs in well under a second; no Textual, no network.

The day: deep work, lunch away from the keyboard with a YouTube tab left in front,
a few drift episodes (a short glance that never lasts a tick, and longer slides),
mixed work and an away stretch with the editor focused. Each snapshot carries the
idle time (as the X11, tmux and command sources do); the sentinel is told when the
owner is away exactly as the app's controller tells it (``ambient.away_after_secs``).
Targets: steady deep work costs zero brain calls once judged, zero judge calls while
away, one toast per sustained drift episode, no toast for the glance.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

POLL_SECS = 5
CADENCE_SECS = 300
DAY_START = 9 * 3600
SINKS = ("youtube", "reddit", "twitter", "hacker news", "netflix")

# (minutes, kind, [(wm_class, title), ...] cycled each poll; the kind labels the stretch)
EDITOR = ("code", "sentinel.py — keeltui — Visual Studio Code")
TERM = ("xterm", "pytest -q — keeltui")
DOCS = ("firefox", "asyncio — Event Loop — Python 3.11 docs — Mozilla Firefox")
YOUTUBE = ("firefox", "Top 10 keyboard builds — YouTube — Mozilla Firefox")
REDDIT = ("firefox", "r/mechanicalkeyboards — Reddit — Mozilla Firefox")
HN = ("firefox", "Hacker News — Mozilla Firefox")
AWAY_AFTER_SECS = 300  # the default of ambient.away_after_secs

DAY: list[tuple[int, str, list[tuple[str, str]]]] = [
    (95, "deep", [EDITOR]),
    (20, "mixed", [EDITOR, TERM, DOCS]),
    (3, "glance", [HN]),
    (62, "deep", [EDITOR]),
    (45, "away", [YOUTUBE]),  # lunch: the YouTube tab stays in front, nobody at the keyboard
    (25, "drift", [YOUTUBE]),
    (80, "deep", [TERM]),
    (30, "drift", [REDDIT, YOUTUBE]),
    (80, "deep", [EDITOR]),
    (20, "away", [EDITOR]),  # away from the keyboard with the editor still focused
    (20, "drift", [HN]),
]
assert sum(m for m, _, _ in DAY) == 480, "an 8-hour day"


@dataclass
class Tally:
    calls_by_kind: dict[str, int] = field(default_factory=dict)
    ticks_by_kind: dict[str, int] = field(default_factory=dict)
    steady_calls: dict[str, int] = field(default_factory=dict)
    """Calls after the first tick of a deep stretch: must be zero."""
    away_calls: int = 0
    """Judge calls on ticks while the sentinel knew the owner was away: must be zero."""
    away_ticks: int = 0
    toasts: int = 0
    episodes: int = 0
    nudges: int = 0
    ticks: int = 0
    drift_stretches: int = 0
    sustained_drifts: int = 0

    @property
    def calls(self) -> int:
        return sum(self.calls_by_kind.values())


class _Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class _Notifier:
    name = "bench-counter"

    def __init__(self, tally: Tally) -> None:
        self.tally = tally

    def notify(self, title: str, body: str) -> None:
        self.tally.toasts += 1


def replay() -> Tally:
    from keeltui.ambient.window import WindowSnapshot, is_away
    from keeltui.sentinel import Sentinel

    tally = Tally()
    clock = _Clock(float(DAY_START))
    calls = {"n": 0}

    async def judge(frame: str, titles: list[str]) -> str:
        calls["n"] += 1
        latest = titles[-1].lower() if titles else ""
        return "Back to the sentinel work?" if any(s in latest for s in SINKS) else ""

    def record_event(kind: str, data: dict) -> None:
        if kind == "ambient_nudge":
            tally.nudges += 1

    sentinel = Sentinel(
        clock=clock, judge=judge, frame=lambda: "Today: ship the bench for keeltui.",
        notifier=_Notifier(tally), record_event=record_event, focus_active=lambda: False,
        mode="notify", cadence_secs=CADENCE_SECS,
    )
    state = {"line": ""}

    def on_change() -> None:
        if sentinel.line and not state["line"]:
            tally.episodes += 1
        state["line"] = sentinel.line

    sentinel.add_on_change(on_change)

    async def day() -> None:
        next_tick = DAY_START + CADENCE_SECS
        for minutes, kind, windows in DAY:
            if kind == "drift":
                tally.drift_stretches += 1
                if minutes * 60 >= 2 * CADENCE_SECS:
                    tally.sustained_drifts += 1
            start = clock.now
            end = clock.now + minutes * 60
            first_tick = True
            i = 0
            while clock.now < end:
                wm_class, title = windows[i % len(windows)]
                # Input stops at the start of an away stretch; otherwise someone is typing.
                idle = clock.now - start if kind == "away" else 0.0
                snapshot = WindowSnapshot(wm_class, title, clock.now, idle_secs=idle)
                if is_away(snapshot, AWAY_AFTER_SECS) != sentinel.away:
                    # Away since the last input, as the app tells it (ignored on return).
                    sentinel.set_away(not sentinel.away, snapshot.at - idle)
                sentinel.on_window(snapshot)
                i += 1
                clock.now += POLL_SECS
                if clock.now >= next_tick:
                    next_tick += CADENCE_SECS
                    before = calls["n"]
                    away = sentinel.away
                    await sentinel.evaluate()
                    made = calls["n"] - before
                    if away:
                        tally.away_ticks += 1
                        tally.away_calls += made
                    tally.ticks += 1
                    tally.ticks_by_kind[kind] = tally.ticks_by_kind.get(kind, 0) + 1
                    tally.calls_by_kind[kind] = tally.calls_by_kind.get(kind, 0) + made
                    if kind == "deep" and not first_tick:
                        tally.steady_calls[kind] = tally.steady_calls.get(kind, 0) + made
                    first_tick = False

    asyncio.run(day())
    return tally


def run(ctx) -> None:
    """The ``make bench`` entry: record the day's figures."""
    import importlib.util

    from bench.context import err

    if importlib.util.find_spec("keeltui.sentinel") is None:
        ctx.results.note("sentinel", "keeltui/sentinel.py does not exist: the day was not replayed.")
        return
    try:
        tally = replay()
    except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
        ctx.results.fail("sentinel.calls", err(exc))
        ctx.say(f"sentinel day failed: {err(exc)}")
        return
    r = ctx.results
    r.add("sentinel.calls", tally.calls)
    r.add("sentinel.ticks", tally.ticks)
    r.add("sentinel.toasts", tally.toasts)
    r.add("sentinel.episodes", tally.episodes)
    r.add("sentinel.nudges", tally.nudges)
    r.add("sentinel.steady_calls", sum(tally.steady_calls.values()))
    r.add("sentinel.away_calls", tally.away_calls)
    r.facts["sentinel.tally"] = tally
    ctx.say(
        f"sentinel day: {tally.calls} brain calls over {tally.ticks} ticks, {tally.toasts} toasts, "
        f"{tally.episodes} episodes, {sum(tally.steady_calls.values())} calls in steady deep work, "
        f"{tally.away_calls} calls over {tally.away_ticks} ticks while away"
    )


if __name__ == "__main__":
    t = replay()
    print(t)
