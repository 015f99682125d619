"""The tutor while things happen: streaming, the waiting indicator, stopping, keys in the pane."""

from __future__ import annotations

import threading

from textual.widgets import Button

from keeltui.services.ambient_state import SNOOZE_KEY
from keeltui.panes.tutor.quiz import QuizCard
from keeltui.panes.tutor.cards import ThinkingIndicator
from keeltui.tutor import transcript as tx
from tests.pilot.test_tutor_pane import SIZE, Scripted, idle, new_session, pane, quiz, rows
from keeltui_dev.loopback import Reply
from tests.support.pilot import screen_text, wait_for

WORDS = [f"word{n} " for n in range(60)]


def held(loopback, script: Scripted) -> threading.Event:
    """Hold every reply until the test sets the returned gate."""
    gate = threading.Event()

    def responder(request: dict) -> Reply:
        gate.wait(30)
        return script(request)

    loopback.responder = responder
    return gate


async def test_a_reply_streams_in_place_and_escape_stops_it(make_app, loopback):
    gate = held(loopback, Scripted(loopback, [Reply(chunks=WORDS, chunk_delay=0.1)]))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "streams")
        # From send to the first token: the indicator near the composer, Send visibly off.
        await wait_for(pilot, lambda: "Tutor is thinking…" in screen_text(app), what="the indicator")
        send = app.query_one("#tutor-composer #send", Button)
        assert send.disabled and "Wait…" in screen_text(app)
        assert app.query_one(ThinkingIndicator).running
        gate.set()
        # The reply grows on screen while it streams.
        await wait_for(pilot, lambda: "word3" in screen_text(app), what="the first words")
        assert "word59" not in screen_text(app) and not idle(app)
        assert "Tutor is thinking…" not in screen_text(app)  # text arrived: the indicator goes
        await pilot.press("escape")  # stops the turn: the in-flight call is cancelled
        await wait_for(pilot, lambda: idle(app), what="the stopped turn")
        await wait_for(pilot, lambda: "— stopped" in screen_text(app), what="the stopped mark")
        stopped = rows(app)[-1]
        assert stopped.role == "assistant" and stopped.parts == [{"type": tx.TURN_STOPPED}]
        assert stopped.content.startswith("word0 word1 word2") and "word59" not in stopped.content
        assert not send.disabled and "Send ⏎" in screen_text(app)
        assert len(loopback.requests) == 1


async def test_escape_before_any_text_stops_and_offers_retry(make_app, loopback):
    gate = held(loopback, Scripted(loopback, [Reply(text="Late."), Reply(text="Now then.")]))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "waiting")
        await wait_for(pilot, lambda: "Tutor is thinking…" in screen_text(app) and len(loopback.requests) == 1)
        await pilot.press("escape")
        await wait_for(pilot, lambda: "You stopped the turn." in screen_text(app) and idle(app), what="the card")
        assert [r.role for r in rows(app)] == ["user"]
        gate.set()
        await pilot.press("f5")
        await wait_for(pilot, lambda: "Now then." in screen_text(app), what="the retried turn")


async def test_tool_calls_stream_too(make_app, loopback):
    Scripted(loopback, [Reply(chunks=["Let us ", "see."], chunk_delay=0.05,
                              tool_calls=[{"name": "quiz", "arguments": {
                                  "question": "Pick one", "choices": ["A", "B"], "correct": 0}}])])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "streamed calls")
        await wait_for(pilot, lambda: isinstance(app.focused, QuizCard) and idle(app), what="the quiz")
        assert loopback.requests[0]["stream"] is True
        assert "Let us see." in screen_text(app) and "Pick one" in screen_text(app)


async def test_typing_beside_a_quiz_is_a_draft_never_an_app_key(make_app, loopback):
    Scripted(loopback, [quiz("Pick one"), Reply(text="A side answer.")])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "keys")
        await wait_for(pilot, lambda: isinstance(app.focused, QuizCard) and idle(app), what="the quiz")
        await pilot.press(*"fzF why?")  # f, z and F are app keys elsewhere
        assert pane(app).composer.input.text == "fzF why?"
        assert not app.screen_stack[1:]  # no focus dialog opened
        assert app.store.get_state(SNOOZE_KEY) is None
        await pilot.press("enter")
        await wait_for(pilot, lambda: "A side answer." in screen_text(app) and idle(app))
        assert rows(app)[-2].content == "fzF why?"
        assert app.query_one(QuizCard).active  # a side question leaves the quiz open


async def test_tutor_keys_work_wherever_focus_is_in_the_pane(make_app, loopback):
    Scripted(loopback, [Reply(text="Hello there.")])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "focus")
        await wait_for(pilot, lambda: "Hello there." in screen_text(app) and idle(app))
        await pilot.press("escape")  # out of the composer, but still inside the pane
        tutor = pane(app)
        assert app.focused is not None and tutor in app.focused.ancestors
        # The footer keeps the pane's keys (it follows the bindings a message later).
        await wait_for(pilot, lambda: "Sessions" in screen_text(app), what="the pane's keys in the footer")
        await pilot.press("tab")
        assert app.focused is not None and tutor in app.focused.ancestors
        await wait_for(pilot, lambda: "Sessions" in screen_text(app), what="the pane's keys in the footer after Tab")
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: "New session" in screen_text(app), what="the session list")


