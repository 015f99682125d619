"""The tutor's agent loop against the loopback brain: protocol, agents, retries, wake, warnings."""

from __future__ import annotations

import json

import pytest

from keeltui.brain import Brain
from keeltui.config import load_config
from keeltui.services.tutor_turns import TutorTurns
from keeltui.store import Store
from keeltui.tutor import session as ts
from keeltui.tutor import transcript as tx
from keeltui.tutor.phases import awaiting_verdict, latest_plan, phase_of, plan_version
from keeltui.tutor.prompts import DEFAULT_PROMPTS_DIR, compose_prompt
from tests.conftest import write_config
from keeltui_dev.loopback import Reply
from tests.unit.tutor_script import PLAN

QUIZ = {"question": "Which amino acid triggers MPS most?", "choices": ["Glycine", "Leucine"], "correct": 1}
ASK = {"question": "What do you already know about protein?"}
DONE = {"strands": ["knows protein builds muscle"], "edge": "has not met net balance"}


def ask(question: str = ASK["question"]) -> Reply:
    return Reply(tool_calls=[{"name": "ask", "arguments": {"question": question}}])


def quiz(node_id: str | None = None, **extra) -> Reply:
    arguments = dict(QUIZ, **({"node_id": node_id} if node_id else {}))
    return Reply(tool_calls=[{"name": "quiz", "arguments": arguments}], **extra)


def call(name: str, arguments: dict, **extra) -> Reply:
    return Reply(tool_calls=[{"name": name, "arguments": arguments}], **extra)


@pytest.fixture
def make_turns(tmp_path, loopback):
    stores: list[Store] = []

    def build(extra: str = "", **kwargs) -> TutorTurns:
        config = load_config(write_config(tmp_path / "config.toml", loopback.url, extra), env={})
        store = Store(tmp_path / f"tutor{len(stores)}.db")
        stores.append(store)
        return TutorTurns(store, Brain(config.brain), config, **kwargs)

    yield build
    for store in stores:
        store.close()


def tool_names(request: dict) -> list[str]:
    return [tool["function"]["name"] for tool in request["tools"]]


def quiz_params(request: dict) -> set[str]:
    (tool,) = [t for t in request["tools"] if t["function"]["name"] == "quiz"]
    return set(tool["function"]["parameters"]["properties"])


async def probed(turns: TutorTurns, loopback) -> int:
    """A session through the probe and a presented plan (the teacher woke and planned)."""
    session = turns.start_session("muscle protein")
    loopback.queue(ask(), call("probe_done", DONE), call("plan_init", {"mermaid": PLAN}))
    await turns.respond(session)
    turns.add_learner(session, ts.learner_line(turns.transcript(session), "only that it builds muscle"))
    outcome = await turns.respond(session)
    assert outcome.woke_teacher and outcome.error is None
    assert awaiting_verdict(turns.transcript(session))
    return session


async def taught(turns: TutorTurns, loopback) -> int:
    session = await probed(turns, loopback)
    rows = turns.transcript(session)
    turns.add_learner(session, ts.verdict(True, "", plan_version(rows)))
    return session


# --- the protocol -------------------------------------------------------------------


async def test_tool_calls_and_results_replay_as_the_openai_protocol(make_turns, loopback):
    turns = make_turns()
    session = turns.start_session("muscle protein")
    loopback.queue(Reply(text="Let us start.", tool_calls=[{"name": "ask", "arguments": ASK}]), quiz())
    outcome = await turns.respond(session)
    assert outcome.error is None and outcome.steps == 1 and outcome.agent == "prober"
    turns.add_learner(session, ts.learner_line(turns.transcript(session), "It builds muscle."))
    await turns.respond(session)

    rows = turns.transcript(session)
    assert [row.role for row in rows] == ["user", "assistant", "tool", "user", "assistant", "tool"]
    (stored_call,) = rows[1].parts
    assert stored_call == {"type": "tool_call", "id": stored_call["id"], "name": "ask", "arguments": ASK}
    assert rows[2].parts[0]["type"] == "tool_result" and rows[2].parts[0]["call_id"] == stored_call["id"]
    assert rows[3].parts == [{"type": "ask_answer", "call_id": stored_call["id"]}]

    sent = loopback.requests[-1]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "user"]
    assistant, result = sent[2], sent[3]
    assert assistant["content"] == "Let us start."
    (wire_call,) = assistant["tool_calls"]
    assert wire_call["type"] == "function" and wire_call["function"]["name"] == "ask"
    assert json.loads(wire_call["function"]["arguments"]) == ASK
    assert result["tool_call_id"] == wire_call["id"] == stored_call["id"]
    assert json.loads(result["content"])["status"] == "asked"
    assert sent[4] == {"role": "user", "content": "It builds muscle."}


