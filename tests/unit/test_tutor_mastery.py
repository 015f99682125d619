"""Mastery that lasts: outcomes per node, mastered only when right, spaced review, carry-over."""

from __future__ import annotations

import pytest

from keeltui.tutor import transcript as tx
from keeltui.tutor.mastery import (
    DAY,
    Attempt,
    NodeMastery,
    attempts,
    due_at,
    map_statuses,
    mastery_state,
    merge,
    node_mastery,
    prior_knowledge_note,
    prior_mastery,
    progress_text,
    summarize,
    summary_lines,
    topic_key,
)
from keeltui.tutor.mermaid import parse_plan
from tests.unit.tutor_script import PLAN, Script

NOW = 1_000_000_000.0


def stamped(messages: list[tx.Message], start: float = NOW, step: float = 60.0) -> list[dict]:
    """The script's rows as the store hands them back: dicts with created_at."""
    return [{**message.to_dict(), "created_at": start + index * step} for index, message in enumerate(messages)]


def answered(script: Script, node_id: str, right: bool) -> Script:
    call_id = script.call("quiz", {"question": "Q?", "choices": ["x", "y"], "correct": 0, "node_id": node_id})
    return script.user("", tx.quiz_answer(call_id, 0 if right else 1, right))


def test_attempts_keep_node_outcome_and_time() -> None:
    script = answered(answered(Script().taught(), "mps_translation", False), "mps_translation", True)
    rows = stamped(script.messages)
    found = attempts(rows)
    assert [(a.node_id, a.correct) for a in found] == [("mps_translation", False), ("mps_translation", True)]
    assert all(a.at is not None and a.at >= NOW for a in found)


def test_unanswered_untagged_and_refused_quizzes_are_not_attempts() -> None:
    script = Script().user("x").quiz(answer=True)  # the prober's untagged quiz
    script.taught().quiz("net_balance", answer=False).quiz("per_meal", ok=False)
    assert attempts(script.messages) == []


def test_a_wrong_answer_is_visited_and_to_review_never_mastered() -> None:
    # Before: the map drew a green ✓ for a node answered wrong.
    plan = parse_plan(PLAN)
    script = answered(Script().taught(), "mps_translation", False)
    answered(script, "net_balance", True)
    statuses = map_statuses(plan, stamped(script.messages), NOW + DAY / 2)
    assert statuses == {"mps_translation": "review", "net_balance": "current", "per_meal": "pending"}
    answered(script, "per_meal", True)
    statuses = map_statuses(plan, stamped(script.messages), NOW + DAY / 2)
    assert statuses == {"mps_translation": "review", "net_balance": "mastered", "per_meal": "current"}


def test_a_wrong_answer_on_the_current_step_marks_it_current_and_to_review() -> None:
    # Before: the map kept ▶ there and only the summary said ↻.
    plan = parse_plan(PLAN)
    script = answered(Script().taught(), "mps_translation", False)
    statuses = map_statuses(plan, stamped(script.messages), NOW + 60)
    assert statuses["mps_translation"] == "current-review"
    answered(script, "mps_translation", True)  # right again at once: still in review until a later day
    assert map_statuses(plan, stamped(script.messages), NOW + 600)["mps_translation"] == "current-review"
    answered(script, "mps_translation", True)
    later = stamped(script.messages)
    later[-1]["created_at"] = NOW + DAY + 60  # asked again, answered right the next day
    assert map_statuses(plan, later, NOW + DAY + 120)["mps_translation"] == "current"


def test_visited_without_an_answer_is_only_visited() -> None:
    plan = parse_plan(PLAN)
    script = Script().taught().quiz("mps_translation", answer=False)
    script.user("skip it")
    answered(script, "net_balance", True)
    assert map_statuses(plan, stamped(script.messages), NOW)["mps_translation"] == "visited"


SPACING = [
    # (right answers in a row, days since the last one, state)
    (1, 0.5, "mastered"), (1, 1.0, "review"),
    (2, 2.9, "mastered"), (2, 3.0, "review"),
    (3, 6.0, "mastered"), (3, 7.5, "review"),
    (4, 20.0, "mastered"), (5, 59.0, "mastered"), (9, 61.0, "review"),
]


@pytest.mark.parametrize(("streak", "days", "state"), SPACING)
def test_spaced_review_intervals(streak: int, days: float, state: str) -> None:
    record = node_mastery(Attempt("a", True, NOW + i) for i in range(streak))
    assert mastery_state(record["a"], NOW + streak - 1 + days * DAY) == state