def _teaching_session(app) -> int:
    from keeltui.services.tutor_turns import TutorTurns
    from tests.pilot.test_tutor_pane import taught_rows

    turns = TutorTurns(app.store, app.brain, app.config)
    session = turns.start_session("protein")
    for row in taught_rows():
        turns.add_learner(session, row)
    return session


async def _open_first_session(pilot) -> None:
    from tests.pilot.test_tutor_pane import open_tutor

    await open_tutor(pilot)
    await pilot.press("down", "enter")
    await wait_for(pilot, lambda: pane(pilot.app).in_session, what="the session")


def _job_script(loopback, gate: threading.Event) -> None:
    teacher = [
        Reply(text="I will look that up.", tool_calls=[{"name": "research", "arguments": {
            "query": "leucine per meal"}}]),
        Reply(text="Meanwhile, on to basics."),
        Reply(text="The research landed: two to three grams."),  # the wake
    ]
    turns: list[dict] = []

    def responder(request: dict) -> Reply:
        # The job's own call offers no tools; the teacher's turns do. The two run side by
        # side, so which request comes first is not fixed: answer by who asks.
        if not request.get("tools"):
            gate.wait(30)  # the job's call waits until the test lets it answer
            return Reply(text="Two to three grams per meal.")
        turns.append(request)
        step = len(turns) - 1
        return teacher[step] if step < len(teacher) else Reply(text="ok")

    loopback.responder = responder


async def test_a_background_job_runs_shows_a_busy_dot_and_lands_as_a_card(make_app, loopback):
    from textual.widgets import Collapsible

    gate = threading.Event()
    _job_script(loopback, gate)
    app = make_app()
    _teaching_session(app)
    async with app.run_test(size=SIZE) as pilot:
        await _open_first_session(pilot)
        await type_into(pilot, "how much leucine?")
        await wait_for(pilot, lambda: "Meanwhile, on to basics." in screen_text(app) and idle(app),
                       what="the turn that goes on after the start")
        assert "Research job: leucine per meal" in screen_text(app) and "F9 aborts" in screen_text(app)
        # The footer offers F9 while a job runs (it refreshes a frame later under load).
        await wait_for(pilot, lambda: "Abort job" in screen_text(app), what="F9 in the footer")
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: "● protein" in screen_text(app), what="the busy dot")
        await pilot.press("enter")  # back into the session
        await wait_for(pilot, lambda: pane(app).in_session)
        gate.set()
        await wait_for(pilot, lambda: "The research landed" in screen_text(app) and idle(app), what="the wake")
        card = app.query_one(".job-result", Collapsible)
        # The card is laid out a frame after the wake's text can show: wait for it, folded.
        await wait_for(pilot, lambda: "Research: leucine per meal — result" in screen_text(app),
                       what="the folded result card")
        assert card.collapsed
        assert "done — the result is below" in screen_text(app)
        woken = [r for r in loopback.requests if r.get("tools")][-1]
        assert woken["messages"][-1]["content"].startswith("[research job finished")
        card.collapsed = False
        await wait_for(pilot, lambda: "Two to three grams per meal." in screen_text(app), what="the result text")


async def test_f9_aborts_a_running_job_quietly_and_no_result_follows(make_app, loopback):
    gate = threading.Event()
    _job_script(loopback, gate)
    app = make_app()
    session = _teaching_session(app)
    async with app.run_test(size=SIZE) as pilot:
        await _open_first_session(pilot)
        await type_into(pilot, "how much leucine?")
        await wait_for(pilot, lambda: "Meanwhile, on to basics." in screen_text(app) and idle(app)
                       and len(loopback.requests) == 3, what="the job's call in flight")
        await pilot.press("f9")
        await wait_for(pilot, lambda: "research job aborted: leucine per meal" in screen_text(app), what="the mark")
        await wait_for(pilot, lambda: len(loopback.requests) == 4 and idle(app), what="the teacher hears of it")
        assert "do not wait for it" in loopback.requests[3]["messages"][-1]["content"]
        gate.set()
        # The job's call is answered now. A later turn lands after it (the learner asks on,
        # the teacher answers): the aborted job has had its chance to land a result.
        await type_into(pilot, "and after that?")
        await wait_for(pilot, lambda: len(loopback.requests) == 5 and idle(app), what="a later teacher turn")
        steers = [r.parts[0]["status"] for r in app.store.messages(session) if r.parts and
                  r.parts[0].get("type") == "job_steer"]
        assert steers == ["aborted"]
        assert "Abort job" not in screen_text(app)


async def type_into(pilot, text: str) -> None:
    composer = pane(pilot.app).composer
    composer.focus_input()
    composer.input.insert(text)
    await pilot.press("enter")


