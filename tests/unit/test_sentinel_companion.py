"""The sentinel as a day-long companion (issue 13): it re-judges after every change
of state, falls back to the local judge at once, weighs time, stays silent while
the owner is away, and stores one record per episode and away period."""

from __future__ import annotations

from keeltui.ambient.judges import LocalJudge, build_ambient_messages
from keeltui.ambient.window import Seen, WindowSnapshot, timed_titles
from keeltui.sentinel import AWAY_EVENT, EPISODE_EVENT, NUDGE_EVENT
from tests.unit.test_ambient_sentinel import DRIFT, Harness, ScriptedJudge


def kinds(h) -> list[str]:
    return [kind for kind, _ in h.events]


async def drifting(h) -> None:
    """Two ticks on the same YouTube window: the line stands, one toast."""
    await h.tick()
    await h.tick(new_window=False)
    assert h.sentinel.line == DRIFT


# ---------------------------------------------------------------- point 1: re-judge


async def test_a_drift_on_the_same_window_is_named_again_after_the_snooze_ends():
    h = Harness(DRIFT, DRIFT, DRIFT, DRIFT)
    await drifting(h)
    assert len(h.notifier.sent) == 1
    h.sentinel.snooze(h.clock.now + 400)
    assert h.sentinel.line == ""
    await h.tick(new_window=False)  # snoozed: nothing
    assert h.judge.count == 2
    h.clock.now += 100  # the snooze is over; still the same window
    await h.sentinel.evaluate()
    assert h.judge.count == 3 and h.sentinel.line == DRIFT
    await h.tick(new_window=False)  # sustained again: a new episode's one toast
    assert len(h.notifier.sent) == 2


async def test_snooze_off_re_judges_the_same_window():
    h = Harness(DRIFT, DRIFT, DRIFT)
    await drifting(h)
    h.sentinel.snooze(h.clock.now + 3600)
    await h.tick(new_window=False)
    h.sentinel.snooze(0)  # `keeltui snooze off`
    await h.tick(new_window=False)
    assert h.sentinel.line == DRIFT and h.judge.count == 3


async def test_focus_ended_re_judges_the_same_window():
    h = Harness(DRIFT, DRIFT, DRIFT)
    await drifting(h)
    h.focus = True
    await h.tick(new_window=False)
    h.focus = False
    await h.tick(new_window=False)
    assert h.sentinel.line == DRIFT and h.judge.count == 3


async def test_settings_judge_swap_and_a_failed_check_each_re_judge():
    h = Harness("", "", "", RuntimeError("down"), "")
    await h.tick()
    await h.tick(new_window=False)
    assert h.judge.count == 1  # the cheap gate
    h.sentinel.set_config("notify", 120)  # cadence changed
    await h.tick(new_window=False)
    assert h.judge.count == 2
    h.sentinel.set_judge(h.judge, "other")
    await h.tick(new_window=False)
    assert h.judge.count == 3
    await h.tick(new_window=False)  # nothing changed: the gate holds
    assert h.judge.count == 3
    h.sentinel.set_config("status", 120)
    await h.tick(new_window=False)  # fails
    assert h.judge.count == 4 and h.sentinel.last_error
    await h.tick(new_window=False)  # the last check failed: judge again
    assert h.judge.count == 5 and not h.sentinel.last_error


async def test_a_changed_frame_re_judges():
    h = Harness("", DRIFT)
    frame = ["- write the report"]
    h.sentinel._frame = lambda: frame[0]
    await h.tick()
    await h.tick(new_window=False)
    assert h.judge.count == 1
    frame[0] = "- nothing today"
    await h.tick(new_window=False)
    assert h.judge.count == 2 and h.sentinel.line == DRIFT


# ---------------------------------------------------------------- point 2: health


async def test_a_failing_brain_hands_over_to_the_local_judge_in_the_same_tick():
    local = ScriptedJudge(DRIFT, "")
    h = Harness(DRIFT, RuntimeError("connection refused"), fallback=local)
    await h.tick()
    await h.tick()  # the brain fails; the local judge answers at once
    assert h.sentinel.line == DRIFT and local.count == 1
    assert h.sentinel.judge_label == "local · brain unreachable"
    await h.tick()  # stays on the local judge: no timeout per tick on a dead brain
    assert h.judge.count == 2 and local.count == 2 and h.sentinel.line == ""
    brain = ScriptedJudge("")
    h.sentinel.set_judge(brain, "brain")  # the app saw the brain answer
    assert h.sentinel.judge_label == "brain"
    await h.tick(new_window=False)
    assert brain.count == 1


