"""Below a streaming reply's text is the room, never rows of its box (the real app in tmux)."""

from __future__ import annotations

import pytest

from keeltui_dev.loopback import Reply
from tests.e2e.test_chief_streaming_e2e import PLACEHOLDER, _config
from tests.support.tmux import keeltui_command

BARS = "█▌▎▊▐"


def _below_the_text(screen: str, last_text: str) -> list[str]:
    """The rows between the reply's last line of text and the composer."""
    lines = screen.splitlines()
    end = next(i for i, line in enumerate(lines) if PLACEHOLDER in line)
    last = max(i for i, line in enumerate(lines[:end]) if last_text in line)
    return lines[last + 1:end]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_no_barred_blank_rows_below_a_streaming_reply(tmp_path, loopback, tmux, e2e_env, size):
    tmux.width, tmux.height = size
    # Long pauses: the box stands while each screen is captured.
    loopback.queue(Reply(chunks=["The tide ", "turns at ", "seven tonight."], chunk_delay=1.5))
    tmux.start(keeltui_command(_config(tmp_path, loopback)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("when is the tide?")
    tmux.send("Enter")
    for words in ("The tide", "The tide turns at"):
        screen = tmux.wait_text(words)
        assert "Chief  …" in screen, "the reply is still streaming"
        below = _below_the_text(screen, words)
        barred = [row for row in below if row[:3].strip(" ") and row[:3].strip(" ")[0] in BARS]
        assert not barred, f"barred blank rows below the text while streaming:\n{screen}"
    screen = tmux.wait_for(lambda s: "seven tonight." in s and "Chief  …" not in s, what="the finished reply")
    assert "when is the tide?" in screen
