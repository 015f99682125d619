"""Phases and session questions, derived from transcript events only."""

from __future__ import annotations

import pytest

from keeltui.tutor import transcript as tx
from keeltui.tutor.phases import (
    active_agent,
    awaiting_verdict,
    latest_plan,
    pending_question,
    phase_of,
    plan_version,
    probe_concluded,
)
from tests.unit.tutor_script import PLAN, Script


def state(script: Script) -> tuple[str, str, bool]:
    messages = script.messages
    return phase_of(messages), active_agent(messages), awaiting_verdict(messages)


def test_an_empty_session_is_probing() -> None:
    assert state(Script()) == ("probe", "prober", False)
    assert not probe_concluded([])
    assert pending_question([]) is None
    assert latest_plan([]) is None


def test_questions_and_answers_keep_the_probe() -> None:
    script = Script().user("teach me protein").ask().quiz().say("Good.")
    assert state(script) == ("probe", "prober", False)


def test_a_refused_probe_done_keeps_the_probe() -> None:
    script = Script().user().probe_done(ok=False)
    assert state(script) == ("probe", "prober", False)
    assert not probe_concluded(script.messages)


def test_a_probe_done_without_a_result_does_not_conclude() -> None:
    script = Script().user()
    script.call("probe_done", {"strands": [], "edge": "x"}, ok=None)
    assert phase_of(script.messages) == "probe"


def test_probe_done_moves_to_plan_and_the_teacher() -> None:
    script = Script().user().ask().probe_done()
    assert probe_concluded(script.messages)
    assert state(script) == ("plan", "teacher", False)


def test_presenting_the_plan_does_not_move_the_phase() -> None:
    script = Script().user().probe_done().plan_init().say("Here is the plan.")
    assert state(script) == ("plan", "teacher", True)


def test_a_failed_plan_init_presents_nothing() -> None:
    script = Script().user().probe_done().plan_init("graph TD\nMPS[x]", ok=False)
    assert state(script) == ("plan", "teacher", False)
    assert latest_plan(script.messages) is None
    assert plan_version(script.messages) == 0


def test_a_side_question_leaves_the_phase_alone() -> None:
    script = Script().user().probe_done().plan_init().user("what is MPS?").say("It is…")
    assert state(script) == ("plan", "teacher", True)


def test_a_decline_keeps_the_plan_waiting() -> None:
    script = Script().user().probe_done().plan_init().decline("shorter please")
    assert state(script) == ("plan", "teacher", True)
    script.plan_init("a[Shorter] --> b[Plan]")
    assert state(script) == ("plan", "teacher", True)
    assert plan_version(script.messages) == 2


def test_accepting_moves_to_teach() -> None:
    script = Script().user().probe_done().plan_init().accept()
    assert state(script) == ("teach", "teacher", False)


def test_accept_after_a_decline_and_revision() -> None:
    script = Script().user().probe_done().plan_init().decline().plan_init("a[A] --> b[B]").accept()
    assert state(script) == ("teach", "teacher", False)
    assert latest_plan(script.messages).ids == ("a", "b")  # type: ignore[union-attr]


def test_an_accept_before_any_presented_plan_does_not_count() -> None:
    script = Script().user().probe_done().accept().plan_init()
    assert state(script) == ("plan", "teacher", True)


def test_an_accept_part_on_an_assistant_message_does_not_count() -> None:
    script = Script().user().probe_done().plan_init()
    script.messages.append(tx.assistant("", tx.plan_accepted(1)))
    assert phase_of(script.messages) == "plan"


def test_an_accept_during_the_probe_does_not_skip_ahead() -> None:
    script = Script().user("", tx.plan_accepted(1)).ask()
    assert phase_of(script.messages) == "probe"


def test_a_rewrite_after_acceptance_stays_in_teach() -> None:
    script = Script().taught().quiz("net_balance").plan_init("per_meal[Per meal] --> extra[Extra]")
    assert state(script) == ("teach", "teacher", False)
    assert latest_plan(script.messages).ids == ("per_meal", "extra")  # type: ignore[union-attr]


