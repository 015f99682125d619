"""Issue 24.8: Ctrl-C in the line-mode chat stops the reply and keeps the chat open."""

from __future__ import annotations

import threading

from keeltui.store import Store
from keeltui_dev.loopback import Reply
from tests.conftest import write_config
from tests.support.tmux import keeltui_command


def test_ctrl_c_stops_the_reply_and_the_chat_goes_on(tmp_path, loopback, tmux, e2e_env):
    gate = threading.Semaphore(0)  # the reply never goes past its first words unless let
    loopback.queue(Reply(chunks=["Counting", " one", " two"], gate=gate),
                   Reply(text="Second answer."))
    config = write_config(tmp_path / "config.toml", loopback.url,
                          f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    tmux.start(keeltui_command(config, "chat"), e2e_env)
    tmux.wait_text("Owner>")
    tmux.type("count for me")
    tmux.send("Enter")
    tmux.wait_text("Chief: Counting")
    tmux.send("C-c")
    tmux.wait_text("stopped by you")
    for _ in range(2):
        gate.release()  # the server may go on; the chat no longer listens
    screen = tmux.wait_for(lambda text: text.rstrip().endswith("Owner>"), what="the next prompt")
    assert not tmux.pane_dead() and "Traceback" not in screen
    tmux.type("and now?")
    tmux.send("Enter")
    tmux.wait_text("Second answer.")

    def replies() -> list[tuple[str, str]]:
        store = Store(tmp_path / "k.db", readonly=True)
        try:
            return [(r.content, r.status) for r in store.messages(1) if r.role == "assistant"]
        finally:
            store.close()

    # The words are on screen a moment before the row settles in the store: wait for the row.
    expected = [("Counting", "stopped"), ("Second answer.", "complete")]
    tmux.wait_for(lambda _: replies() == expected, what=f"the replies stored as {expected} (now {replies()})")
