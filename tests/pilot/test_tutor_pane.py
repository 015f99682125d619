"""The tutor pane driven through Pilot against the loopback brain."""

from __future__ import annotations

import json
import threading

from keeltui.panes.tutor.assessment import AssessmentCard
from keeltui.panes.common.composer import Composer
from keeltui.panes.tutor.plan_map import PlanCard, PlanMap
from keeltui.panes.tutor.quiz import AskCard, QuizCard
from keeltui.panes.tutor.cards import TurnErrorCard
from keeltui.services.tutor_turns import TutorTurns
from keeltui.status.file import read_status
from keeltui.tutor import session as ts
from keeltui.tutor.phases import awaiting_verdict, phase_of
from keeltui.tutor.prompts import compose_prompt
from keeltui.tutor_view import TutorPane
from keeltui_dev.loopback import Reply
from tests.support.pilot import screen_text, wait_for

SIZE = (120, 44)

PLAN_V1 = """graph TD
  basics[Why protein matters] --> leucine[Leucine threshold] --> per_meal[Protein per meal]
  per_meal --> timing[Timing around training]
"""
PLAN_V2 = """flowchart LR
  basics[Why protein matters] --> leucine[Leucine threshold] --> per_meal[Protein per meal]
"""


def tool(name: str, text: str = "", **arguments) -> Reply:
    return Reply(text=text, tool_calls=[{"name": name, "arguments": arguments}])


def quiz(question: str, node_id: str | None = None, correct: int = 0) -> Reply:
    arguments = {"question": question, "choices": ["First", "Second", "Third"], "correct": correct}
    if node_id:
        arguments["node_id"] = node_id
    return tool("quiz", **arguments)


class Scripted:
    """A responder that answers the n-th request with the n-th reply (a stray one is loud)."""

    def __init__(self, loopback, replies: list[Reply]) -> None:
        self.loopback = loopback
        self.replies = replies
        loopback.responder = self

    def __call__(self, request: dict) -> Reply:
        step = len(self.loopback.requests) - 1
        if step >= len(self.replies):
            return Reply(status=500, error_message=f"unscripted request {step}")
        return self.replies[step]

    def agent(self, step: int) -> str:
        system = self.loopback.requests[step]["messages"][0]["content"]
        return "prober" if system == compose_prompt("prober") else "teacher"


def pane(app) -> TutorPane:
    return app.query_one(TutorPane)


def rows(app) -> list:
    tutor = pane(app)
    return tutor.turns.transcript(tutor.session_id)


def map_lines(app) -> list[str]:
    return [f"{marker} {title}" for marker, title, _ in app.query_one(PlanMap).lines]


async def open_tutor(pilot) -> None:
    await pilot.press("ctrl+t")
    await wait_for(pilot, lambda: "New session" in screen_text(pilot.app), what="the session list")


async def new_session(pilot, topic: str) -> None:
    await open_tutor(pilot)
    await pilot.press("enter")  # "+ New session" is highlighted
    await wait_for(pilot, lambda: pilot.app.focused is not None and pilot.app.focused.id == "tutor-topic")
    await pilot.press(*topic)
    await pilot.press("enter")


async def type_into_composer(pilot, text: str) -> None:
    composer = pane(pilot.app).composer
    composer.focus_input()
    composer.input.insert(text)
    await pilot.pause()


def idle(app) -> bool:
    return not pane(app).composer.busy