def test_latest_plan_ignores_a_later_failed_rewrite() -> None:
    script = Script().taught().plan_init("BAD[x]", ok=False)
    assert latest_plan(script.messages).ids == ("mps_translation", "net_balance", "per_meal")  # type: ignore[union-attr]


def test_phases_read_plain_dicts_too() -> None:
    messages = [message.to_dict() for message in Script().taught().messages]
    assert phase_of(messages) == "teach"
    assert latest_plan(messages) is not None


def test_arguments_stored_as_a_json_string_still_count() -> None:
    messages = Script().user().probe_done().messages
    messages.append(tx.assistant("", {"type": "tool_call", "id": "p1", "name": "plan_init",
                                      "arguments": '{"mermaid": "a[A] --> b[B]"}'}))
    messages.append(tx.tool("p1", "plan_init", True, {}))
    assert latest_plan(messages).edges == (("a", "b"),)  # type: ignore[union-attr]


def test_a_result_without_a_name_is_matched_to_its_call() -> None:
    messages = Script().user().messages
    messages.append(tx.assistant("", tx.tool_call("c1", "probe_done", {"strands": [], "edge": "e"})))
    messages.append(tx.Message("tool", "", ({"type": "tool_result", "call_id": "c1", "ok": True},)))
    assert phase_of(messages) == "plan"


@pytest.mark.parametrize(
    "junk",
    [
        {"role": "user"},
        {"role": "assistant", "parts": None},
        {"role": "assistant", "parts": "not a list"},
        {"role": "assistant", "parts": [None, 3, {"type": "tool_call"}]},
        {"role": "tool", "parts": [{"type": "tool_result", "call_id": ["x"], "ok": True}]},
        {"role": "assistant", "parts": [{"type": "tool_call", "id": ["unhashable"], "name": "quiz"}]},
    ],
)
def test_malformed_rows_are_skipped_not_fatal(junk: dict) -> None:
    messages = [*Script().user().probe_done().messages, junk]
    assert phase_of(messages) == "plan"
    assert pending_question(messages) is None


# --- pending questions ------------------------------------------------------------------


def test_an_unanswered_quiz_is_pending() -> None:
    script = Script().user().quiz(answer=False)
    pending = pending_question(script.messages)
    assert pending is not None and pending["name"] == "quiz"


def test_an_answered_quiz_is_not_pending() -> None:
    assert pending_question(Script().user().quiz().messages) is None


def test_a_side_message_does_not_answer_a_quiz() -> None:
    script = Script().user().quiz(answer=False).user("wait, what does MPS mean?")
    assert pending_question(script.messages) is not None


def test_an_ask_is_answered_by_the_next_user_text() -> None:
    script = Script().user().ask(answer=None)
    assert pending_question(script.messages)["name"] == "ask"  # type: ignore[index]
    script.user("I know a little")
    assert pending_question(script.messages) is None


def test_an_ask_answer_part_counts_even_without_text() -> None:
    script = Script().user()
    call_id = script.call("ask", {"question": "?"})
    script.user("", tx.ask_answer(call_id))
    assert pending_question(script.messages) is None


def test_a_refused_question_is_not_pending() -> None:
    script = Script().user().quiz(ok=False)
    assert pending_question(script.messages) is None


def test_a_question_without_a_result_yet_is_pending() -> None:
    script = Script().user()
    script.call("quiz", {"question": "Q", "choices": ["a", "b"], "correct": 0}, ok=None)
    assert pending_question(script.messages) is not None


def test_a_newer_question_supersedes_an_older_one() -> None:
    script = Script().user().quiz(answer=False).ask(answer=None)
    assert pending_question(script.messages)["name"] == "ask"  # type: ignore[index]
    script.user("an answer")
    assert pending_question(script.messages) is None


def test_an_answer_to_another_call_does_not_close_the_quiz() -> None:
    script = Script().user().quiz(answer=False).user("", tx.quiz_answer("someone-else", 1, False))
    assert pending_question(script.messages) is not None


def test_plan_version_counts_presented_plans() -> None:
    script = Script().user().probe_done()
    assert plan_version(script.messages) == 0
    script.plan_init().decline().plan_init(PLAN)
    assert plan_version(script.messages) == 2
