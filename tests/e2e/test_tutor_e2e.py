"""The real keeltui's tutor in tmux against the loopback brain: keys where the learner is,
replies that stream, a stop that keeps what streamed."""

from __future__ import annotations

import threading

import pytest

from tests.e2e.test_chief_e2e import _config
from keeltui_dev.loopback import Reply
from tests.support.tmux import Tmux, keeltui_command

QUIZ = {"question": "Which amino acid drives MPS most?", "choices": ["Glycine", "Leucine", "Proline"],
        "correct": 1}


@pytest.fixture(params=[(80, 24), (120, 40)], ids=["80x24", "120x40"])
def sized_tmux(request, tmux: Tmux) -> Tmux:
    tmux.width, tmux.height = request.param
    return tmux


def _script(loopback, replies: list[Reply]) -> None:
    def responder(request: dict) -> Reply:
        step = len(loopback.requests) - 1
        return replies[step] if step < len(replies) else Reply(status=500, error_message="unscripted")

    loopback.responder = responder


def _start_session(tmux: Tmux, config, env, topic: str) -> None:
    tmux.start(keeltui_command(config), env)
    tmux.wait_text("Write to the Chief")
    tmux.send("C-t", "Enter")  # one burst: the list has the keys as it shows ("+ New session")
    tmux.wait_text("What do you want to learn?")
    tmux.type(topic)
    tmux.send("Enter")


def test_letters_beside_a_quiz_are_a_draft_and_tutor_keys_work_after_escape_and_tab(
    tmp_path, loopback, sized_tmux, e2e_env
):
    _script(loopback, [
        Reply(text="Let us see.", tool_calls=[{"name": "quiz", "arguments": QUIZ}]),
        Reply(text="Focus means attention."),
    ])
    tmux = sized_tmux
    _start_session(tmux, _config(tmp_path, loopback), e2e_env, "muscle protein")
    screen = tmux.wait_text("Press 1–3")
    assert len(screen.splitlines()) == tmux.height  # the pane has the size asked for
    # The quiz has the keys; f and z are app keys elsewhere (focus dialog, snooze).
    tmux.type("fz? what")
    screen = tmux.wait_text("fz? what")
    assert "Start a focus session" not in screen
    tmux.send("Enter")
    screen = tmux.wait_text("Focus means attention.")
    assert "Start a focus session" not in screen and "Press 1–3" in screen  # the quiz stays open
    # Escape leaves the composer for the quiz, Tab moves on: the tutor's keys still work.
    tmux.send("Escape")
    tmux.send("Tab")
    tmux.wait_text("Sessions")  # the footer still shows the pane's keys
    tmux.send("C-l")
    tmux.wait_text("Enter opens")


def test_a_reply_streams_and_escape_stops_it(tmp_path, loopback, sized_tmux, e2e_env):
    gate = threading.Event()
    reply = Reply(chunks=[f"w{n} " for n in range(200)], chunk_delay=0.1)

    def responder(request: dict) -> Reply:
        gate.wait(30)  # the reply waits until the test has seen the waiting state
        return reply

    loopback.responder = responder
    tmux = sized_tmux
    _start_session(tmux, _config(tmp_path, loopback), e2e_env, "streams")
    tmux.wait_for(lambda text: "is thinking…" in text and "Wait…" in text,
                  what="the indicator and Send visibly off")
    gate.set()
    screen = tmux.wait_text("w3 ")
    assert "w199" not in screen  # it grows on screen while it streams
    tmux.send("Escape")
    screen = tmux.wait_text("— stopped")
    assert "w199" not in screen
    tmux.wait_text("Send ⏎")


def test_a_background_job_shows_while_it_runs_and_f9_aborts_it(tmp_path, loopback, sized_tmux, e2e_env):
    from keeltui.store import Store
    from tests.pilot.test_tutor_pane import taught_rows

    config = _config(tmp_path, loopback)
    store = Store(tmp_path / "k.db")
    session = store.create_conversation("tutor", "protein")
    store.add_message(session, "user", "protein")
    for row in taught_rows():
        store.add_message(session, row.role, row.content, parts=[dict(p) for p in row.parts] or None)
    store.close()
    gate = threading.Event()
    teacher = [
        Reply(text="I will look that up.", tool_calls=[{"name": "research", "arguments": {"query": "leucine"}}]),
        Reply(text="Meanwhile, basics."),
        Reply(text="Understood, no research then."),  # the teacher hears of the abort
    ]

    def responder(request: dict) -> Reply:
        # The job's own call is known by its prompt, not by its place in line: under load
        # the teacher's second call can come first (and must not be the one held).
        system = " ".join(str(m.get("content") or "") for m in request.get("messages", []) if m.get("role") == "system")
        if "research assistant" in system:
            gate.wait(30)
            return Reply(text="never delivered")  # held until after the abort
        return teacher.pop(0) if teacher else Reply(status=500, error_message="unscripted")

    loopback.responder = responder
    tmux = sized_tmux
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text("Write to the Chief")
    tmux.send("C-t", "Down", "Enter")  # one burst: the list has the keys as it shows
    screen = tmux.wait_for(lambda text: "Answer, ask, or note" in text or "What do you want" in text,
                           what="the session (or, wrongly, the topic prompt) to open")
    assert "Answer, ask, or note" in screen, screen
    tmux.type("how much leucine?")
    tmux.send("Enter")
    # The turn goes on while the job runs; the footer offers F9 (the card may scroll off).
    tmux.wait_for(lambda text: "Meanwhile, basics." in text and "Abort job" in text,
                  what="the running job beside the turn that goes on")
    tmux.wait_for(lambda _: len(loopback.requests) == 3, what="the job's own call in flight")
    tmux.send("F9")
    tmux.wait_text("research job aborted: leucine")
    tmux.wait_text("Understood, no research then.")
    gate.set()
    # The footer drops F9 once the aborted job is gone (a frame or more after the teacher's
    # answer on a loaded machine); the held call's text never reaches the screen.
    screen = tmux.wait_for(lambda text: "Abort job" not in text, what="the footer without F9")
    assert "never delivered" not in screen
