"""Keys typed in one burst with Ctrl+T go to the pane it brings up, in order (over SSH the
switch and the next keys arrive in one read: none may fall into the gap before the new
pane's place has the focus)."""

from __future__ import annotations

import pytest

from keeltui.store import Store
from keeltui_dev.loopback import Reply
from tests.pilot.test_tutor_pane import taught_rows
from tests.support.room_files import room_config, sent_texts
from tests.support.tmux import Tmux, keeltui_command


def _seed_session(tmp_path) -> None:
    store = Store(tmp_path / "k.db")
    try:
        session = store.create_conversation("tutor", "protein")
        store.add_message(session, "user", "protein")
        for row in taught_rows():
            store.add_message(session, row.role, row.content, parts=[dict(p) for p in row.parts] or None)
    finally:
        store.close()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_ctrl_t_down_enter_in_one_burst_opens_the_session(tmp_path, loopback, tmux: Tmux, e2e_env, size):
    tmux.width, tmux.height = size
    _seed_session(tmp_path)
    tmux.start(keeltui_command(room_config(tmp_path, loopback.url)), e2e_env)
    tmux.wait_text("Write to the Chief")
    tmux.send("C-t", "Down", "Enter")  # one send-keys: one burst
    screen = tmux.wait_for(lambda text: "Answer, ask, or note" in text or "What do you want" in text,
                           what="the session (or, wrongly, the topic prompt) to open")
    assert "Answer, ask, or note" in screen, screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_ctrl_t_back_to_the_chief_with_words_behind_it_types_them_in_order(tmp_path, loopback, tmux: Tmux, e2e_env, size):
    tmux.width, tmux.height = size
    tmux.start(keeltui_command(room_config(tmp_path, loopback.url)), e2e_env)
    tmux.wait_text("Write to the Chief")
    tmux.send("C-t")
    tmux.wait_text("New session")
    tmux.send("C-t", "typed right after the switch", "Enter")  # one burst
    tmux.wait_for(lambda _: sent_texts(tmp_path) != [], what="the message sent")
    assert sent_texts(tmp_path) == ["typed right after the switch"]
    tmux.wait_text("Hello from the loopback brain.")
    # In Quiet Mode the room takes no text: words behind Ctrl+T are refused, with the reason.
    tmux.send("C-g")  # Quiet Mode: the room hides and takes no text
    tmux.wait_for(lambda text: "Write to the Chief" not in text, what="the room hidden")
    tmux.send("C-t")
    tmux.wait_text("New session")
    tmux.send("C-t", "secret", "Enter")  # one burst
    screen = tmux.wait_text("typing goes nowhere in Quiet Mode")
    assert "secret" not in screen and "What do you want" not in screen, screen
    tmux.send("C-g")  # Quiet Mode off: the composer takes the keys again, empty
    tmux.wait_text("Write to the Chief")
    tmux.send("after", "Enter")
    tmux.wait_for(lambda _: len(sent_texts(tmp_path)) == 2, what="the second message sent")
    assert sent_texts(tmp_path) == ["typed right after the switch", "after"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_ctrl_f_from_a_row_then_words_and_enter_in_one_burst_search_the_room(tmp_path, loopback, tmux: Tmux, e2e_env, size):
    # The search bar is mounted on first use: the words behind Ctrl+F must not be typed
    # on the row (or land in the composer, where Enter sent them to the Chief).
    tmux.width, tmux.height = size
    tmux.start(keeltui_command(room_config(tmp_path, loopback.url)), e2e_env)
    tmux.wait_text("Write to the Chief")
    tmux.type("first words")
    tmux.send("Enter")
    tmux.wait_text("Hello from the loopback brain.")
    tmux.send("Escape")  # out of the composer, onto the newest row
    tmux.wait_for(lambda text: "Leave input" not in text.splitlines()[-1], what="the row's footer")
    tmux.send("C-f", "loopback", "Enter")  # one send-keys: one burst
    screen = tmux.wait_text("1 of 1 (newest first)")
    assert "Find:" in screen and "loopback" in screen.split("Find:")[1].splitlines()[0], screen
    assert sent_texts(tmp_path) == ["first words"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_ctrl_t_back_to_a_waiting_quiz_with_a_digit_behind_it_answers_the_quiz(
    tmp_path, loopback, tmux: Tmux, e2e_env, size
):
    from tests.e2e.test_tutor_e2e import QUIZ, _script, _start_session

    _script(loopback, [Reply(text="Let us see.", tool_calls=[{"name": "quiz", "arguments": QUIZ}]),
                       Reply(text="Leucine it is.")])
    tmux.width, tmux.height = size
    _start_session(tmux, room_config(tmp_path, loopback.url), e2e_env, "muscle protein")
    # The quiz has the keys once the turn that asked it has ended (the footer offers ⏎ Answer);
    # before that a digit is a draft in the composer, as it should be.
    tmux.wait_for(lambda text: "Press 1–3" in text and "⏎ Answer" in text, what="the quiz to have the keys")
    tmux.send("C-t")
    tmux.wait_text("Write to the Chief")
    tmux.send("C-t", "2")  # one burst: the quiz has the keys as the pane comes back
    screen = tmux.wait_text("Leucine it is.")
    assert "✓ 2. Leucine" in screen, screen


def _tutor_lines(tmp_path) -> list[str]:
    store = Store(tmp_path / "k.db")
    try:
        session = next(c.id for c in store.conversations("tutor"))
        return [r.content for r in store.messages(session) if r.role == "user"]
    finally:
        store.close()


def test_the_first_ctrl_t_reopens_the_session_left_open_and_the_words_behind_it_are_sent_there(
    tmp_path, loopback, tmux: Tmux, e2e_env
):
    _seed_session(tmp_path)
    config = room_config(tmp_path, loopback.url)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text("Write to the Chief")
    tmux.send("C-t", "Down", "Enter")
    tmux.wait_text("Answer, ask, or note")
    tmux.send("C-q")  # the session stays the one left open
    tmux.wait_for(lambda _: tmux.pane_dead(), what="the app to quit")
    again = Tmux(width=80, height=24)
    try:
        again.start(keeltui_command(config), e2e_env)
        again.wait_text("Write to the Chief")
        again.send("C-t", "how much per meal?", "Enter")  # one burst, while the session reopens
        again.wait_for(lambda _: len(_tutor_lines(tmp_path)) == 3, what="the words sent in the tutor session")
        assert _tutor_lines(tmp_path) == ["protein", "I accept the plan.", "how much per meal?"]
    finally:
        again.close()
