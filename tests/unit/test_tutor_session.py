"""The pure tutor helpers the shell uses: replay to the model, learner messages, display items."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from keeltui.tutor import transcript as tx
from keeltui.tutor.replay import MISSING_RESULT, model_messages, user_text
from keeltui.tutor.session import (
    AgentText,
    AskItem,
    AssessmentItem,
    LearnerLine,
    PlanItem,
    QuizItem,
    VerdictLine,
    learner_line,
    needs_reply,
    quiz_pick,
    session_items,
    verdict,
)
from tests.unit.tutor_script import Script


@pytest.mark.parametrize("module", ["keeltui.tutor.replay", "keeltui.tutor.session"])
def test_the_helpers_are_pure(module):
    probe = (
        "import importlib, sys; importlib.import_module(sys.argv[1]); "
        "print(sorted(m for m in ('textual', 'openai', 'sqlite3') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe, module], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# --- replay -----------------------------------------------------------------------------


def test_replay_pairs_each_call_with_its_result_in_order():
    messages = [
        tx.user("teach me"),
        tx.assistant("Two things.", tx.tool_call("a", "ask", {"question": "Q1?"}),
                     tx.tool_call("b", "quiz", {"question": "Q2?"})),
        tx.tool("b", "quiz", False, "quiz refused: no"),
        tx.tool("a", "ask", True, {"status": "asked"}),
        tx.user("answer"),
    ]
    sent = model_messages("SYSTEM", messages)
    assert sent[0] == {"role": "system", "content": "SYSTEM"}
    assert sent[2]["tool_calls"] == [
        {"id": "a", "type": "function", "function": {"name": "ask", "arguments": '{"question": "Q1?"}'}},
        {"id": "b", "type": "function", "function": {"name": "quiz", "arguments": '{"question": "Q2?"}'}},
    ]
    assert sent[3] == {"role": "tool", "tool_call_id": "a", "content": '{"status": "asked"}'}
    assert sent[4] == {"role": "tool", "tool_call_id": "b", "content": "quiz refused: no"}
    assert sent[5] == {"role": "user", "content": "answer"}


def test_replay_repairs_what_the_protocol_forbids():
    messages = [
        tx.tool("zz", "ask", True, "orphan"),  # a result with no call before it
        tx.user("hi"),
        tx.assistant(""),  # neither text nor calls
        tx.assistant("", {"type": "tool_call", "id": "c", "name": "quiz", "arguments": "{broken"}),
        # no result row: keeltui stopped between the two writes
        tx.user("", tx.quiz_answer("c", 1, True)),
    ]
    sent = model_messages("S", messages)
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "user"]
    assert sent[2]["content"] is None
    assert sent[2]["tool_calls"][0]["function"]["arguments"] == "{broken"  # the model's own text
    assert sent[3] == {"role": "tool", "tool_call_id": "c", "content": MISSING_RESULT}
    assert sent[4]["content"] == "I chose option 2."


def test_user_text_for_bare_parts():
    assert user_text(tx.user("", tx.plan_accepted(1))) == "I accept the plan."
    assert user_text(tx.user("", tx.plan_declined())).startswith("I decline the plan")
    assert user_text(tx.user("typed", tx.plan_declined())) == "typed"


# --- learner messages ---------------------------------------------------------------------


def quiz_call(correct=1):
    return tx.tool_call("q1", "quiz", {"question": "Q?", "choices": ["Glycine", "Leucine"], "correct": correct})


@pytest.mark.parametrize(
    ("correct", "choice", "graded", "text"),
    [
        (1, 1, True, "I chose 2: Leucine — graded correct."),
        (1, 0, False, "I chose 1: Glycine — graded wrong."),
        ("1", 1, True, "I chose 2: Leucine — graded correct."),  # models send strings too
        (1.0, 1, True, "I chose 2: Leucine — graded correct."),
        (True, 1, False, "I chose 2: Leucine — graded wrong."),  # a bool is never an index
    ],
)
def test_a_quiz_pick_is_graded_locally(correct, choice, graded, text):
    message = quiz_pick(quiz_call(correct), choice)
    assert message.content == text
    assert message.parts == ({"type": "quiz_answer", "call_id": "q1", "choice": choice, "correct": graded},)


def test_a_pick_outside_the_choices_is_a_programming_error():
    with pytest.raises(ValueError):
        quiz_pick(quiz_call(), 2)


def test_a_typed_line_answers_a_waiting_ask_but_not_a_waiting_quiz():
    asked = Script().user()
    call_id = asked.call("ask", {"question": "Why?"})
    message = learner_line(asked.messages, "because")
    assert message.parts == ({"type": "ask_answer", "call_id": call_id},)
    quizzed = Script().user().quiz(answer=False)
    assert learner_line(quizzed.messages, "what is MPS?").parts == ()
    assert learner_line(Script().user().messages, "hello").parts == ()


def test_verdicts_carry_the_note_as_text_and_in_the_part():
    accepted = verdict(True, "  short please ", 2)
    assert accepted.content == "I accept the plan.\n\nshort please"
    assert accepted.parts == ({"type": "plan-accepted", "plan_version": 2, "note": "short please"},)
    declined = verdict(False, "", 1)
    assert declined.content == "I decline the plan. Please revise it."
    assert declined.parts == ({"type": "plan-declined", "note": ""},)


# --- whose move -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        (Script(), False),
        (Script().user(), True),
        (Script().user().say("Hello."), False),
        (Script().user().ask(answer=None), False),  # waits for the learner
        (Script().user().quiz(answer=False), False),
        (Script().user().probe_done(), True),  # the wake never ran
        (Script().user().probe_done(ok=False), True),  # a refusal not yet retried
        (Script().user().probe_done().plan_init(), False),  # presented: waits for the verdict
        (Script().taught().plan_init("a[A] --> b[B]"), True),  # a mid-lesson rewrite goes on
        (Script().taught(), True),
    ],
)
def test_needs_reply(script, expected):
    assert needs_reply(script.messages) is expected


def test_an_unanswered_call_needs_a_reply():
    script = Script().user()
    script.call("ask", {"question": "?"}, ok=None)
    assert needs_reply(script.messages)


# --- display items ---------------------------------------------------------------------


def test_items_follow_a_whole_session():
    script = Script().user("teach me protein").say("Let us see.")
    script.call("quiz", {"question": "Bad", "choices": ["x"], "correct": 0}, ok=False)  # refused: hidden
    script.quiz(answer=False)
    quiz_items = [i for i in session_items(script.messages) if isinstance(i, QuizItem)]
    assert [(q.question, q.active, q.answer) for q in quiz_items] == [("Q?", True, None)]
    script.user("", tx.quiz_answer(quiz_items[0].call_id, 0, True))
    script.ask().probe_done().plan_init().decline("shorter").plan_init("a[Alpha] --> b[Beta]")
    items = session_items(script.messages)
    kinds = [type(item).__name__ for item in items]
    assert kinds == ["LearnerLine", "AgentText", "QuizItem", "AskItem", "LearnerLine", "AssessmentItem",
                     "PlanItem", "VerdictLine", "PlanItem"]
    quiz, ask, assessment = items[2], items[3], items[5]
    assert (quiz.answer, quiz.graded, quiz.active) == (0, True, False)
    assert isinstance(ask, AskItem) and not ask.active
    assert isinstance(assessment, AssessmentItem) and assessment.strands == ("knows protein",)
    assert items[1] == AgentText(items[1].key, "prober", "Let us see.")
    first, second = items[6], items[8]
    assert isinstance(first, PlanItem) and (first.version, first.status) == (1, "superseded")
    assert [step[0] for step in first.steps] == ["mps_translation", "net_balance", "per_meal"]
    assert (second.version, second.status, second.steps) == (2, "awaiting", (("a", "Alpha"), ("b", "Beta")))
    assert items[7] == VerdictLine(items[7].key, False, "")  # Script.decline stores no note part
    script.accept("fine").say("First node.")
    items = session_items(script.messages)
    assert items[8].status == "current"
    assert items[-1] == AgentText(items[-1].key, "teacher", "First node.")
    assert isinstance(items[-2], VerdictLine) and items[-2].accepted


def test_item_keys_are_stable_as_the_transcript_grows():
    script = Script().user("hi").ask()
    before = [item.key for item in session_items(script.messages)]
    script.probe_done().plan_init()
    after = [item.key for item in session_items(script.messages)]
    assert after[: len(before)] == before and len(set(after)) == len(after)


def test_learner_lines_skip_quiz_picks_and_blank_rows():
    messages = [tx.user("  "), tx.user("I chose 1", tx.quiz_answer("q", 0, True)), tx.user("real")]
    assert session_items(messages) == [LearnerLine("m2", "real")]


def test_items_survive_junk_arguments():
    script = Script().user()
    script.call("quiz", {"question": 3, "choices": "nope", "correct": "x"})
    script.call("probe_done", {"strands": "x", "edge": None})
    items = session_items(script.messages)
    assert isinstance(items[1], QuizItem) and items[1].choices == () and items[1].correct is None
    json.dumps([item.__dict__ for item in items], default=str)
