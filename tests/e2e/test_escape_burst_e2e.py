"""Escape and the next words in one read (a burst over SSH, a fast hand): the reply stops and
the words land in the composer, in order, watched in the real app in tmux while it happens.

ESC x is also how terminals spell Alt+x: Textual read the burst as Alt+x (typed as "x") and
the Escape was gone, so the reply streamed on under the owner's next message.
"""

from __future__ import annotations

import threading

import pytest

from keeltui.store import Store
from keeltui_dev.loopback import Reply
from tests.e2e.test_chief_streaming_e2e import PLACEHOLDER, _config
from tests.support.tmux import keeltui_command

STOPPED = "Reply stopped"


def _replies(tmp_path) -> list[tuple[str, str]]:
    store = Store(tmp_path / "k.db", readonly=True)
    try:
        return [(r.content, r.status) for r in store.messages(store.chief_id()) if r.role == "assistant"]
    finally:
        store.close()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_escape_and_typing_in_one_burst_stop_the_reply_and_keep_the_typing(tmp_path, loopback, tmux, e2e_env, size):
    tmux.width, tmux.height = size
    gate = threading.Semaphore(0)  # the reply goes on only as far as the test lets it
    loopback.queue(Reply(chunks=["Counting", " one", " two", *(f" n{i}" for i in range(200))], gate=gate),
                   Reply(text="The second answer."))
    tmux.start(keeltui_command(_config(tmp_path, loopback)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("count for me")
    tmux.send("Enter")
    tmux.wait_text("Counting")
    gate.release()
    tmux.wait_text("one")
    tmux.type("\x1bnext q")  # one write: the app reads Escape and the words together
    screen = tmux.wait_text(STOPPED, timeout=30)
    # While it happens: the words are in the composer, whole, and nothing more streamed in.
    screen = tmux.wait_for(lambda s: "next q" in s, timeout=30, what="the words typed behind Escape")
    assert "two" not in screen
    for _ in range(5):
        gate.release()  # the server may go on: the app no longer listens
    tmux.wait_for(lambda _: _replies(tmp_path) == [("Counting one", "stopped")],
                  what=f"the reply stored as stopped (now {_replies(tmp_path)})")
    tmux.type("uestion")
    tmux.send("Enter")
    screen = tmux.wait_text("The second answer.", timeout=30)
    assert "next question" in screen and " n1" not in screen
    store = Store(tmp_path / "k.db", readonly=True)
    try:
        assert [r.content for r in store.messages(store.chief_id()) if r.role == "user"] == ["count for me", "next question"]
    finally:
        store.close()