def test_a_wrong_answer_resets_the_run() -> None:
    record = node_mastery([Attempt("a", True, NOW), Attempt("a", True, NOW + 1), Attempt("a", False, NOW + 2)])
    assert record["a"] == NodeMastery("a", 2, 1, 0, NOW + 2, NOW + 1, NOW + 2, cleared=False)
    assert due_at(record["a"]) is None
    assert mastery_state(record["a"], NOW + 3) == "review"
    assert mastery_state(None, NOW) is None


def test_wrong_then_right_stays_in_review_until_right_on_a_later_day() -> None:
    same_day = node_mastery([Attempt("a", False, NOW), Attempt("a", True, NOW + 60)])
    assert mastery_state(same_day["a"], NOW + 120) == "review"  # right again at once: still fresh
    next_day = node_mastery([Attempt("a", False, NOW), Attempt("a", True, NOW + 60), Attempt("a", True, NOW + DAY + 60)])
    assert mastery_state(next_day["a"], NOW + DAY + 120) == "mastered"
    # Across sessions: the mistake came in an earlier session, the right answer later.
    earlier = node_mastery([Attempt("a", False, NOW)])
    assert mastery_state(merge(earlier, node_mastery([Attempt("a", True, NOW + 60)]))["a"], NOW + 120) == "review"
    assert mastery_state(merge(earlier, node_mastery([Attempt("a", True, NOW + DAY)]))["a"], NOW + DAY) == "mastered"


def test_merge_continues_a_run_across_sessions() -> None:
    earlier = node_mastery([Attempt("a", True, NOW)])
    later = node_mastery([Attempt("a", True, NOW + DAY)])
    assert merge(earlier, later)["a"].streak == 2
    broken = node_mastery([Attempt("a", False, NOW + DAY), Attempt("a", True, NOW + DAY + 1)])
    assert merge(earlier, broken)["a"].streak == 1


def test_prior_knowledge_note_words_mastered_and_due_nodes() -> None:
    first = answered(answered(Script().taught(), "mps_translation", True), "net_balance", False)
    prior = prior_mastery([stamped(first.messages)])
    note = prior_knowledge_note(prior, {"mps_translation": "MPS translation", "net_balance": "Net protein balance"}, NOW)
    assert "Mastered: MPS translation (mps_translation)" in note
    assert "Due for review (answered wrong last time, or time to refresh): Net protein balance (net_balance)" in note
    assert prior_knowledge_note({}, {}, NOW) == ""


def test_topic_key_ignores_case_and_spacing() -> None:
    assert topic_key("  Muscle   Protein ") == topic_key("muscle protein")


def test_summary_lists_mastered_review_and_not_yet_with_titles() -> None:
    plan = parse_plan(PLAN)
    script = answered(answered(Script().taught(), "mps_translation", True), "net_balance", False)
    summary = summarize(plan, stamped(script.messages), NOW + 3600)
    assert summary.mastered == (("mps_translation", "MPS translation"),)
    assert summary.review == (("net_balance", "Net protein balance"),)
    assert summary.not_yet == (("per_meal", "Protein per meal"),)
    assert summary_lines(summary) == [
        "Quizzes answered: 2 (1 right)",
        "To review: 1", "  ↻ Net protein balance",
        "Mastered: 1 of 3 steps", "  ✓ MPS translation",
        "Not yet answered: 1", "  ○ Protein per meal",
    ]
    assert progress_text(plan, stamped(script.messages), NOW + 3600) == "1/3 mastered · 1 to review"
    assert progress_text(None, [], NOW) == ""


def test_the_probers_quiz_is_not_counted_as_answered() -> None:
    # Before: "Quizzes answered" counted the prober's placement quiz, which grades no step.
    script = Script().user("x").quiz()
    assert summary_lines(summarize(None, script.messages, NOW)) == [
        "Quizzes answered: 0 (0 right)",
        "No plan yet: mastery is counted per plan step once the plan is accepted.",
    ]
    answered(script.taught(), "mps_translation", False)
    assert summarize(parse_plan(PLAN), script.messages, NOW).answered == 1  # the plan's quiz only


def test_quiz_items_carry_the_title_of_the_step_on_the_plan_in_force() -> None:
    from keeltui.tutor.session import PlanItem, QuizItem, session_items

    script = Script().taught().quiz("net_balance")
    script.plan_init(PLAN.replace("Net protein balance", "Net balance, revised"))
    script.quiz("net_balance").quiz("gone_node", answer=False)
    quizzes = [item for item in session_items(script.messages) if isinstance(item, QuizItem)]
    assert [(q.node_id, q.node_title) for q in quizzes] == [
        ("net_balance", "Net protein balance"), ("net_balance", "Net balance, revised"), ("gone_node", None)]
    plans = [item for item in session_items(script.messages) if isinstance(item, PlanItem)]
    assert plans[0].edges == (("mps_translation", "net_balance"), ("net_balance", "per_meal"))
