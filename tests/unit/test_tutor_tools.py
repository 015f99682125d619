"""Tool schemas (an exact contract) and the pure validation of tool calls."""

from __future__ import annotations

import json
from typing import Any

import pytest

from keeltui.tutor.tools import (
    ToolOutcome,
    prober_tools,
    teacher_tools,
    tools_for,
    validate_tool_call,
)
from tests.unit.tutor_script import PLAN, Script


def by_name(tools: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {tool["function"]["name"]: tool for tool in tools}


def params(tools: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return by_name(tools)[name]["function"]["parameters"]


# --- schemas ----------------------------------------------------------------------------


def test_every_tool_is_an_openai_function() -> None:
    for tool in prober_tools() + teacher_tools():
        assert tool["type"] == "function"
        assert set(tool["function"]) == {"name", "description", "parameters"}
        assert tool["function"]["description"].strip()
        parameters = tool["function"]["parameters"]
        assert parameters["type"] == "object"
        assert parameters["additionalProperties"] is False
        assert set(parameters["required"]) == set(parameters["properties"])
        json.dumps(tool)  # serialisable as sent


def test_prober_tool_names_and_parameters() -> None:
    tools = prober_tools()
    assert [tool["function"]["name"] for tool in tools] == ["quiz", "ask", "probe_done"]
    assert set(params(tools, "quiz")["properties"]) == {"question", "choices", "correct"}
    assert "node_id" not in params(tools, "quiz")["properties"]
    assert set(params(tools, "ask")["properties"]) == {"question"}
    assert set(params(tools, "probe_done")["properties"]) == {"strands", "edge"}
    assert params(tools, "probe_done")["properties"]["strands"]["type"] == "array"
    assert params(tools, "probe_done")["properties"]["strands"]["items"] == {"type": "string"}
    assert params(tools, "probe_done")["properties"]["edge"]["type"] == "string"


def test_teacher_tool_names_and_parameters() -> None:
    tools = teacher_tools()
    assert [tool["function"]["name"] for tool in tools] == ["plan_init", "quiz", "ask", "research", "demo", "visual"]
    quiz = params(tools, "quiz")
    assert set(quiz["properties"]) == {"question", "choices", "correct", "node_id"}
    assert "node_id" in quiz["required"]
    assert quiz["properties"]["node_id"]["type"] == "string"
    assert set(params(tools, "plan_init")["properties"]) == {"mermaid"}
    assert set(params(tools, "ask")["properties"]) == {"question"}


def test_quiz_schema_types() -> None:
    quiz = params(teacher_tools(), "quiz")["properties"]
    assert quiz["question"]["type"] == "string"
    assert quiz["choices"] == {**quiz["choices"], "type": "array", "items": {"type": "string"},
                               "minItems": 2, "maxItems": 8}
    assert quiz["correct"]["type"] == "integer"


def test_plan_init_description_states_the_one_strict_rule() -> None:
    description = by_name(teacher_tools())["plan_init"]["function"]["description"]
    assert "slug" in description and "lowercase" in description


def test_schemas_are_fresh_copies() -> None:
    prober_tools()[0]["function"]["name"] = "mutated"
    assert prober_tools()[0]["function"]["name"] == "quiz"


def test_tools_for() -> None:
    assert tools_for("prober") == prober_tools()
    assert tools_for("teacher") == teacher_tools()
    with pytest.raises(ValueError):
        tools_for("chief")


# --- validation -------------------------------------------------------------------------

QUIZ = {"question": "Which builds muscle?", "choices": ["MPS", "MPB"], "correct": 0}


def refused(outcome: ToolOutcome) -> str:
    assert outcome.ok is False, outcome
    assert isinstance(outcome.result, str)
    assert outcome.ends_turn is False and outcome.wake_teacher is False
    return outcome.result


def test_unknown_tool_for_the_agent() -> None:
    assert refused(validate_tool_call("prober", "plan_init", {"mermaid": PLAN}, [])) == (
        'unknown tool "plan_init" for the prober — available: quiz, ask, probe_done'
    )
    assert "available: plan_init, quiz, ask" in refused(
        validate_tool_call("teacher", "probe_done", {"strands": [], "edge": "x"}, [])
    )


def test_unknown_agent_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        validate_tool_call("chief", "ask", {"question": "?"}, [])


def test_ask() -> None:
    outcome = validate_tool_call("prober", "ask", {"question": "  What do you know?  "}, [])
    assert outcome.ok and outcome.ends_turn and not outcome.wake_teacher
    assert outcome.result["question"] == "What do you know?"  # type: ignore[index]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, 'missing argument "question"'),
        ({"question": 3}, 'argument "question" must be a string'),
        ({"question": "   "}, 'argument "question" is empty'),
    ],
)
def test_ask_bad_arguments(arguments: dict[str, Any], message: str) -> None:
    assert refused(validate_tool_call("prober", "ask", arguments, [])) == f"ask refused: {message}"