async def test_a_whole_session_probe_plan_verdict_and_teach(make_app, loopback):
    script = Scripted(loopback, [
        # 0 prober: a quiz the learner answers with a number key
        Reply(text="Let us see where you are.", tool_calls=[{"name": "quiz", "arguments": {
            "question": "Which amino acid drives MPS most?", "choices": ["Glycine", "Leucine", "Proline"],
            "correct": 1}}]),
        # 1 prober concludes; 2 the teacher wakes by itself and presents a plan
        tool("probe_done", strands=["knows protein builds muscle", "knows leucine matters"],
             edge="has never met the per-meal threshold idea"),
        tool("plan_init", "Four steps, from why protein matters to timing.", mermaid=PLAN_V1),
        # 3 a side question while the plan waits
        Reply(text="Leucine is an essential amino acid. The plan still waits for your verdict."),
        # 4 after the decline: a revision
        tool("plan_init", "Shorter: three steps.", mermaid=PLAN_V2),
        # 5.. after the accept: teach with tagged quizzes
        quiz("Why does protein matter?", "basics"),
        quiz("What is the leucine threshold?", "leucine"),
        quiz("Back to basics: what does MPS stand for?", "basics"),
        Reply(text="Well done: that is the whole plan."),
    ])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "muscle protein")

        # -- probe: the quiz card takes the keys; a number answers it
        await wait_for(pilot, lambda: isinstance(app.focused, QuizCard), what="the prober's quiz")
        assert "Which amino acid drives MPS most?" in screen_text(app)
        await pilot.press("2")

        # -- conclude: the assessment, then the teacher's plan, with no key pressed
        await wait_for(pilot, lambda: app.query(PlanCard) and idle(app), what="the wake's plan")
        text = screen_text(app)
        assert "Assessment" in text and "has never met the per-meal threshold idea" in text
        assert "Plan v1" in text and "Four steps, from why protein matters to timing." in text
        assert len(app.query(AssessmentCard)) == 1
        assert [script.agent(i) for i in range(3)] == ["prober", "prober", "teacher"]
        assert loopback.requests[1]["messages"][-1] == {
            "role": "user", "content": "I chose 2: Leucine — graded correct."}
        composer = pane(app).composer
        assert composer.verdict_mode and "Accept plan ^O" in text and "Decline ^R" in text
        assert phase_of(rows(app)) == "plan"
        assert map_lines(app) == ["○ Why protein matters", "○ Leucine threshold", "○ Protein per meal",
                                  "○ Timing around training"]
        quiz_row = next(r for r in rows(app) if any(p["type"] == "quiz_answer" for p in r.parts))
        assert quiz_row.parts[0]["choice"] == 1 and quiz_row.parts[0]["correct"] is True

        # -- a side question with Enter: answered, the phase and the controls stay
        await type_into_composer(pilot, "what is leucine?")
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(loopback.requests) == 4 and idle(app), what="the side answer")
        await wait_for(pilot, lambda: "The plan still waits for your verdict." in screen_text(app))
        assert phase_of(rows(app)) == "plan" and composer.verdict_mode
        assert loopback.requests[3]["messages"][-1] == {"role": "user", "content": "what is leucine?"}

        # -- decline with a note: the teacher revises, the controls stay
        await type_into_composer(pilot, "Too long, drop timing.")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "Plan v2" in screen_text(app) and idle(app), what="the revised plan")
        assert loopback.requests[4]["messages"][-1]["content"] == (
            "I decline the plan. Please revise it.\n\nToo long, drop timing.")
        assert composer.verdict_mode and awaiting_verdict(rows(app)) and phase_of(rows(app)) == "plan"
        assert "Accept plan ^O" in screen_text(app)
        assert map_lines(app) == ["○ Why protein matters", "○ Leucine threshold", "○ Protein per meal"]
        assert any(p["type"] == "plan-declined" for r in rows(app) for p in r.parts)

        # -- accept with a typed note: the note reaches the model as text, the phase is teach
        await type_into_composer(pilot, "Looks right, go.")
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.focused, QuizCard) and idle(app), what="the first lesson quiz")
        assert loopback.requests[5]["messages"][-1] == {
            "role": "user", "content": "I accept the plan.\n\nLooks right, go."}
        assert "plan-accepted" not in json.dumps(loopback.requests[5])
        accepted = [p for r in rows(app) for p in r.parts if p["type"] == "plan-accepted"]
        assert accepted == [{"type": "plan-accepted", "plan_version": 2, "note": "Looks right, go."}]
        assert phase_of(rows(app)) == "teach" and not composer.verdict_mode
        assert "Accept plan ^O" not in screen_text(app)

        # -- teach: tagged quizzes move the map; a right answer masters a node
        await wait_for(pilot, lambda: "▶ Why protein matters" in screen_text(app))
        assert map_lines(app) == ["▶ Why protein matters", "○ Leucine threshold", "○ Protein per meal"]
        await pilot.press("1")
        await wait_for(pilot, lambda: "▶ Leucine threshold" in screen_text(app) and idle(app), what="quiz 2")
        assert map_lines(app) == ["✓ Why protein matters", "▶ Leucine threshold", "○ Protein per meal"]
        assert "✓ Why protein matters" in screen_text(app)
        await wait_for(pilot, lambda: isinstance(app.focused, QuizCard) and app.focused.item.node_id == "leucine")
        await pilot.press("down", "down", "enter")  # arrows + Enter pick the third choice
        await wait_for(pilot, lambda: len(loopback.requests) == 8 and idle(app), what="quiz 3")
        assert loopback.requests[7]["messages"][-1]["content"] == "I chose 3: Third — graded wrong."
        # a revisit: basics is current again; leucine, answered wrong, is to review (never ✓)
        await wait_for(pilot, lambda: "▶ Why protein matters" in screen_text(app))
        assert map_lines(app) == ["▶ Why protein matters", "↻ Leucine threshold", "○ Protein per meal"]
        await pilot.press("3")
        await wait_for(pilot, lambda: "Well done: that is the whole plan." in screen_text(app))
        assert [script.agent(i) for i in range(3, 9)] == ["teacher"] * 6
        assert len(loopback.requests) == 9