async def test_repeated_call_ids_from_the_server_are_made_unique(make_turns, loopback):
    # The loopback numbers calls per reply ("call_0" each time), like some local servers.
    turns = make_turns()
    session = turns.start_session("protein")
    loopback.queue(quiz(), quiz())
    await turns.respond(session)
    first = turns.transcript(session)
    call_id = first[1].parts[0]["id"]
    turns.add_learner(session, ts.quiz_pick(first[1].parts[0], 1))
    await turns.respond(session)
    rows = turns.transcript(session)
    second = rows[-2].parts[0]["id"]
    assert second != call_id
    assert rows[-1].parts[0]["call_id"] == second
    # the new quiz is open: the old pick does not answer it
    items = [item for item in ts.session_items(rows) if isinstance(item, ts.QuizItem)]
    assert [(item.answer, item.active) for item in items] == [(1, False), (None, True)]
    ids = [c["id"] for m in loopback.requests[-1]["messages"] for c in m.get("tool_calls", [])]
    assert ids == [call_id]


async def test_the_learners_parts_never_reach_the_model_only_their_text(make_turns, loopback):
    turns = make_turns()
    session = await probed(turns, loopback)
    turns.add_learner(session, ts.verdict(True, "Keep it short, please.", 1))
    assert turns.transcript(session)[-1].parts == [
        {"type": "plan-accepted", "plan_version": 1, "note": "Keep it short, please."}
    ]
    loopback.queue(Reply(text="Good, let us begin."))
    await turns.respond(session)
    sent = loopback.requests[-1]["messages"]
    assert sent[-1] == {"role": "user", "content": "I accept the plan.\n\nKeep it short, please."}
    assert "plan-accepted" not in json.dumps(loopback.requests[-1])
    assert "ask_answer" not in json.dumps(loopback.requests[-1])


# --- the two agents ------------------------------------------------------------------


async def test_prober_then_teacher_each_with_its_own_tools_and_prompt(make_turns, loopback):
    turns = make_turns()
    await probed(turns, loopback)
    prober, wake = loopback.requests[-2], loopback.requests[-1]
    assert tool_names(prober) == ["quiz", "ask", "probe_done"]
    assert quiz_params(prober) == {"question", "choices", "correct"}
    assert tool_names(wake) == ["plan_init", "quiz", "ask", "research", "demo", "visual"]
    assert quiz_params(wake) == {"question", "choices", "correct", "node_id"}
    assert prober["messages"][0] == {"role": "system", "content": compose_prompt("prober")}
    assert wake["messages"][0] == {"role": "system", "content": compose_prompt("teacher")}


async def test_the_readme_never_reaches_the_model(make_turns, loopback):
    turns = make_turns()
    await probed(turns, loopback)
    readme = (DEFAULT_PROMPTS_DIR / "README.md").read_text(encoding="utf-8")
    substantive = [line for line in readme.splitlines() if len(line.strip()) > 20]
    assert substantive
    for request in loopback.requests:
        system = request["messages"][0]["content"]
        assert not [line for line in substantive if line in system]
        assert "never sent to a model" not in system


async def test_probe_done_wakes_the_teacher_with_no_learner_input(make_turns, loopback):
    turns = make_turns()
    session = turns.start_session("protein")
    steps: list[str] = []
    loopback.queue(call("probe_done", DONE), Reply(text="Here is your plan.", tool_calls=[
        {"name": "plan_init", "arguments": {"mermaid": PLAN}}]))
    outcome = await turns.respond(session, on_step=lambda agent, usage: steps.append(agent))
    assert outcome.woke_teacher and outcome.agent == "teacher" and outcome.steps == 2
    assert steps == ["prober", "teacher"]  # the view hears of the assessment before the plan
    rows = turns.transcript(session)
    assert [row.role for row in rows] == ["user", "assistant", "tool", "assistant", "tool"]
    assert phase_of(rows) == "plan" and awaiting_verdict(rows)
    # the wake's request ends with the probe_done result: no learner turn in between
    assert loopback.requests[-1]["messages"][-1]["role"] == "tool"


# --- refusals are retried within the turn ------------------------------------------------