def test_prober_quiz() -> None:
    outcome = validate_tool_call("prober", "quiz", QUIZ, [])
    assert outcome.ok and outcome.ends_turn
    assert "node_id" not in outcome.result  # type: ignore[operator]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"choices": None}, 'missing argument "choices"'),
        ({"choices": "MPS, MPB"}, 'argument "choices" must be a list of strings'),
        ({"choices": ["MPS", 2]}, 'argument "choices" must be a list of strings'),
        ({"choices": ["only one"]}, 'argument "choices" needs 2 to 8 options, got 1'),
        ({"choices": [str(i) for i in range(9)]}, 'argument "choices" needs 2 to 8 options, got 9'),
        ({"choices": ["MPS", " "]}, 'argument "choices" has an empty option'),
        ({"choices": ["MPS", "mps "]}, 'argument "choices" repeats an option; each must be different'),
        ({"correct": None}, 'missing argument "correct"'),
        ({"correct": 2}, 'argument "correct" is 2, but "choices" has 2 options (indexes 0 to 1)'),
        ({"correct": -1}, 'argument "correct" is -1, but "choices" has 2 options (indexes 0 to 1)'),
        ({"correct": True}, 'argument "correct" must be an integer index into "choices"'),
        ({"correct": "first"}, 'argument "correct" must be an integer index into "choices"'),
        ({"correct": 0.5}, 'argument "correct" must be an integer index into "choices"'),
    ],
)
def test_quiz_bad_arguments(change: dict[str, Any], message: str) -> None:
    arguments = {**QUIZ, **change}
    arguments = {key: value for key, value in arguments.items() if value is not None}
    assert refused(validate_tool_call("prober", "quiz", arguments, [])) == f"quiz refused: {message}"


@pytest.mark.parametrize("correct", ["1", 1.0, 1])
def test_quiz_correct_accepts_integer_like_values(correct: Any) -> None:
    assert validate_tool_call("prober", "quiz", {**QUIZ, "correct": correct}, []).ok


def test_quiz_with_eight_choices_is_fine() -> None:
    arguments = {**QUIZ, "choices": [f"option {i}" for i in range(8)], "correct": 7}
    assert validate_tool_call("prober", "quiz", arguments, []).ok


def test_arguments_may_arrive_as_a_json_string() -> None:
    assert validate_tool_call("prober", "quiz", json.dumps(QUIZ), []).ok
    assert refused(validate_tool_call("prober", "quiz", "{not json", [])).startswith(
        "quiz refused: the arguments are not valid JSON"
    )
    assert refused(validate_tool_call("prober", "quiz", "[1, 2]", [])) == (
        "quiz refused: the arguments must be a JSON object"
    )


def test_extra_arguments_are_ignored() -> None:
    assert validate_tool_call("prober", "quiz", {**QUIZ, "node_id": "x"}, []).ok


# teacher quiz ---------------------------------------------------------------------------


def test_teacher_quiz_on_a_plan_node() -> None:
    messages = Script().taught().messages
    outcome = validate_tool_call("teacher", "quiz", {**QUIZ, "node_id": "net_balance"}, messages)
    assert outcome.ok and outcome.ends_turn
    assert outcome.result["node_id"] == "net_balance"  # type: ignore[index]


def test_teacher_quiz_requires_node_id() -> None:
    messages = Script().taught().messages
    assert refused(validate_tool_call("teacher", "quiz", QUIZ, messages)) == (
        'quiz refused: missing argument "node_id"'
    )


def test_teacher_quiz_unknown_node_lists_the_valid_ids() -> None:
    messages = Script().taught().messages
    assert refused(validate_tool_call("teacher", "quiz", {**QUIZ, "node_id": "protein"}, messages)) == (
        'quiz refused: node_id "protein" is not in the plan — use one of: '
        "mps_translation, net_balance, per_meal"
    )


def test_teacher_quiz_uses_the_latest_plan() -> None:
    messages = Script().taught().plan_init("timing[Timing] --> per_meal[Per meal]").messages
    assert validate_tool_call("teacher", "quiz", {**QUIZ, "node_id": "timing"}, messages).ok
    assert not validate_tool_call("teacher", "quiz", {**QUIZ, "node_id": "net_balance"}, messages).ok


def test_teacher_quiz_before_any_plan() -> None:
    messages = Script().user().probe_done().messages
    assert refused(validate_tool_call("teacher", "quiz", {**QUIZ, "node_id": "a"}, messages)) == (
        "quiz refused: there is no plan yet — call plan_init first"
    )


def test_teacher_quiz_is_refused_while_the_plan_awaits_its_verdict() -> None:
    messages = Script().user().probe_done().plan_init().messages
    message = refused(validate_tool_call("teacher", "quiz", {**QUIZ, "node_id": "net_balance"}, messages))
    assert "waiting for the learner's verdict" in message


def test_teacher_may_ask_while_the_plan_awaits_its_verdict() -> None:
    messages = Script().user().probe_done().plan_init().decline().messages
    assert validate_tool_call("teacher", "ask", {"question": "What should change?"}, messages).ok