async def test_sessions_are_listed_and_resumed(make_app, loopback):
    app = make_app()
    turns = TutorTurns(app.store, app.brain, app.config)
    older = turns.start_session("secant lines")
    turns.add_learner(older, ts.learner_line([], "I know slopes"))
    turns.store.add_message(older, "assistant", "Good start on secants.")
    newer = turns.start_session("muscle protein")
    turns.store.add_message(newer, "assistant", "What do you know about protein?")
    async with app.run_test(size=SIZE) as pilot:
        await open_tutor(pilot)
        text = screen_text(app)
        assert text.index("muscle protein") < text.index("secant lines")  # newest first
        await pilot.press("enter")  # "New session" asks for a topic; Escape takes it back
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "tutor-topic")
        await pilot.press("escape")
        assert app.focused.id == "tutor-session-list" and not pane(app).has_class("-asking-topic")
        await pilot.press("down", "down", "enter")
        await wait_for(pilot, lambda: "Good start on secants." in screen_text(app), what="the older session")
        assert pane(app).session_id == older and "I know slopes" in screen_text(app)
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: "New session" in screen_text(app))
        await pilot.press("up", "enter")  # the list comes back on the open session
        await wait_for(pilot, lambda: "What do you know about protein?" in screen_text(app))
        assert pane(app).session_id == newer
        assert loopback.requests == []  # nothing was owed, so nothing was asked


async def test_an_ask_waits_for_a_typed_answer(make_app, loopback):
    Scripted(loopback, [tool("ask", question="What do you want from this session?"),
                        Reply(text="Then we start there.")])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "calculus")
        await wait_for(pilot, lambda: app.query(AskCard) and idle(app), what="the ask")
        assert "What do you want from this session?" in screen_text(app)
        assert app.focused is pane(app).composer.input  # the answer is typed
        await pilot.press(*"derivatives")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Then we start there." in screen_text(app))
        answer = [r for r in rows(app) if r.role == "user"][-1]
        call_id = rows(app)[1].parts[0]["id"]
        assert answer.content == "derivatives" and answer.parts == [{"type": "ask_answer", "call_id": call_id}]


