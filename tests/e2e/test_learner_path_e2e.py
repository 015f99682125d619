"""The whole learner path in the real keeltui in tmux at 120x40, against the loopback brain.

A new session from a topic, the prober's quiz answered by a key, the teacher waking, the
plan drawn as a graph, a decline with a note, the revised plan, accept, tagged quizzes
moving the marks on the map, a research job landing its result, quit, resume, and
``keeltui tutor export``. Each step is asserted on what the pane shows while it happens.

The brain is scripted by what each request holds (the agent's tools, the last message),
not by call order: a background job calls the model beside the teacher's turn.
"""

from __future__ import annotations

import threading

from tests.conftest import write_config
from keeltui_dev.loopback import Reply
from tests.support.tmux import Tmux, keeltui_command, run_keeltui

TOPIC = "muscle protein"
PLAN_V1 = """graph TD
  basics[Protein basics] --> timing[Meal timing]
  basics --> dose[Dose per meal]
  basics --> history[History of nutrition science]
  timing --> day[Plan a whole day]
  dose --> day
"""
PLAN_V2 = """graph TD
  basics[Protein basics] --> timing[Meal timing]
  basics --> dose[Dose per meal]
  timing --> day[Plan a whole day]
  dose --> day
"""
DECLINE_NOTE = "drop the history step"
RESEARCH_BRIEF = "Leucine threshold: about 2.5 g per meal."


def _quiz(question: str, choices: list[str], correct: int, node_id: str | None = None) -> dict:
    arguments = {"question": question, "choices": choices, "correct": correct}
    if node_id is not None:
        arguments["node_id"] = node_id
    return {"name": "quiz", "arguments": arguments}


class LearnerBrain:
    """Answers each request as the agent it is for would, from the request alone."""

    def __init__(self) -> None:
        self.research_gate = threading.Event()
        """The job's call waits here until the test has seen the job running."""

    def __call__(self, request: dict) -> Reply:
        tools = {tool["function"]["name"] for tool in request.get("tools") or []}
        messages = request["messages"]
        last = messages[-1]
        content = last.get("content") or ""
        if not tools:  # a background job's own call
            self.research_gate.wait(60)
            return Reply(text=RESEARCH_BRIEF)
        if "probe_done" in tools:
            return self._prober(content)
        return self._teacher(last, content, messages)

    @staticmethod
    def _prober(content: str) -> Reply:
        if content == TOPIC:
            return Reply(text="First, what do you know?",
                         tool_calls=[_quiz("Which nutrient builds muscle?", ["Fat", "Protein", "Fibre"], 1)])
        return Reply(tool_calls=[{"name": "probe_done",
                                  "arguments": {"strands": ["knows protein builds muscle"], "edge": "timing"}}])

    @staticmethod
    def _teacher(last: dict, content: str, messages: list[dict]) -> Reply:
        if last["role"] == "tool" and "probe concluded" in content:  # the wake
            return Reply(text="The teacher here: a plan for you.",
                         tool_calls=[{"name": "plan_init", "arguments": {"mermaid": PLAN_V1}}])
        if last["role"] == "tool" and "started" in content:  # the job runs: teach on
            return Reply(text="Meanwhile, think about your own meals.")
        if content.startswith("[research job finished"):
            return Reply(text="The research is in: aim for 2.5 g of leucine per meal.")
        if content.startswith("I decline the plan"):
            return Reply(text="Revised without the history step.",
                         tool_calls=[{"name": "plan_init", "arguments": {"mermaid": PLAN_V2}}])
        if content.startswith("I accept the plan"):
            return Reply(tool_calls=[_quiz("What are proteins made of?", ["Amino acids", "Sugars"], 0, "basics")])
        if content.startswith("I chose") and not _asked(messages, "dose"):
            return Reply(tool_calls=[_quiz("How much protein per meal?", ["5 g", "25 g"], 1, "dose")])
        if content.startswith("I chose"):
            return Reply(text="Let me look that up for you.",
                         tool_calls=[{"name": "research", "arguments": {"query": "leucine threshold"}}])
        return Reply(status=500, error_message=f"unscripted teacher request after {content[:60]!r}")


def _asked(messages: list[dict], node_id: str) -> bool:
    for message in messages:
        for call in message.get("tool_calls") or []:
            if f'"node_id": "{node_id}"' in call["function"]["arguments"]:
                return True
    return False


def _line_with(screen: str, *needles: str) -> str | None:
    for line in screen.splitlines():
        if all(needle in line for needle in needles):
            return line
    return None


def _marked(screen: str, mark: str, title: str) -> bool:
    """The map (right of the transcript) shows ``mark`` beside ``title``."""
    return any(mark in line and title in line and line.index(mark) < line.index(title)
               for line in screen.splitlines())


