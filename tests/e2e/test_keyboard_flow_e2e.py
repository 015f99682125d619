"""Issue 20 in the real app in tmux: keys in arrival order, focus never lost."""

from __future__ import annotations

import pytest

from keeltui.store import Store
from tests.conftest import write_config
from tests.support.tmux import keeltui_command

PLACEHOLDER = "Write to the Chief"


def _config(tmp_path, loopback):
    return write_config(
        tmp_path / "config.toml", loopback.url,
        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
    )


def _sent(tmp_path) -> list[str]:
    store = Store(tmp_path / "k.db")
    try:
        return [r.content for r in store.messages(store.chief_id()) if r.role == "user"]
    finally:
        store.close()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_burst_with_enter_sends_what_came_before_and_keeps_what_came_after(tmp_path, loopback, tmux, e2e_env, size):
    """Type-ahead over slow SSH: text, Enter and more text arrive in one write."""
    tmux.width, tmux.height = size
    tmux.start(keeltui_command(_config(tmp_path, loopback)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    # One send-keys: one burst. Backspace is a key binding, the rest typed text.
    tmux.send("hello therx", "BSpace", "e", "Enter", "next words")
    screen = tmux.wait_text("Hello from the loopback brain.")
    assert _sent(tmp_path) == ["hello there"], screen
    lines = screen.splitlines()
    status_at = max(i for i, line in enumerate(lines) if "next words" in line or "hello there" in line)
    # The words typed after Enter wait in the fresh composer, below the sent message.
    assert "next words" in lines[status_at], screen
    assert not any("hello therenext" in line for line in lines), screen
    tmux.send("Enter")
    tmux.wait_for(lambda text: text.count("Hello from the loopback brain.") == 2, what="the second reply")
    assert _sent(tmp_path) == ["hello there", "next words"]
    # A bracketed paste with line breaks stays one draft: nothing is sent, the lines are kept.
    tmux._tmux("set-buffer", "pasted one\npasted two")
    tmux._tmux("paste-buffer", "-p")
    screen = tmux.wait_text("pasted two")
    lines = screen.splitlines()
    first = next(i for i, line in enumerate(lines) if "pasted one" in line)
    assert "pasted two" in lines[first + 1], screen
    tmux.send("Enter")
    tmux.wait_for(lambda text: text.count("Hello from the loopback brain.") == 3, what="the third reply")
    assert _sent(tmp_path) == ["hello there", "next words", "pasted one\npasted two"]
