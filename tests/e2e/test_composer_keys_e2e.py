"""The composer's new-line keys in the real app in tmux: never a send, never a stray ``^``."""

from __future__ import annotations

import pytest

from tests.support.room_files import room_config, sent_texts
from tests.support.tmux import keeltui_command

PLACEHOLDER = "Write to the Chief"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_alt_enter_and_ctrl_j_start_a_new_line_and_never_send(tmp_path, loopback, tmux, e2e_env, size):
    tmux.width, tmux.height = size
    config = room_config(tmp_path, loopback.url)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("first line")
    tmux.send("M-Enter")  # tmux writes ESC CR
    tmux.type("second line")
    screen = tmux.wait_text("second line")
    lines = screen.splitlines()
    first = next(i for i, line in enumerate(lines) if "first line" in line)
    assert "second line" in lines[first + 1], screen
    tmux.send("C-j")
    tmux.type("third line")
    screen = tmux.wait_text("third line")
    # A fast burst: text, Alt+Enter twice and more text in one write.
    tmux.send("x", "M-Enter", "M-Enter", "y", "M-Enter", "z")
    screen = tmux.wait_for(lambda text: "third linex" in text and any(line.strip(" │▌▎") == "z" for line in text.splitlines()),
                           what="the burst in the composer")
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if "first line" in line)
    composer = [line.strip() for line in lines[start:start + 6]]
    assert composer == ["first line", "second line", "third linex", "", "y", "z"], screen
    assert sent_texts(tmp_path) == [], "a new-line key sent the message"
    assert loopback.requests == []
    # Enter sends the whole message, all its lines.
    tmux.send("Enter")
    tmux.wait_text("Hello from the loopback brain.")
    assert sent_texts(tmp_path) == ["first line\nsecond line\nthird linex\n\ny\nz"]
