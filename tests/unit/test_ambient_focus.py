"""Focus mode: session state, text for the surfaces, and the coach's rules."""

from __future__ import annotations

import json

import pytest

from keeltui.ambient.window import WindowSnapshot
from keeltui.ambient.focus import (
    FocusBusyError,
    FocusCoach,
    FocusSession,
    begin_focus,
    focus_report_text,
    focus_status_text,
    is_over,
    time_left,
)

T0 = 1_700_000_000.0
NUDGE = "Reddit is not the report; back to section two?"


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


class Judge:
    def __init__(self, *answers) -> None:
        self.answers = list(answers)
        self.calls: list[tuple[str, list[str]]] = []

    async def __call__(self, commitment, titles):
        self.calls.append((commitment, titles))
        answer = self.answers.pop(0) if self.answers else ""
        if isinstance(answer, BaseException):
            raise answer
        return answer


def win(title: str, wm_class: str = "firefox") -> WindowSnapshot:
    return WindowSnapshot(wm_class, title, 0.0)


def coach(*answers, **kwargs) -> tuple[FocusCoach, Clock, Judge]:
    clock, judge = Clock(), Judge(*answers)
    c = FocusCoach(clock, judge, grace_secs=90, nudge_debounce_secs=300, **kwargs)
    c.sync(FocusSession("write the report", T0, 50))
    return c, clock, judge


# ---------------------------------------------------------------- session


def test_session_round_trips_through_json():
    session = FocusSession("write the report", T0, 25, drifts=2, last_nudge_at=T0 + 60)
    data = json.loads(json.dumps(session.to_dict()))
    assert FocusSession.from_dict(data) == session
    assert FocusSession.from_dict({"commitment": "x", "started_at": T0}) == FocusSession("x", T0)


@pytest.mark.parametrize(
    "bad",
    [None, [], {}, {"commitment": "x"}, {"commitment": "", "started_at": 1}, {"commitment": "x", "started_at": "soon"}],
)
def test_session_from_bad_data(bad):
    with pytest.raises(ValueError):
        FocusSession.from_dict(bad)


def test_time_left():
    session = FocusSession("x", T0, 25)
    assert time_left(session, T0) == 25 * 60
    assert time_left(session, T0 + 600) == 15 * 60
    assert time_left(session, T0 + 9999) == 0
    assert time_left(FocusSession("x", T0), T0 + 600) is None
    assert is_over(session, T0 + 1500) and not is_over(session, T0 + 1499)
    assert not is_over(FocusSession("x", T0), T0 + 10**6)


def test_begin_focus_refuses_by_name():
    running = FocusSession("write the report", T0, 50)
    with pytest.raises(FocusBusyError, match='"write the report"'):
        begin_focus(running, "something else", None, T0 + 60)
    # An open-ended session never runs out.
    with pytest.raises(FocusBusyError):
        begin_focus(FocusSession("open", T0), "next", None, T0 + 10**6)
    # A finished timed session does not block the next one.
    new = begin_focus(running, "  next thing  ", 25, T0 + 50 * 60)
    assert new == FocusSession("next thing", T0 + 3000, 25.0)


@pytest.mark.parametrize(("commitment", "minutes"), [("", None), ("   ", 10), ("ok", 0), ("ok", -5), ("ok", float("nan"))])
def test_begin_focus_validates(commitment, minutes):
    with pytest.raises(ValueError):
        begin_focus(None, commitment, minutes, T0)


# ---------------------------------------------------------------- text


def test_focus_status_text():
    session = FocusSession("write the report", T0, 25)
    assert focus_status_text(session, T0 + 120, "") == "◎ Focus: write the report · 23m left"
    assert focus_status_text(session, T0 + 1490, "") == "◎ Focus: write the report · 1m left"  # rounds up
    assert focus_status_text(session, T0 + 1500, "") == "◎ Focus: write the report · time's up"
    assert focus_status_text(session, T0 + 120, NUDGE) == f"◎ Focus: write the report · 23m left · ⚠ {NUDGE}"
    assert focus_status_text(FocusSession("deep work", T0), T0 + 12 * 60, "") == "◎ Focus: deep work · 12m in"
    assert focus_status_text(FocusSession("x", T0, 90), T0, "") == "◎ Focus: x · 1h 30m left"


def test_focus_status_text_is_clean_and_bounded():
    text = focus_status_text(FocusSession("a" * 500, T0), T0, "\x1b[31mred\nline")
    assert "\x1b" not in text and "\n" not in text
    assert text.endswith("⚠ red line")
    assert len(text) < 120