def _held_result_script(loopback, job_gate: threading.Event, turn_gate: threading.Event) -> list[dict]:
    """The teacher starts a research job; the job's answer comes while the teacher's next
    call of the same turn is still in flight (both gated by the test)."""
    teacher = [
        Reply(text="I will look that up.", tool_calls=[{"name": "research", "arguments": {"query": "leucine per meal"}}]),
        Reply(text="Meanwhile, on to basics."),
        Reply(text="The research landed: two to three grams."),  # the wake
    ]
    asked: list[dict] = []

    def responder(request: dict) -> Reply:
        if not request.get("tools"):
            job_gate.wait(30)
            return Reply(text="Two to three grams per meal.")
        asked.append(request)
        step = len(asked) - 1
        if step == 1:
            turn_gate.wait(30)  # the turn is still running when the job's result lands
        return teacher[step] if step < len(teacher) else Reply(text="ok")

    loopback.responder = responder
    return asked


async def _job_lands_mid_turn(pilot, asked: list[dict], job_gate: threading.Event, seen: set[str]) -> None:
    app = pilot.app

    def look(condition) -> bool:
        text = screen_text(app)
        seen.update(word for word in ("interrupted",) if word in text)
        return condition(text)

    await _open_first_session(pilot)
    await type_into(pilot, "how much leucine?")
    await wait_for(pilot, lambda: look(lambda t: "Research job: leucine per meal" in t and "F9 aborts" in t)
                   and len(asked) == 2, what="the job running, the turn's next call in flight")
    job_gate.set()
    await wait_for(pilot, lambda: look(lambda t: "waits for the turn to end" in t), what="the held result")
    assert not idle(app) and len(asked) == 2 and "Research: leucine per meal — result" not in screen_text(app)


async def test_a_job_result_landing_mid_turn_is_held_then_delivered_when_the_turn_ends(make_app, loopback):
    job_gate, turn_gate = threading.Event(), threading.Event()
    asked = _held_result_script(loopback, job_gate, turn_gate)
    app = make_app(timeout=60)  # the gated call must not time out under load
    _teaching_session(app)
    seen: set[str] = set()
    async with app.run_test(size=SIZE) as pilot:
        try:
            await _job_lands_mid_turn(pilot, asked, job_gate, seen)
        finally:
            turn_gate.set()
        await wait_for(pilot, lambda: "The research landed" in screen_text(app) and idle(app), what="the wake")
        await wait_for(pilot, lambda: "done — the result is below" in screen_text(app), what="the delivered card")
        assert asked[-1]["messages"][-1]["content"].startswith("[research job finished")
    assert "interrupted" not in seen


async def test_a_job_result_held_by_a_stopped_turn_is_still_delivered(make_app, loopback):
    job_gate, turn_gate = threading.Event(), threading.Event()
    asked = _held_result_script(loopback, job_gate, turn_gate)
    app = make_app(timeout=60)  # the gated call must not time out under load
    session = _teaching_session(app)
    seen: set[str] = set()
    async with app.run_test(size=SIZE) as pilot:
        try:
            await _job_lands_mid_turn(pilot, asked, job_gate, seen)
            await pilot.press("escape")  # the learner stops the turn the result waited for
            await wait_for(pilot, lambda: idle(app) and "done — the result is below" in screen_text(app),
                           what="the result delivered after the stop")
        finally:
            turn_gate.set()
        steers = [r.parts[0]["status"] for r in app.store.messages(session)
                  if r.parts and r.parts[0].get("type") == "job_steer"]
        assert steers == ["done"]
        # Stopped: the teacher is not woken behind the learner's back; Retry offers the turn.
        await wait_for(pilot, lambda: "Retry (F5)" in screen_text(app), what="the Retry card")
        assert len(asked) == 2
        assert "interrupted" not in screen_text(app)
    assert "interrupted" not in seen


async def test_f9_during_a_turn_shows_aborted_never_interrupted_and_the_teacher_hears_after(make_app, loopback):
    job_gate, turn_gate = threading.Event(), threading.Event()
    asked = _held_result_script(loopback, job_gate, turn_gate)
    app = make_app(timeout=60)  # the gated call must not time out under load
    session = _teaching_session(app)
    seen: list[str] = []

    def held_back() -> bool:  # the abort is held by the jobs service, not yet stored
        return not any(r.parts and r.parts[0].get("type") == "job_steer" for r in app.store.messages(session))

    async with app.run_test(size=SIZE) as pilot:
        try:
            await _open_first_session(pilot)
            await type_into(pilot, "how much leucine?")
            await wait_for(pilot, lambda: "F9 aborts" in screen_text(app) and len(asked) == 2,
                           what="the job running, the turn's next call in flight")
            await pilot.press("f9")
            await wait_for(pilot, lambda: seen.append(screen_text(app)) is None
                           and "leucine per meal  ·  aborted" in seen[-1] and held_back(),
                           what="the aborted card while the turn still runs")
            assert not idle(app) and len(asked) == 2
        finally:
            turn_gate.set()
            job_gate.set()
        await wait_for(pilot, lambda: len(asked) == 3 and idle(app), what="the teacher hears of it after the turn")
        assert "do not wait for it" in asked[-1]["messages"][-1]["content"]
        assert "interrupted" not in screen_text(app)
    assert not any("interrupted" in text for text in seen)