async def test_a_dead_brain_keeps_the_learners_row_and_f5_retries(make_app, loopback):
    Scripted(loopback, [Reply(status=500, error_message="model is loading"), Reply(text="Back again.")])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "topology")
        await wait_for(pilot, lambda: app.query(TurnErrorCard) and idle(app), what="the error card")
        # The whole reason, in the transcript (HTTP status included), never cut by a status line.
        assert "answered HTTP 500: model is loading" in screen_text(app)
        assert "Retry (F5)" in screen_text(app)
        assert [(r.role, r.content) for r in rows(app)] == [("user", "topology")]
        assert app.status_line.message == ""  # the error belongs to the session, not the room
        await pilot.press("f5")
        await wait_for(pilot, lambda: "Back again." in screen_text(app), what="the retried turn")
        assert not app.query(TurnErrorCard)


async def test_the_retry_button_and_reopening_a_failed_session_costs_nothing(make_app, loopback):
    Scripted(loopback, [Reply(status=502, error_message="upstream down"), Reply(text="Here now.")])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "knots")
        await wait_for(pilot, lambda: app.query(TurnErrorCard) and idle(app), what="the error card")
        assert len(loopback.requests) == 1
    app = make_app()  # a restart: the tab reopens the failed session left open
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: app.query(TurnErrorCard) and pane(app).in_session
                       and "did not finish" in screen_text(app), what="the card again")
        assert len(loopback.requests) == 1  # opening never calls the model by itself...
        await pilot.click("#turn-retry")
        await wait_for(pilot, lambda: "Here now." in screen_text(app), what="the retried turn")
        # ...the retry's answer on screen is the later signal: it was the only call since.
        assert len(loopback.requests) == 2


async def test_refused_attempts_never_reach_the_transcript(make_app, loopback):
    bad = [quiz("Check basics", "nope") for _ in range(3)]
    for reply in bad:
        reply.text = "Let me check basics with a question."
    good = quiz("Check basics", "basics")
    good.text = "Let me check basics with a question."
    app = make_app()
    turns = TutorTurns(app.store, app.brain, app.config)
    session = turns.start_session("protein")
    for row in taught_rows():
        turns.add_learner(session, row)
    Scripted(loopback, [*bad, good])
    async with app.run_test(size=SIZE) as pilot:
        await open_tutor(pilot)
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: pane(app).in_session, what="the session")
        await type_into_composer(pilot, "go on")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.query(QuizCard) and idle(app), what="the accepted quiz")
        assert len(loopback.requests) == 4
        assert screen_text(app).count("Let me check basics with a question.") == 1


def taught_rows() -> list:
    """A session already in the teach phase (the plan PLAN_V1 accepted)."""
    from keeltui.tutor import transcript as tx

    return [
        tx.assistant("", tx.tool_call("p1", "probe_done", {"strands": ["x"], "edge": "y"})),
        tx.tool("p1", "probe_done", True, {"status": "probe concluded"}),
        tx.assistant("", tx.tool_call("p2", "plan_init", {"mermaid": PLAN_V1})),
        tx.tool("p2", "plan_init", True, {"status": "plan presented"}),
        ts.verdict(True, "", 1),
    ]


