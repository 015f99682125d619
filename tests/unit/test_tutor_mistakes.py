"""Mistakes from a transcript: wrong, "I don't know" and skipped quizzes, each with the right answer."""

from __future__ import annotations

from keeltui.tutor import transcript as tx
from keeltui.tutor.mistakes import DONT_KNOW_KIND, SKIPPED, WRONG, mistake_lines, mistakes
from keeltui.tutor.session import quiz_pick
from tests.unit.tutor_script import Script


def _quiz(script: Script, node_id: str, question: str) -> dict:
    call_id = script.call("quiz", {"question": question, "choices": ["x", "y"], "correct": 1, "node_id": node_id})
    return {"id": call_id, "name": "quiz", "arguments": {"question": question, "choices": ["x", "y"], "correct": 1}}


def test_wrong_dont_know_and_skipped_are_mistakes_and_right_or_open_are_not() -> None:
    script = Script().taught()
    script.messages.append(quiz_pick(_quiz(script, "mps_translation", "Wrong one?"), 0))
    script.messages.append(quiz_pick(_quiz(script, "net_balance", "Not known?"), tx.DONT_KNOW))
    _quiz(script, "per_meal", "Passed over?")
    script.user("next please")
    script.messages.append(quiz_pick(_quiz(script, "per_meal", "Right one?"), 1))
    _quiz(script, "per_meal", "Still open?")
    found = mistakes(script.messages)
    assert [(m.question, m.kind, m.picked, m.right, m.step) for m in found] == [
        ("Wrong one?", WRONG, "x", "y", "MPS translation"),
        ("Not known?", DONT_KNOW_KIND, "", "y", "Net protein balance"),
        ("Passed over?", SKIPPED, "", "y", "Protein per meal"),
    ]
    lines = mistake_lines(found)
    assert lines[0] == "Mistakes: 3"
    assert "      you chose “x” · right: y" in lines and "      you did not know · right: y" in lines
    assert "  ↷ Passed over? [Protein per meal]" in lines


def test_no_mistakes_says_so() -> None:
    assert mistake_lines([]) == ["Mistakes: 0 — none so far"]


def test_the_teacher_may_not_restart_a_job_the_learner_just_aborted() -> None:
    from keeltui.tutor import jobs as tj
    from keeltui.tutor.tools import validate_tool_call

    script = Script().taught()
    call_id = script.call("research", {"query": "leucine"})
    job = tj.Job(call_id, tj.RESEARCH, "leucine")
    script.messages.append(tj.steer(job, tj.ABORTED, tj.result_text(job, tj.ABORTED, "")))
    again = validate_tool_call("teacher", "research", {"query": "leucine"}, script.messages)
    assert not again.ok and "the learner aborted this research job" in str(again.result)
    assert validate_tool_call("teacher", "research", {"query": "timing"}, script.messages).ok  # another job is fine
    script.user(tj.rerun_request("research", "leucine"))  # the learner asks: allowed again
    assert validate_tool_call("teacher", "research", {"query": "leucine"}, script.messages).ok