def test_the_learner_path_from_topic_to_export(tmp_path, loopback, tmux, e2e_env):
    brain = LearnerBrain()
    loopback.responder = brain
    # A generous brain timeout: the job's call is held until the test has seen it running.
    config = write_config(tmp_path / "config.toml", loopback.url,
                          f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
                          timeout=90)
    tmux.start(keeltui_command(config), e2e_env)

    # A new session from a topic.
    tmux.wait_text("Write to the Chief")
    tmux.send("C-t", "Enter")  # one burst: the list has the keys as it shows ("+ New session")
    tmux.wait_text("What do you want to learn?", timeout=30)
    tmux.type(TOPIC)
    tmux.send("Enter")

    # The prober's quiz, answered by a key.
    screen = tmux.wait_text("Press 1–3", timeout=30)
    assert "Which nutrient builds muscle?" in screen
    assert max(len(line.rstrip()) for line in screen.splitlines()) > 80  # the app has the 120 columns
    tmux.send("2")

    # The teacher wakes by itself once the probe concludes: the assessment, the teacher's
    # first words and the plan, drawn as a graph (a three-way branch, a join).
    screen = tmux.wait_for(lambda s: "╭─ Assessment" in s and "• knows protein builds muscle" in s
                           and "The teacher here: a plan for you." in s and "Plan v1  5 steps" in s
                           and "Accept with ctrl+o or decline with ctrl+r" in s,
                           timeout=30, what="the teacher's wake and plan")
    assert _line_with(screen, "│ ├─┬─╮") is not None and _line_with(screen, "│ ├─╯") is not None
    assert _line_with(screen, "│ │ ○ History of nutrition science") is not None
    assert "the plan waits for your verdict" in screen and "^r Decline plan" in screen

    # Decline with a note: the revised plan replaces it.
    tmux.type(DECLINE_NOTE)
    tmux.wait_text(DECLINE_NOTE)
    tmux.send("C-r")
    screen = tmux.wait_for(lambda s: "Plan v2" in s and "Revised without the history step." in s,
                           timeout=30, what="the revised plan")
    assert "(replaced)" in screen
    assert _line_with(screen, "○ History of nutrition science") is None  # v1 folds to one line
    assert _line_with(screen, "Changed since v1: Removed: History of nutrition science") is not None
    assert "✗ You declined the plan.  drop the history step" in screen
    assert not _marked(screen, "○", "History")  # the map follows the revised plan
    assert any(m["role"] == "user" and m["content"].endswith(DECLINE_NOTE)
               for m in loopback.requests[-1]["messages"])  # the teacher read the note

    # Accept: teaching starts with a quiz tagged to a node, and the map shows where we are.
    tmux.send("C-o")
    screen = tmux.wait_for(lambda s: "What are proteins made of?" in s and _marked(s, "▶", "Protein basics"),
                           timeout=30, what="the first tagged quiz and the map")
    assert "Quiz  · Protein basics" in screen  # the card names the step, not its id
    assert "✓ You accepted the plan." in screen
    tmux.send("1")  # right
    screen = tmux.wait_for(lambda s: "How much protein per meal?" in s and _marked(s, "✓", "Protein basics")
                           and _marked(s, "▶", "Dose per meal"), timeout=30, what="basics mastered")
    tmux.send("1")  # wrong: 25 g was right

    # The wrong answer is graded on the card; the teacher starts a research job and teaches on.
    screen = tmux.wait_for(lambda s: "Not quite — the answer was 2." in s
                           and "Meanwhile, think about your own meals." in s
                           and _line_with(s, "Research job: leucine threshold", "running") is not None
                           and "Abort job" in s, timeout=30, what="the job running beside the turn")
    # Answered wrong where the learner stands: the map keeps ▶ there and says ↻ too, as the summary does.
    assert _marked(screen, "✓", "Protein basics") and _marked(screen, "▶", "Dose per meal ↻")
    tmux.wait_for(lambda _: any(not r.get("tools") for r in loopback.requests), what="the job's own call")
    brain.research_gate.set()
    screen = tmux.wait_for(lambda s: "The research is in: aim for 2.5 g of leucine per meal." in s
                           and "Abort job" not in s and "▶ Research: leucine threshold — result" in s,
                           timeout=30, what="the job's result, a folded card, waking the teacher")
    assert _line_with(screen, "Research job: leucine threshold", "done") is not None
    assert _line_with(screen, "Research job: leucine threshold", "running") is None

    # The summary: basics mastered, the dose (answered wrong) to review.
    tmux.send("F4")
    # One wait for all of it: a capture can fall between two reads of one frame (tmux shows
    # what it has read), so the first line of the dialog may be on screen before the rest.
    tmux.wait_for(lambda s: "To review: 1" in s and "↻ Dose per meal" in s and "✓ Protein basics" in s
                  and "Mastered: 1 of 4 steps" in s, what="the summary: the dose to review, the basics mastered")
    tmux.send("Escape")
    tmux.wait_for(lambda s: "To review: 1" not in s, what="the summary to close")

    # Quit, and resume: the session, its marks and its last words come back.
    tmux.send("C-q")
    tmux.wait_for(lambda s: tmux.pane_dead(), what="the app to quit")
    requests = len(loopback.requests)
    again = Tmux(width=120, height=40)
    try:
        again.start(keeltui_command(config), e2e_env)
        again.wait_text("Write to the Chief")
        again.send("C-t")  # the tab reopens the session left open, its progress in the header
        screen = again.wait_for(lambda s: "The research is in" in s and "Send ⏎" in s
                                and _marked(s, "✓", "Protein basics") and _marked(s, "▶", "Dose per meal ↻"),
                                timeout=30, what="the resumed session")
        assert _line_with(screen, TOPIC, "learning", "1/4 mastered · 1 to review") is not None, screen
    finally:
        again.close()

    # Export: the learner's record as Markdown.
    listed = run_keeltui(config, "tutor", "list")
    assert listed.returncode == 0 and TOPIC in listed.stdout
    exported = run_keeltui(config, "tutor", "export", TOPIC)
    assert exported.returncode == 0, exported.stderr
    text = exported.stdout
    assert f"# Tutor session: {TOPIC}" in text and "- Phase: learning" in text
    assert "Version 2, in teaching order:" in text and "History of nutrition science" not in text
    assert _line_with(text, "Protein basics", "mastered") is not None
    assert _line_with(text, "Dose per meal", "How much protein per meal?", "5 g (right: 25 g)", "wrong") is not None
    assert len(loopback.requests) == requests  # resuming and exporting called no model