async def test_probe_done_while_a_quiz_is_open_is_refused_and_retried_in_the_same_turn(make_turns, loopback):
    turns = make_turns()
    session = turns.start_session("protein")
    loopback.queue(quiz())
    await turns.respond(session)
    turns.add_learner(session, ts.learner_line(turns.transcript(session), "what is MPS?"))  # side question
    loopback.queue(call("probe_done", DONE), Reply(text="Muscle protein synthesis. Now, the quiz above?"))
    outcome = await turns.respond(session)
    assert outcome.steps == 2 and not outcome.woke_teacher and outcome.error is None
    sent = loopback.requests[-1]["messages"]
    assert sent[-2]["tool_calls"][0]["function"]["name"] == "probe_done"
    assert sent[-1]["role"] == "tool" and sent[-1]["tool_call_id"] == sent[-2]["tool_calls"][0]["id"]
    assert sent[-1]["content"].startswith("probe_done refused: the learner has not answered your open quiz")
    rows = turns.transcript(session)
    assert phase_of(rows) == "probe"
    assert not [item for item in ts.session_items(rows) if isinstance(item, ts.AssessmentItem)]


async def test_a_question_beside_probe_done_keeps_the_probe_open(make_turns, loopback):
    turns = make_turns()
    session = turns.start_session("protein")
    loopback.queue(Reply(tool_calls=[{"name": "quiz", "arguments": QUIZ}, {"name": "probe_done", "arguments": DONE}]))
    outcome = await turns.respond(session)
    assert outcome.steps == 1 and not outcome.woke_teacher
    rows = turns.transcript(session)
    assert rows[-1].parts[0]["ok"] is False and "one question at a time" in rows[-1].content
    assert phase_of(rows) == "probe" and len(loopback.requests) == 1


async def test_an_invalid_plan_goes_back_as_the_parsers_error_and_is_retried(make_turns, loopback):
    turns = make_turns()
    session = turns.start_session("protein")
    loopback.queue(
        call("probe_done", DONE),
        call("plan_init", {"mermaid": "graph TD\n  a[A] --> MPS[Muscle protein synthesis]"}),
        call("plan_init", {"mermaid": PLAN}),
    )
    outcome = await turns.respond(session)
    assert outcome.steps == 3 and outcome.error is None
    sent = loopback.requests[-1]["messages"]
    assert sent[-1]["content"].startswith(
        'plan_init refused: line 2: node id "MPS" is not a slug — use lowercase letters, digits, '
        '"-" or "_", e.g. "mps"'
    )
    rows = turns.transcript(session)
    assert awaiting_verdict(rows) and plan_version(rows) == 1
    assert latest_plan(rows).ids == ("mps_translation", "net_balance", "per_meal")


async def test_a_failed_plan_init_does_not_move_the_phase(make_turns, loopback):
    turns = make_turns()
    session = turns.start_session("protein")
    loopback.queue(call("probe_done", DONE), call("plan_init", {"mermaid": "a[A] --> B[B]"}),
                   Reply(text="Let me think about the plan."))
    await turns.respond(session)
    rows = turns.transcript(session)
    assert rows[-2].content.startswith('plan_init refused: line 1: node id "B" is not a slug')
    assert phase_of(rows) == "plan" and not awaiting_verdict(rows) and latest_plan(rows) is None
    assert not [item for item in ts.session_items(rows) if isinstance(item, ts.PlanItem)]


async def test_a_teacher_quiz_with_an_unknown_node_is_retried_before_the_learner_sees_it(make_turns, loopback):
    turns = make_turns()
    session = await taught(turns, loopback)
    loopback.queue(quiz("muscle_growth"), quiz("net_balance"))
    outcome = await turns.respond(session)
    assert outcome.steps == 2 and outcome.error is None
    refusal = loopback.requests[-1]["messages"][-1]["content"]
    assert refusal == (
        'quiz refused: node_id "muscle_growth" is not in the plan — use one of: '
        "mps_translation, net_balance, per_meal"
    )
    quizzes = [i for i in ts.session_items(turns.transcript(session)) if isinstance(i, ts.QuizItem)]
    assert [(q.node_id, q.active) for q in quizzes] == [("net_balance", True)]


async def test_a_turn_that_never_settles_stops_after_max_steps(make_turns, loopback):
    turns = make_turns(max_steps=3)
    session = turns.start_session("protein")
    loopback.queue(*[call("plan_init", {"mermaid": PLAN})] * 3)  # not a prober tool
    outcome = await turns.respond(session)
    assert outcome.steps == 3 and len(loopback.requests) == 3
    assert outcome.error and "3 model calls spent" in outcome.error
    assert 'the last refused call: unknown tool "plan_init" for the prober' in outcome.error  # the last refusal, whole
    assert ts.needs_reply(turns.transcript(session))  # F5 may try again


