"""The sentinel's trigger discipline, one rule per test.

Fakes: a settable clock, a scripted async judge with a call counter, a
recording notifier, a recorded event list and a focus stub. No timing is
asserted; the only real waits are a judge that never answers (timeout test)
and the run loop with a tiny cadence, both bounded by events, not clocks.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from keeltui.ambient.window import WindowSnapshot
from keeltui.ambient.modes import AMBIENT_MODES, parse_cadence, parse_mode
from keeltui.sentinel import NUDGE_EVENT, Sentinel

DRIFT = "You have been on YouTube for a while; the report is waiting."


class FakeClock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class ScriptedJudge:
    """Answers from a script; an Exception instance is raised, HANG never returns."""

    HANG = object()

    def __init__(self, *answers) -> None:
        self.answers = list(answers)
        self.calls: list[tuple[str, list[str]]] = []

    @property
    def count(self) -> int:
        return len(self.calls)

    def then(self, *answers) -> ScriptedJudge:
        self.answers.extend(answers)
        return self

    async def __call__(self, frame: str, titles: list[str]) -> str:
        self.calls.append((frame, list(titles)))
        answer = self.answers.pop(0) if self.answers else ""
        if answer is self.HANG:
            await asyncio.Event().wait()
        if isinstance(answer, BaseException):
            raise answer
        return answer


class RecordingNotifier:
    name = "recording"

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def notify(self, title: str, body: str) -> None:
        self.sent.append((title, body))


def nudges(h) -> int:
    return sum(1 for kind, _ in h.events if kind == NUDGE_EVENT)


class Harness:
    """A sentinel wired to fakes, plus helpers to feed windows."""

    def __init__(self, *answers, mode: str = "notify", **kwargs) -> None:
        self.clock = FakeClock()
        self.judge = ScriptedJudge(*answers)
        self.notifier = RecordingNotifier()
        self.events: list[tuple[str, dict]] = []
        self.focus = False
        self.changes = 0
        self.sentinel = Sentinel(
            clock=self.clock,
            judge=self.judge,
            frame=lambda: "## Today's tasks\n\n- write the quarterly report",
            notifier=self.notifier,
            record_event=lambda kind, data: self.events.append((kind, data)),
            focus_active=lambda: self.focus,
            mode=mode,
            **kwargs,
        )
        self.sentinel.add_on_change(self._changed)
        self.n = 0

    def _changed(self) -> None:
        self.changes += 1

    def window(self, title: str | None = None, wm_class: str = "firefox") -> None:
        """A new, distinct window (so the ring changes)."""
        self.n += 1
        self.sentinel.on_window(WindowSnapshot(wm_class, f"YouTube - video {self.n}" if title is None else title, self.clock.now))

    async def tick(self, *, new_window: bool = True) -> None:
        if new_window:
            self.window()
        self.clock.now += 300
        await self.sentinel.evaluate()


# ---------------------------------------------------------------- the episode


async def test_on_track_sets_nothing():
    h = Harness("")
    await h.tick()
    assert h.judge.count == 1
    assert h.sentinel.line == ""
    assert h.notifier.sent == [] and h.events == [] and h.changes == 0


async def test_single_drift_tick_sets_line_without_toast_or_event():
    h = Harness(DRIFT)
    await h.tick()
    assert h.sentinel.line == DRIFT
    assert h.notifier.sent == []
    assert h.events == []
    assert h.changes == 1


async def test_two_drift_ticks_one_toast_one_event():
    h = Harness(DRIFT, DRIFT)
    await h.tick()
    await h.tick()
    assert h.sentinel.line == DRIFT
    assert h.notifier.sent == [("keeltui", DRIFT)]
    assert len(h.events) == 1
    kind, data = h.events[0]
    assert kind == NUDGE_EVENT == "ambient_nudge"
    assert data == {"message": DRIFT, "title": "YouTube - video 2", "class": "firefox"}


async def test_third_drift_tick_still_one_toast():
    h = Harness(DRIFT, DRIFT, DRIFT)
    for _ in range(3):
        await h.tick()
    assert len(h.notifier.sent) == 1
    # One record per episode, not one per check.
    assert nudges(h) == 1


async def test_back_on_track_clears_and_a_new_episode_toasts_again():
    h = Harness(DRIFT, DRIFT, "", DRIFT, DRIFT)
    await h.tick()
    await h.tick()
    assert len(h.notifier.sent) == 1
    await h.tick()  # on-track
    assert h.sentinel.line == ""
    assert h.changes == 2  # set, then cleared
    await h.tick()  # new episode: line, no toast yet
    assert h.sentinel.line == DRIFT
    assert len(h.notifier.sent) == 1
    await h.tick()  # sustained again: the second episode's one toast
    assert len(h.notifier.sent) == 2


async def test_a_glance_resolved_before_the_second_tick_never_toasts():
    h = Harness(DRIFT, "", DRIFT, "")
    for _ in range(4):
        await h.tick()
    assert h.notifier.sent == [] and nudges(h) == 0


# ---------------------------------------------------------------- gates


async def test_focus_active_no_judge_call_and_line_cleared():
    h = Harness(DRIFT)
    await h.tick()
    assert h.sentinel.line == DRIFT
    h.focus = True
    await h.tick()
    assert h.judge.count == 1
    assert h.sentinel.line == ""
    assert h.changes == 2


async def test_focus_ends_the_episode():
    h = Harness(DRIFT, DRIFT)
    await h.tick()
    h.focus = True
    await h.tick()
    h.focus = False
    await h.tick()  # a fresh episode's first tick: no toast
    assert h.notifier.sent == [] and nudges(h) == 0


async def test_focus_stub_raising_is_a_quiet_tick():
    h = Harness(DRIFT)

    def broken() -> bool:
        raise RuntimeError("store is locked")

    h.sentinel._focus_active = broken
    await h.tick()
    assert h.judge.count == 0 and h.sentinel.line == ""


async def test_mode_status_sets_line_never_toasts_but_records():
    h = Harness(DRIFT, DRIFT, DRIFT, mode="status")
    for _ in range(3):
        await h.tick()
    assert h.sentinel.line == DRIFT
    assert h.notifier.sent == []
    assert nudges(h) == 1


async def test_mode_off_no_judge_call():
    h = Harness(DRIFT, mode="off")
    for _ in range(3):
        await h.tick()
    assert h.judge.count == 0
    assert h.sentinel.line == ""


async def test_snooze_silences_then_resumes():
    h = Harness(DRIFT, DRIFT, DRIFT)
    await h.tick()
    assert h.sentinel.line == DRIFT
    h.sentinel.snooze(h.clock.now + 3600)
    assert h.sentinel.line == "" and h.sentinel.snoozed
    for _ in range(3):  # 900 s of ticks inside the hour
        await h.tick()
    assert h.judge.count == 1
    assert h.sentinel.line == ""
    h.clock.now += 3600
    await h.tick()  # after the window: a fresh episode, line but no toast
    assert h.judge.count == 2
    assert h.sentinel.line == DRIFT
    assert h.notifier.sent == []


async def test_snooze_is_idempotent_for_the_same_value():
    h = Harness(DRIFT)
    await h.tick()
    until = h.clock.now + 3600
    h.sentinel.snooze(until)
    changes = h.changes
    h.sentinel.snooze(until)
    h.sentinel.snooze(until)
    assert h.changes == changes
    assert h.sentinel.snooze_until == until


async def test_snooze_in_the_past_lifts_it():
    h = Harness(DRIFT)
    h.sentinel.snooze(h.clock.now + 3600)
    h.sentinel.snooze(0)
    assert not h.sentinel.snoozed
    await h.tick()
    assert h.judge.count == 1


async def test_cheap_gate_unchanged_ring_on_track_skips_the_judge():
    h = Harness("", "")
    await h.tick()
    assert h.judge.count == 1
    for _ in range(5):
        await h.tick(new_window=False)
    assert h.judge.count == 1
    # A repeat of the last window is deduplicated, so it does not open the gate.
    h.window(title="YouTube - video 1")
    await h.tick(new_window=False)
    assert h.judge.count == 1
    await h.tick()  # a new title opens it
    assert h.judge.count == 2


async def test_cheap_gate_unchanged_ring_while_drifting_is_rejudged():
    h = Harness(DRIFT, DRIFT)
    await h.tick()
    await h.tick(new_window=False)
    assert h.judge.count == 2
    assert len(h.notifier.sent) == 1  # an unresolved drift is still a sustained one


async def test_empty_ring_never_calls_the_judge():
    h = Harness(DRIFT)
    for _ in range(3):
        h.clock.now += 300
        await h.sentinel.evaluate()
    assert h.judge.count == 0


# ---------------------------------------------------------------- failures


async def test_judge_raising_keeps_the_prior_line_and_invents_nothing(caplog):
    h = Harness(DRIFT, RuntimeError("connection refused"), RuntimeError("connection refused"))
    await h.tick()
    with caplog.at_level(logging.WARNING, logger="keeltui.sentinel"):
        await h.tick(new_window=False)  # the same evidence: the line may stand
    assert h.sentinel.line == DRIFT
    assert h.notifier.sent == [] and h.events == []
    assert "connection refused" in h.sentinel.last_error
    assert len([r for r in caplog.records if r.name == "keeltui.sentinel"]) == 1


async def test_judge_raising_while_on_track_invents_no_drift():
    h = Harness(ValueError("no JSON"))
    await h.tick()
    assert h.sentinel.line == "" and h.changes == 0
    assert h.sentinel.last_error


async def test_judge_timeout_keeps_the_prior_line():
    h = Harness(DRIFT, ScriptedJudge.HANG, judge_timeout=0.01)
    await h.tick()
    await h.tick(new_window=False)
    assert h.sentinel.line == DRIFT
    assert h.sentinel.last_error == "timed out"
    assert h.notifier.sent == []


async def test_a_success_clears_last_error():
    h = Harness(RuntimeError("down"), "")
    await h.tick()
    assert h.sentinel.last_error
    await h.tick()
    assert h.sentinel.last_error == ""


async def test_failing_surfaces_do_not_break_the_tick():
    class BrokenNotifier:
        name = "broken"

        def notify(self, title, body):
            raise OSError("bus gone")

    h = Harness(DRIFT, DRIFT)
    h.sentinel._notifier = BrokenNotifier()
    h.sentinel._record_event = lambda kind, data: (_ for _ in ()).throw(RuntimeError("db locked"))
    h.sentinel.add_on_change(lambda: 1 / 0)
    await h.tick()
    await h.tick()
    assert h.sentinel.line == DRIFT


async def test_judge_answer_is_cleaned_before_it_is_shown():
    h = Harness("\x1b[31mred\x1b[0m\nline two\x00")
    await h.tick()
    assert h.sentinel.line == "red line two"


async def test_snooze_during_a_judgement_discards_its_answer():
    h = Harness()
    release = asyncio.Event()

    async def slow(frame, titles):
        await release.wait()
        return DRIFT

    h.sentinel.set_judge(slow, "slow")
    h.window()
    task = asyncio.create_task(h.sentinel.evaluate())
    await asyncio.sleep(0)
    h.sentinel.snooze(h.clock.now + 3600)
    release.set()
    await task
    assert h.sentinel.line == ""


async def test_focus_started_during_a_judgement_discards_its_answer():
    h = Harness()

    async def judge(frame, titles):
        h.focus = True  # the owner starts focus while the brain thinks
        return DRIFT

    h.sentinel.set_judge(judge, "test")
    await h.tick()
    assert h.sentinel.line == ""


# ---------------------------------------------------------------- ring, config


def test_ring_deduplicates_consecutive_titles_and_is_capped():
    h = Harness(ring_size=3)
    for title in ["a", "a", "b", "a", "c", "d", "d"]:
        h.window(title=title)
    assert h.sentinel.ring == ("a", "c", "d")


def test_ring_uses_the_class_when_the_title_is_empty():
    h = Harness()
    h.window(title="", wm_class="Steam")
    h.sentinel.on_window(WindowSnapshot("", "", 0))
    assert h.sentinel.ring == ("[Steam]",)


async def test_set_config_applies_live():
    h = Harness(DRIFT, DRIFT, DRIFT, mode="status")
    await h.tick()
    await h.tick()
    assert h.notifier.sent == []
    h.sentinel.set_config("notify", 60)
    assert h.sentinel.mode == "notify" and h.sentinel.cadence_secs == 60
    await h.tick()  # same episode, now in notify mode: its one toast
    assert len(h.notifier.sent) == 1
    h.sentinel.set_config("off", 60)
    assert h.sentinel.line == ""
    await h.tick()
    assert h.judge.count == 3


def test_set_config_validates():
    h = Harness()
    with pytest.raises(ValueError, match="off, status, notify"):
        h.sentinel.set_config("loud", 60)
    assert h.sentinel.mode == "notify"
    h.sentinel.set_config("STATUS", 0)
    assert h.sentinel.mode == "status" and h.sentinel.cadence_secs == 300
    h.sentinel.set_config("notify", -5)
    assert h.sentinel.cadence_secs == 300


def test_constructor_rejects_an_unknown_mode():
    with pytest.raises(ValueError):
        Harness(mode="shout")


async def test_quiet_mode_holds_the_toast_but_not_the_record():
    h = Harness(DRIFT, DRIFT, DRIFT)
    h.sentinel.quiet = True  # the value the app sets (attributes down)
    await h.tick()
    await h.tick()
    assert h.notifier.sent == [] and len(h.events) == 1
    h.sentinel.quiet = False
    await h.tick()
    assert len(h.notifier.sent) == 1


# ---------------------------------------------------------------- run loop


async def test_run_loop_evaluates_until_stopped():
    h = Harness(cadence_secs=0.001)
    stop = asyncio.Event()
    seen: list[list[str]] = []

    async def judge(frame, titles):
        seen.append(titles)
        h.window()  # keep the ring moving so the gate opens every tick
        if len(seen) == 3:
            stop.set()
        return ""

    h.sentinel.set_judge(judge, "test")
    h.window()
    await asyncio.wait_for(h.sentinel.run(stop), timeout=30)
    assert len(seen) == 3


async def test_run_loop_picks_up_a_new_cadence_without_restart():
    h = Harness(cadence_secs=3600)
    stop = asyncio.Event()
    called = asyncio.Event()

    async def judge(frame, titles):
        called.set()
        stop.set()
        return ""

    h.sentinel.set_judge(judge, "test")
    h.window()
    runner = asyncio.create_task(h.sentinel.run(stop))
    await asyncio.sleep(0)
    # The hour-long wait is woken and re-measured against the new cadence
    # (the sentinel keeps fractional seconds, which keeps this test fast).
    h.sentinel.set_config("notify", 0.001)
    await asyncio.wait_for(called.wait(), timeout=30)
    await asyncio.wait_for(runner, timeout=30)


# ---------------------------------------------------------------- modes module


def test_parse_mode_and_cadence():
    assert AMBIENT_MODES == ("off", "status", "notify")
    assert parse_mode(" Notify ") == "notify"
    for bad in ("", "loud", None, 3):
        with pytest.raises(ValueError, match="allowed values are off, status, notify"):
            parse_mode(bad)
    assert parse_cadence(60) == 60
    assert parse_cadence("90") == 90
    assert parse_cadence(0.5) == 1
    for bad in (0, -1, "soon", None, float("nan"), float("inf"), True):
        assert parse_cadence(bad) == 300