async def test_context_belongs_to_the_open_session_and_the_tutor_pane(make_app, loopback, tmp_path):
    big = {"prompt_tokens": 590, "completion_tokens": 10, "total_tokens": 600}
    small = {"prompt_tokens": 90, "completion_tokens": 10, "total_tokens": 100}
    Scripted(loopback, [Reply(text="One.", usage=big), Reply(text="Two.", usage=small)])
    app = make_app("[brain.context_windows]\nprober = 1000\n")
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "sets")
        await wait_for(pilot, lambda: "One." in screen_text(app) and idle(app))
        await wait_for(pilot, lambda: "CTX warning: context 60% full" in app.status_line.render().plain)
        assert app.context_text == "tutor context 60%"
        assert "tutor context 60%" in screen_text(app)
        assert "CTX warning" in read_status(tmp_path / "status")  # the tmux line mirrors it
        # The Chief room never shows the tutor's context or its warning.
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: "CTX warning" not in app.status_line.render().plain)
        assert "tutor context" not in screen_text(app) and "CTX warning" not in screen_text(app)
        assert "CTX warning" in read_status(tmp_path / "status")
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: "CTX warning" in app.status_line.render().plain)
        # Quiet Mode hides it on screen and in the status file.
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: read_status(tmp_path / "status") == "◌ Quiet Mode")
        assert "CTX warning" not in app.status_line.render().plain
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: "CTX warning" in read_status(tmp_path / "status"))
        # Another session opens: the percentage and the warning go with the old one.
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: "New session" in screen_text(app))
        await pilot.press("up", "enter")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "tutor-topic")
        await pilot.press(*"maps", "enter")
        await wait_for(pilot, lambda: "Two." in screen_text(app) and idle(app))
        assert "CTX warning" not in app.status_line.render().plain
        assert app.context_text == "tutor context 10%"
        assert "CTX warning" not in read_status(tmp_path / "status")


async def test_escape_hands_the_keys_back_to_an_open_quiz(make_app, loopback):
    Scripted(loopback, [quiz("Pick one"), Reply(text="That was a side question."), Reply(text="ok")])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "logic")
        await wait_for(pilot, lambda: isinstance(app.focused, QuizCard) and idle(app))
        await pilot.press(*"why?")  # typing beside the quiz writes in the composer
        assert app.focused is pane(app).composer.input and pane(app).composer.input.text == "why?"
        await pilot.press("enter")  # a side question: the quiz stays open
        await wait_for(pilot, lambda: "That was a side question." in screen_text(app) and idle(app))
        card = app.query_one(QuizCard)
        assert card.active
        await pilot.press("escape")
        assert app.focused is card
        await pilot.press("1")
        await wait_for(pilot, lambda: len(loopback.requests) == 3)
        assert loopback.requests[-1]["messages"][-1]["content"] == "I chose 1: First — graded correct."


async def test_verdict_keys_do_nothing_outside_verdict_mode(make_app, loopback):
    Scripted(loopback, [Reply(text="Hello.")])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "graphs")
        await wait_for(pilot, lambda: "Hello." in screen_text(app) and idle(app))
        composer = app.query_one("#tutor-composer", Composer)
        assert not composer.verdict_mode
        await type_into_composer(pilot, "a note")
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert len(rows(app)) == 2 and len(loopback.requests) == 1
        assert composer.input.text == "a note"


async def test_a_quiz_never_takes_the_keys_from_a_draft(make_app, loopback):
    gate = threading.Event()
    script = Scripted(loopback, [Reply(text="Think about it."), quiz("Pick one")])

    def held(request: dict) -> Reply:
        if len(loopback.requests) == 2:
            gate.wait(10)  # the quiz arrives only once the draft is typed
        return script(request)

    loopback.responder = held
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "sets")
        await wait_for(pilot, lambda: "Think about it." in screen_text(app) and idle(app))
        await type_into_composer(pilot, "ok")
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(loopback.requests) == 2, what="the second request")
        await pilot.press(*"I think 2")  # a draft typed while the tutor thinks
        gate.set()
        await wait_for(pilot, lambda: app.query(QuizCard) and idle(app), what="the quiz")
        assert app.focused is pane(app).composer.input and pane(app).composer.input.text == "I think 2"
        assert app.query_one(QuizCard).item.answer is None
        await pilot.press("escape", "2")
        await wait_for(pilot, lambda: len(loopback.requests) == 3)
        assert loopback.requests[-1]["messages"][-1]["content"] == "I chose 2: Second — graded wrong."
