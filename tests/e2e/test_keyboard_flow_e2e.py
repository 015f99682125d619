"""Issue 20 in the real app in tmux: keys in arrival order, focus never lost."""

from __future__ import annotations

import pytest

from tests.support.room_files import room_config, sent_texts
from tests.support.tmux import keeltui_command

PLACEHOLDER = "Write to the Chief"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_burst_with_enter_sends_what_came_before_and_keeps_what_came_after(tmp_path, loopback, tmux, e2e_env, size):
    """Type-ahead over slow SSH: text, Enter and more text arrive in one write."""
    tmux.width, tmux.height = size
    tmux.start(keeltui_command(room_config(tmp_path, loopback.url)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    # One send-keys: one burst. Backspace is a key binding, the rest typed text.
    tmux.send("hello therx", "BSpace", "e", "Enter", "next words")
    screen = tmux.wait_text("Hello from the loopback brain.")
    assert sent_texts(tmp_path) == ["hello there"], screen
    lines = screen.splitlines()
    status_at = max(i for i, line in enumerate(lines) if "next words" in line or "hello there" in line)
    # The words typed after Enter wait in the fresh composer, below the sent message.
    assert "next words" in lines[status_at], screen
    assert not any("hello therenext" in line for line in lines), screen
    tmux.send("Enter")
    tmux.wait_for(lambda text: text.count("Hello from the loopback brain.") == 2, what="the second reply")
    assert sent_texts(tmp_path) == ["hello there", "next words"]
    # A bracketed paste with line breaks stays one draft: nothing is sent, the lines are kept.
    tmux._tmux("set-buffer", "pasted one\npasted two")
    tmux._tmux("paste-buffer", "-p")
    screen = tmux.wait_text("pasted two")
    lines = screen.splitlines()
    first = next(i for i, line in enumerate(lines) if "pasted one" in line)
    assert "pasted two" in lines[first + 1], screen
    tmux.send("Enter")
    tmux.wait_for(lambda text: text.count("Hello from the loopback brain.") == 3, what="the third reply")
    assert sent_texts(tmp_path) == ["hello there", "next words", "pasted one\npasted two"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_focus_comes_back_to_the_composer_and_no_typed_key_is_lost(tmp_path, loopback, tmux, e2e_env, size):
    """Quiet Mode off, Tab, a tab switch, a screen and the search closing: the next words land in the composer."""
    tmux.width, tmux.height = size
    tmux.start(keeltui_command(room_config(tmp_path, loopback.url)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.send("C-g")
    tmux.wait_text("Master Chief stays hidden")
    tmux.type("x")  # nowhere to go: the status line says why
    tmux.wait_text("typing goes nowhere in Quiet Mode · Ctrl+G ends it")
    tmux.send("C-g")
    tmux.wait_text(PLACEHOLDER)
    tmux.type("after quiet")
    tmux.wait_text("after quiet")
    tmux.send("Tab")  # onto the room's log, not the tab strip
    tmux.wait_for(lambda text: "Write" in text.splitlines()[-1] or "Leave input" not in text.splitlines()[-1],
                  what="the footer of the log")
    tmux.type(" tab")
    tmux.wait_text("after quiet tab")
    tmux.send("C-t")
    tmux.wait_for(lambda text: "after quiet tab" not in text, what="the tutor in view")
    tmux.send("C-t")
    tmux.wait_text("after quiet tab")
    tmux.type(" back")
    tmux.wait_text("after quiet tab back")
    tmux.send("F3")
    tmux.wait_for(lambda text: "after quiet tab back" not in text, what="the day screen")
    tmux.send("Escape")
    tmux.wait_text("after quiet tab back")
    tmux.type(" day")
    tmux.wait_text("after quiet tab back day")
    tmux.send("C-f")
    tmux.wait_text("Find:")
    tmux.send("Escape")
    tmux.wait_for(lambda text: "Find:" not in text, what="the search closed")
    tmux.type(" end")
    tmux.wait_text("after quiet tab back day end")
    tmux.send("Enter")
    tmux.wait_text("Hello from the loopback brain.")
    assert sent_texts(tmp_path) == ["after quiet tab back day end"]