# --- failures and warnings ------------------------------------------------------------


async def test_a_brain_error_keeps_the_learners_row_and_returns_one_line(make_turns, loopback):
    turns = make_turns()
    session = turns.start_session("protein")
    loopback.queue(Reply(status=500, error_message="model is loading"))
    outcome = await turns.respond(session)
    assert outcome.error and "\n" not in outcome.error and "model is loading" in outcome.error
    rows = turns.transcript(session)
    assert [(row.role, row.content) for row in rows] == [("user", "protein")]
    assert outcome.status_text == outcome.error
    assert ts.needs_reply(rows)


async def test_a_brain_error_during_the_wake_keeps_the_assessment(make_turns, loopback):
    turns = make_turns()
    session = turns.start_session("protein")
    loopback.queue(call("probe_done", DONE), Reply(status=503))
    outcome = await turns.respond(session)
    assert outcome.woke_teacher and outcome.error and "teacher" in outcome.error
    rows = turns.transcript(session)
    assert phase_of(rows) == "plan" and ts.needs_reply(rows)  # F5 (or opening it) wakes it again
    loopback.queue(call("plan_init", {"mermaid": PLAN}))
    assert (await turns.respond(session)).agent == "teacher"
    assert awaiting_verdict(turns.transcript(session))


def usage(fraction: float) -> dict:
    tokens = int(fraction * 1000)
    return {"prompt_tokens": tokens - 10, "completion_tokens": 10, "total_tokens": tokens}


async def test_context_warnings_fire_once_per_crossing_with_the_roles_levels(make_turns, loopback):
    turns = make_turns(
        "[brain.context_windows]\nprober = 1000\nteacher = 1000\n"
        "[context_warnings.prober]\nwarning = 0.5\nemergency = 0.8\n"
        "[context_warnings.teacher]\nwarning = 0.3\nemergency = 0.9\n"
    )
    session = turns.start_session("protein")

    async def turn(*replies: Reply) -> tuple[str, ...]:
        loopback.queue(*replies)
        outcome = await turns.respond(session)
        turns.add_learner(session, tx.user("go on"))
        return outcome.warnings

    assert await turn(Reply(text="a", usage=usage(0.4))) == ()
    # two calls above the level in one turn (a refusal and its retry): one warning
    warned = await turn(call("plan_init", {"mermaid": PLAN}, usage=usage(0.6)), Reply(text="b", usage=usage(0.62)))
    assert len(warned) == 1 and warned[0].startswith("CTX warning: context 60% full")
    assert await turn(Reply(text="c", usage=usage(0.65))) == ()  # still above: no repeat
    assert await turn(Reply(text="d", usage=usage(0.2))) == ()  # below: re-armed
    assert (await turn(Reply(text="e", usage=usage(0.55))))[0].startswith("CTX warning")
    assert (await turn(Reply(text="f", usage=usage(0.85))))[0].startswith("CTX emergency")
    # the teacher's own levels apply once it answers (0.35 is above its 0.3 warning)
    loopback.queue(Reply(text="g", usage=usage(0.1)))
    await turns.respond(session)
    turns.add_learner(session, tx.user("done"))
    loopback.queue(call("probe_done", DONE, usage=usage(0.1)), call("plan_init", {"mermaid": PLAN}, usage=usage(0.35)))
    outcome = await turns.respond(session)
    assert outcome.woke_teacher and outcome.warnings == ("CTX warning: context 35% full — consider a new "
                                                        "session before long work.",)
    assert outcome.status_text == outcome.warnings[-1]
    assert round(outcome.usage.fraction, 2) == 0.35


# --- sessions -------------------------------------------------------------------------


async def test_sessions_are_tutor_conversations_listed_newest_first(make_turns):
    turns = make_turns()
    first = turns.start_session("  protein   timing ")
    second = turns.start_session("secant lines")
    listed = turns.sessions()
    assert [s.id for s in listed] == [second, first]
    assert {s.kind for s in listed} == {"tutor"} and listed[1].title == "protein timing"
    assert turns.store.chief_id() not in {s.id for s in listed}
    assert [(r.role, r.content) for r in turns.transcript(first)] == [("user", "protein timing")]