# probe_done -----------------------------------------------------------------------------

PROBE = {"strands": ["knows what protein is", " eats three meals "], "edge": "unsure about timing"}


def test_probe_done_concludes_and_wakes_the_teacher() -> None:
    messages = Script().user().ask().quiz().messages
    outcome = validate_tool_call("prober", "probe_done", PROBE, messages)
    assert outcome.ok and outcome.ends_turn and outcome.wake_teacher
    assert outcome.result == {
        "status": "probe concluded",
        "strands": ["knows what protein is", "eats three meals"],
        "edge": "unsure about timing",
    }


def test_probe_done_with_no_strands_is_fine() -> None:
    assert validate_tool_call("prober", "probe_done", {"strands": [], "edge": "a beginner"}, []).ok


def test_probe_done_refused_while_a_quiz_is_open() -> None:
    messages = Script().user().quiz(answer=False).messages
    assert refused(validate_tool_call("prober", "probe_done", PROBE, messages)) == (
        'probe_done refused: the learner has not answered your open quiz ("Q?") yet — '
        "end your turn and wait for their answer"
    )


def test_probe_done_refused_while_an_ask_is_open() -> None:
    messages = Script().user().ask(answer=None).messages
    assert "open question" in refused(validate_tool_call("prober", "probe_done", PROBE, messages))


def test_probe_done_refused_alongside_a_quiz_in_the_same_reply() -> None:
    script = Script().user()
    script.call("quiz", QUIZ, ok=None)  # persisted, its result not written yet
    assert not validate_tool_call("prober", "probe_done", PROBE, script.messages).ok


def test_probe_done_refused_once_concluded() -> None:
    messages = Script().user().probe_done().messages
    assert refused(validate_tool_call("prober", "probe_done", PROBE, messages)) == (
        "probe_done refused: the probe is already concluded — the teacher has taken over"
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"edge": "x"}, 'missing argument "strands"'),
        ({"strands": "a, b", "edge": "x"}, 'argument "strands" must be a list of strings'),
        ({"strands": ["a", ""], "edge": "x"}, 'argument "strands" has an empty item'),
        ({"strands": ["a"]}, 'missing argument "edge"'),
        ({"strands": ["a"], "edge": ""}, 'argument "edge" is empty'),
    ],
)
def test_probe_done_bad_arguments(arguments: dict[str, Any], message: str) -> None:
    assert refused(validate_tool_call("prober", "probe_done", arguments, [])) == (
        f"probe_done refused: {message}"
    )


# plan_init ------------------------------------------------------------------------------


def test_plan_init_presents_and_ends_the_turn() -> None:
    messages = Script().user().probe_done().messages
    outcome = validate_tool_call("teacher", "plan_init", {"mermaid": PLAN}, messages)
    assert outcome.ok and outcome.ends_turn and not outcome.wake_teacher
    assert outcome.plan is not None and outcome.plan.ids == ("mps_translation", "net_balance", "per_meal")
    assert outcome.result["status"] == "plan presented"  # type: ignore[index]
    assert outcome.result["version"] == 1  # type: ignore[index]
    assert outcome.result["order"] == ["mps_translation", "net_balance", "per_meal"]  # type: ignore[index]


def test_plan_init_revision_after_a_decline_counts_up() -> None:
    messages = Script().user().probe_done().plan_init().decline().messages
    outcome = validate_tool_call("teacher", "plan_init", {"mermaid": "a[A] --> b[B]"}, messages)
    assert outcome.ok and outcome.ends_turn
    assert outcome.result["version"] == 2  # type: ignore[index]


def test_plan_init_rewrite_mid_lesson_keeps_teaching() -> None:
    messages = Script().taught().quiz("mps_translation").messages
    outcome = validate_tool_call("teacher", "plan_init", {"mermaid": "a[A] --> b[B]"}, messages)
    assert outcome.ok and not outcome.ends_turn
    assert outcome.result["status"] == "plan replaced"  # type: ignore[index]


def test_plan_init_invalid_plan_carries_the_line() -> None:
    messages = Script().user().probe_done().messages
    outcome = validate_tool_call("teacher", "plan_init", {"mermaid": "graph TD\n  a[A] --> MPS[M]"}, messages)
    assert refused(outcome) == (
        'plan_init refused: line 2: node id "MPS" is not a slug — use lowercase letters, digits, '
        '"-" or "_", e.g. "mps" — fix it and call plan_init again with the whole plan'
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, 'plan_init refused: missing argument "mermaid"'),
        ({"mermaid": ["a[A]"]}, 'plan_init refused: argument "mermaid" must be a string'),
        ({"mermaid": ""}, "plan_init refused: line 1: the plan is empty"),
    ],
)
def test_plan_init_bad_arguments(arguments: dict[str, Any], message: str) -> None:
    messages = Script().user().probe_done().messages
    assert refused(validate_tool_call("teacher", "plan_init", arguments, messages)).startswith(message)
