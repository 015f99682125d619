"""The evidence ticks keeltui stores while it watches (keeltui.services.evidence_ticks):
a tick on a new window and once a minute, none while the source is silent, a closing
tick at the end, and a private window's class kept out."""

from __future__ import annotations

from keeltui.ambient.timeline import PRIVATE_CLASS, TICK_KIND, build_timeline
from keeltui.ambient.window import EXCLUDED, WindowSnapshot
from keeltui.services.evidence_ticks import EVERY_SECS, EvidenceTicks


class Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_ticks_cover_what_was_seen_and_keep_private_classes_out():
    clock, written = Clock(), []
    ticks = EvidenceTicks(lambda kind, data: written.append({"kind": kind, "data": data}), clock, poll_secs=5)
    ticks.tick()
    assert written == []  # nothing read yet: no evidence
    ticks.seen(WindowSnapshot("xterm", "vim notes.md", clock.now))
    ticks.tick()
    clock.now += 30
    ticks.seen(WindowSnapshot("keepassxc", EXCLUDED, clock.now))
    ticks.tick()  # a new window: at once
    clock.now += 20
    ticks.seen(WindowSnapshot("keepassxc", EXCLUDED, clock.now))
    ticks.tick()  # the same window, before the minute: nothing
    clock.now += EVERY_SECS
    ticks.tick()  # the source went silent for a minute: nothing either
    assert [w["data"]["class"] for w in written] == ["xterm", ""]
    ticks.close()
    assert written[-1]["data"] == {"at": clock.now, "end": True} and {w["kind"] for w in written} == {TICK_KIND}
    day = build_timeline(written, 1000.0, clock.now)
    # The private tick holds until the closing tick (at most its span): 20 s read + 60 s.
    assert day.apps == {"xterm": 30, PRIVATE_CLASS: 80}


def test_nothing_is_stored_after_the_closing_tick():
    # The poll thread ticks after each read; the app closes on the event loop. A read that
    # lands after the exit began must not store a tick past the end (the day would show
    # keeltui watching for a minute and a half after it stopped).
    clock, written = Clock(), []
    ticks = EvidenceTicks(lambda kind, data: written.append(data), clock, poll_secs=5)
    ticks.seen(WindowSnapshot("xterm", "vim", clock.now))
    ticks.tick()
    clock.now += 5
    ticks.close()
    ticks.seen(WindowSnapshot("firefox", "news", clock.now))
    ticks.tick()
    clock.now += EVERY_SECS
    ticks.tick()
    assert [("end" in data, data.get("class")) for data in written] == [(False, "xterm"), (True, None)]
