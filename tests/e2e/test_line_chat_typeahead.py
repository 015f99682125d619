"""Keys typed before the line-mode chat's prompt is up (a fast typist, a slow start).

Until prompt-toolkit takes the terminal, it is in cooked mode: the line discipline turns
the CR of Enter into LF as the key is typed. Alt+Enter typed then reaches the chat as
ESC LF, and must still be a new line, never a send of half a message.
"""

from __future__ import annotations

from keeltui.store import Store
from keeltui_dev.loopback import Reply
from tests.e2e.test_ssh_tmux import _config
from tests.support.tmux import keeltui_command


def test_alt_enter_typed_before_the_prompt_is_a_new_line(tmp_path, loopback, tmux, e2e_env):
    loopback.queue(Reply(text="Noted."))
    config = _config(tmp_path, loopback)
    ready = tmp_path / "typed"
    # The shell waits (cooked mode) until the test has typed, then starts the chat.
    tmux.start(f"sh -c 'while [ ! -e {ready} ]; do sleep 0.05; done; exec {keeltui_command(config, 'chat')}'", e2e_env)
    tmux.type("first line")
    tmux.send("Escape", "Enter")  # Alt+Enter, arriving as ESC LF in cooked mode
    tmux.type("second line")
    ready.touch()
    tmux.wait_for(lambda s: "second line" in s and "Ctrl-D to leave" in s, what="the typed-ahead text in the prompt")
    tmux.send("Enter")
    tmux.wait_text("Noted.")
    rows = Store(tmp_path / "k.db").messages(1)
    assert [r.content for r in rows if r.role == "user"] == ["first line\nsecond line"]