def test_focus_report_text():
    session = FocusSession("write the report", T0, 50, drifts=2)
    assert focus_report_text(session, T0 + 47 * 60) == 'Focus session ended: "write the report" — 47m of 50m planned, 2 drifts.'
    assert focus_report_text(FocusSession("x", T0, drifts=1), T0 + 30) == 'Focus session ended: "x" — 30s, 1 drift.'
    assert focus_report_text(FocusSession("x", T0), T0 - 5).endswith("— 0s, no drifts.")


# ---------------------------------------------------------------- coach


async def test_on_task_windows_never_call_the_judge():
    c, clock, judge = coach(NUDGE)
    for i in range(5):
        c.on_window(win(f"report.md - vim {i}", "XTerm"))
        clock.now += 600
        assert await c.tick() == ""
    assert judge.calls == []


async def test_off_task_within_grace_is_not_judged():
    c, clock, judge = coach(NUDGE)
    c.on_window(win("Reddit - r/pics"))
    clock.now += 89
    assert await c.tick() == ""
    assert judge.calls == []
    assert c.off_task_since == T0


async def test_off_task_past_grace_asks_the_judge_and_counts_a_drift():
    c, clock, judge = coach(NUDGE)
    c.on_window(win("report.md - vim"))
    c.on_window(win("Reddit - r/pics"))
    clock.now += 90
    assert await c.tick() == NUDGE
    assert judge.calls == [("write the report", ["report.md - vim", "Reddit - r/pics"])]
    assert c.session.drifts == 1 and c.session.last_nudge_at == clock.now


async def test_nudges_are_debounced():
    c, clock, judge = coach(NUDGE, NUDGE, NUDGE)
    c.on_window(win("Reddit"))
    clock.now += 100
    await c.tick()
    for _ in range(4):  # every minute for four minutes: no new judgement
        clock.now += 60
        c.on_window(win(f"Reddit {clock.now}"))
        assert await c.tick() == NUDGE
    assert len(judge.calls) == 1
    clock.now += 60  # five minutes after the first nudge
    await c.tick()
    assert len(judge.calls) == 2 and c.session.drifts == 2


async def test_judge_says_fine_then_it_is_left_alone_for_a_while():
    c, clock, judge = coach("", NUDGE)
    c.on_window(win("Stack Overflow - python asyncio"))
    clock.now += 100
    assert await c.tick() == ""
    clock.now += 60
    assert await c.tick() == ""
    assert len(judge.calls) == 1 and c.session.drifts == 0


async def test_back_on_task_clears_the_line_at_once():
    c, clock, _judge = coach(NUDGE)
    c.on_window(win("Reddit"))
    clock.now += 100
    assert await c.tick() == NUDGE
    c.on_window(win("report draft - LibreOffice"))
    assert c.line == "" and c.off_task_since is None
    assert await c.tick() == ""


async def test_judge_errors_keep_the_prior_line_and_invent_nothing():
    c, clock, _judge = coach(NUDGE, RuntimeError("brain offline"))
    c.on_window(win("Reddit"))
    clock.now += 100
    assert await c.tick() == NUDGE
    clock.now += 400
    assert await c.tick() == NUDGE
    assert c.session.drifts == 1
    assert "brain offline" in c.last_error

    c2, clock2, _ = coach(RuntimeError("down"))
    c2.on_window(win("Reddit"))
    clock2.now += 100
    assert await c2.tick() == ""
    assert c2.session.drifts == 0


async def test_no_session_no_coaching():
    clock, judge = Clock(), Judge(NUDGE)
    c = FocusCoach(clock, judge)
    c.on_window(win("Reddit"))
    clock.now += 1000
    assert await c.tick() == ""
    assert judge.calls == []


async def test_sync_is_idempotent_and_a_new_session_starts_afresh():
    c, clock, _judge = coach(NUDGE)
    c.on_window(win("Reddit"))
    clock.now += 100
    await c.tick()
    # The store hands back the same session (stale drift count): live state wins.
    c.sync(FocusSession("write the report", T0, 50, drifts=0))
    assert c.line == NUDGE and c.session.drifts == 1
    c.sync(FocusSession("read a paper", clock.now, None))
    assert c.line == "" and c.off_task_since is None
    c.sync(None)
    assert c.session is None and await c.tick() == ""


async def test_excluded_windows_are_not_drift():
    c, clock, judge = coach(NUDGE)
    c.on_window(win("excluded", "firefox"))
    clock.now += 1000
    assert await c.tick() == ""
    assert judge.calls == []


def test_short_stopwords_never_make_a_title_on_task():
    from keeltui.ambient.window import WindowSnapshot
    from keeltui.ambient.judges import on_task

    snapshot = WindowSnapshot("firefox", "Reddit - the front page of the internet", 0.0)
    assert not on_task("write the grant report", snapshot)
    assert on_task("write the grant report", WindowSnapshot("code", "grant_report.md — vim", 0.0))