async def test_a_drift_line_is_not_held_after_the_evidence_changed_while_the_judge_is_dead():
    h = Harness(DRIFT, RuntimeError("down"))
    await h.tick()
    assert h.sentinel.line == DRIFT
    h.window("vim - report.md", wm_class="XTerm")  # back to work
    await h.tick(new_window=False)
    assert h.sentinel.line == ""


# ---------------------------------------------------------------- point 3: time


def test_titles_carry_how_long_and_how_long_ago():
    titles = timed_titles([("vim - report.md", 0.0), ("YouTube", 600.0)], now=2100.0)
    assert [(t, t.secs, t.ago) for t in titles] == [("vim - report.md", 600.0, 1500.0), ("YouTube", 1500.0, 0.0)]
    assert titles[1].describe() == "25m in front, now"
    assert titles[0].describe() == "10m in front, 25m ago"


async def test_the_judge_gets_the_time_of_each_title():
    h = Harness("")
    h.sentinel.on_window(WindowSnapshot("XTerm", "vim - report.md", h.clock.now))
    h.clock.now += 600
    h.sentinel.on_window(WindowSnapshot("firefox", "YouTube", h.clock.now))
    h.clock.now += 1500
    await h.sentinel.evaluate()
    sent = h.judge.calls[0][1]
    assert [(t, t.secs, t.ago) for t in sent] == [("vim - report.md", 600, 1500), ("YouTube", 1500, 0)]
    user = build_ambient_messages("frame", sent)[1]["content"]
    assert '"10m in front, 25m ago", "25m in front, now"' in user


def test_the_local_judge_weighs_time_not_counts():
    judge = LocalJudge(["youtube"])
    frame = "write the quarterly report"
    glances = [Seen("mail", 300, 1500), Seen("docs", 300, 1200), Seen("wiki", 300, 900), Seen("YouTube", 1500, 0)]
    assert judge.judge(frame, glances) != ""  # one long stay outweighs three short windows
    short = [Seen("mail", 900, 400), Seen("docs", 900, 100), Seen("wiki", 900, 10), Seen("YouTube", 5, 0)]
    assert judge.judge(frame, short) == ""  # a glance at a sink after real work


# ---------------------------------------------------------------- point 4: away


async def test_while_away_no_judge_no_drift_no_records_and_back_starts_fresh():
    h = Harness(DRIFT, DRIFT, "")
    await h.tick()
    assert h.sentinel.line == DRIFT
    h.sentinel.set_away(True)
    assert h.sentinel.line == "" and h.sentinel.away
    for _ in range(12):  # a YouTube tab left open over lunch
        await h.tick()
    assert h.judge.count == 1
    assert NUDGE_EVENT not in kinds(h) and h.notifier.sent == []
    h.sentinel.set_away(False)
    assert h.sentinel.ring == ("YouTube - video 13",)  # fresh: only the window in front now
    assert kinds(h).count(AWAY_EVENT) == 1
    away = dict(h.events)[AWAY_EVENT]
    assert away["secs"] == 12 * 300
    await h.tick()  # a first tick after lunch: a new episode's line, no toast
    assert h.judge.count == 2 and h.notifier.sent == []


# ---------------------------------------------------------------- point 5: records


async def test_one_record_per_episode_with_start_end_and_titles():
    h = Harness(DRIFT, DRIFT, DRIFT, "")
    start = h.clock.now + 300
    for _ in range(3):
        await h.tick()
    await h.tick()  # on-track: the episode ends
    assert kinds(h) == [NUDGE_EVENT, EPISODE_EVENT]
    episode = h.events[1][1]
    assert episode["start"] == start and episode["end"] == h.clock.now
    assert episode["secs"] == 900 and episode["sustained"] is True
    assert episode["titles"] == ["YouTube - video 1", "YouTube - video 2", "YouTube - video 3"]


async def test_an_excluded_window_records_neither_title_nor_class():
    h = Harness(DRIFT, DRIFT, "")
    for _ in range(2):
        h.sentinel.on_window(WindowSnapshot("KeePassXC", "excluded", h.clock.now))
        h.clock.now += 300
        await h.sentinel.evaluate()
        h.sentinel.on_window(WindowSnapshot("firefox", "YouTube", h.clock.now))
        h.sentinel.on_window(WindowSnapshot("KeePassXC", "excluded", h.clock.now))
    nudge = dict(h.events)[NUDGE_EVENT]
    assert nudge["title"] == "excluded" and nudge["class"] == ""
    h.sentinel.close()
    stored = repr(h.events)
    assert "KeePassXC" not in stored


