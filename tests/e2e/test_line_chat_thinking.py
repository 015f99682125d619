"""`keeltui chat` (line mode) shows a reasoning model's thinking as it comes, then the answer
on its own line; a failed reply names what asks again there (↑ and Enter), not the app's F5."""

from __future__ import annotations

import threading

from keeltui_dev.loopback import Reply
from tests.conftest import write_config
from tests.support.tmux import keeltui_command


def _config(tmp_path, loopback):
    return write_config(tmp_path / "config.toml", loopback.url,
                        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')


def test_the_thinking_streams_before_the_answer_in_the_line_chat(tmp_path, loopback, tmux, e2e_env):
    tmux.width, tmux.height = 80, 24
    gate = threading.Semaphore(0)
    loopback.queue(Reply(reasoning=["Counting the apples ", "one by one."], chunks=["There are ", "three apples."], gate=gate))
    tmux.start(keeltui_command(_config(tmp_path, loopback), "chat"), e2e_env)
    tmux.wait_text("Owner>")
    tmux.type("how many apples?")
    tmux.send("Enter")
    # Live: the thinking shows while the model thinks, before any of the answer.
    screen = tmux.wait_text("Chief: thinking… Counting the apples")
    assert "There are" not in screen
    for _ in range(3):
        gate.release()
    screen = tmux.wait_for(lambda text: text.rstrip().endswith("Owner>"), what="the next prompt")
    lines = screen.splitlines()
    thought = next(i for i, line in enumerate(lines) if "Counting the apples one by one." in line)
    assert lines[thought + 1].strip() == "There are three apples.", screen  # the answer on its own line


def test_a_failed_reply_in_the_line_chat_says_what_retries_there(tmp_path, loopback, tmux, e2e_env):
    loopback.queue(Reply(status=500, error_message="the GPU fell over"))
    tmux.start(keeltui_command(_config(tmp_path, loopback), "chat"), e2e_env)
    tmux.wait_text("Owner>")
    tmux.type("are you there?")
    tmux.send("Enter")
    screen = tmux.wait_for(lambda text: "(your message is saved in the room)" in text, what="the failure line")
    flat = "".join(line.rstrip("\n") for line in screen.splitlines())  # the line wraps at the pane's width
    assert "↑ and Enter retries" in flat and "F5" not in flat, screen