async def test_a_new_window_under_a_drift_line_is_judged_at_once_not_at_the_next_tick():
    import asyncio

    h = Harness(DRIFT, "", cadence_secs=3600)  # the next cadence tick is an hour away
    await h.tick()
    assert h.sentinel.line == DRIFT
    stop = asyncio.Event()
    runner = asyncio.ensure_future(h.sentinel.run(stop))
    try:
        await asyncio.sleep(0)  # let the loop start waiting
        h.clock.now += 30  # the early judgement's own minimum gap has passed
        h.window("vim - report.md", wm_class="XTerm")  # back to work
        for _ in range(2000):  # bounded by a condition, not a clock
            if h.sentinel.line == "":
                break
            await asyncio.sleep(0.005)
        assert h.sentinel.line == "" and h.judge.count == 2
    finally:
        stop.set()
        await runner


async def test_flipping_windows_under_a_drift_line_is_not_judged_more_than_every_30_s():
    import asyncio

    h = Harness(DRIFT, DRIFT, DRIFT, cadence_secs=3600)
    await h.tick()
    stop = asyncio.Event()
    runner = asyncio.ensure_future(h.sentinel.run(stop))
    try:
        await asyncio.sleep(0)
        h.clock.now += 30
        h.window()  # judged early (the second call)
        for _ in range(2000):
            if h.judge.count == 2:
                break
            await asyncio.sleep(0.005)
        assert h.judge.count == 2
        for _ in range(5):  # more flips within the next 30 s (of the fake clock)
            h.clock.now += 1
            h.window()
            await asyncio.sleep(0.01)
        assert h.judge.count == 2
    finally:
        stop.set()
        await runner


async def test_the_local_judge_sees_a_stay_grow_long_without_a_new_window():
    h = Harness(judge_name="local")
    h.sentinel.set_judge(LocalJudge(["youtube"]).ajudge, "local")
    h.sentinel.on_window(WindowSnapshot("XTerm", "vim - report.md", h.clock.now))
    h.clock.now += 600
    h.sentinel.on_window(WindowSnapshot("firefox", "YouTube", h.clock.now))
    h.clock.now += 60
    await h.sentinel.evaluate()  # one minute of YouTube after ten of work: on track
    assert h.sentinel.line == ""
    h.clock.now += 1200  # the same window, twenty minutes later
    await h.sentinel.evaluate()
    assert h.sentinel.line.startswith("The last few windows have mostly been youtube")


async def test_back_from_away_at_the_same_window_judges_that_window_not_an_empty_ring():
    h = Harness(DRIFT, DRIFT)
    await h.tick()
    h.sentinel.set_away(True)
    h.clock.now += 900
    h.sentinel.set_away(False)  # the same tab still in front: no new window will come
    assert h.sentinel.ring == ("YouTube - video 1",)
    await h.tick(new_window=False)
    assert h.judge.count == 2
    assert h.judge.calls[-1][1] and "YouTube - video 1" in h.judge.calls[-1][1][-1]


async def test_the_judge_is_never_called_with_no_titles():
    h = Harness(DRIFT, DRIFT)
    h.sentinel.set_config("status", 60)  # a change of state with nothing seen yet
    await h.tick(new_window=False)
    h.sentinel.set_away(True)
    h.sentinel.set_away(False)  # back, and still no window was ever seen
    await h.tick(new_window=False)
    assert h.judge.calls == []


async def test_an_away_period_starts_at_the_last_input_not_when_it_was_noticed():
    h = Harness()
    noticed = h.clock.now
    h.sentinel.set_away(True, since=noticed - 300)  # idle for 300 s when the poll saw it
    h.clock.now += 600
    h.sentinel.set_away(False)
    away = dict(h.events)[AWAY_EVENT]
    assert away["start"] == noticed - 300 and away["secs"] == 900


async def test_a_drift_open_when_away_is_noticed_ends_where_the_away_period_begins():
    """The away period starts at the last input; the drift episode open then must end
    there too, or the day view counts the same minutes as drifting and away."""
    h = Harness(DRIFT, DRIFT, DRIFT)
    start = h.clock.now + 300
    for _ in range(3):
        await h.tick()  # a drift episode from ``start``, 900 s so far
    last_input = h.clock.now - 400
    h.sentinel.set_away(True, since=last_input)
    episode = dict(h.events)[EPISODE_EVENT]
    assert episode["start"] == start and episode["end"] == last_input
    assert episode["secs"] == last_input - start


async def test_an_away_period_from_before_the_episode_leaves_it_no_negative_length():
    h = Harness(DRIFT)
    await h.tick()
    h.clock.now += 500
    h.sentinel.set_away(True, since=h.clock.now - 10_000)  # idle since before the drift began
    episode = dict(h.events)[EPISODE_EVENT]
    assert episode["end"] == episode["start"] and episode["secs"] == 0
