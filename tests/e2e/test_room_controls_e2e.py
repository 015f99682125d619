"""The room's controls in the real app in tmux (issue 9, point 4): Escape stops a
streaming reply, F5 asks again, Ctrl+F finds a row; watched on screen at 80x24."""

from __future__ import annotations

import re

from keeltui.store import Store
from tests.conftest import write_config
from keeltui_dev.loopback import Reply
from tests.support.tmux import Tmux, keeltui_command


def test_escape_stops_f5_retries_ctrl_f_finds_in_tmux(tmp_path, loopback, e2e_env):
    from tests.support.need import need_binary

    need_binary("tmux", "tmux")
    loopback.queue(Reply(chunks=[f"word{i} " for i in range(500)], chunk_delay=0.05, delay=0.8),
                   Reply(text="A calm second answer.", delay=0.8))
    config = write_config(
        tmp_path / "config.toml", loopback.url,
        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
    )
    tmux = Tmux(80, 24)
    try:
        tmux.start(keeltui_command(config), e2e_env)
        tmux.wait_text("Write to the Chief")
        tmux.type("tell me everything")
        tmux.send("Enter")
        tmux.wait_text("Chief is thinking")  # from send to the first chunk
        tmux.wait_for(lambda text: re.search(r"word[3-9]", text), what="the reply streaming")
        tmux.wait_text("esc Stop")
        tmux.send("Escape")
        screen = tmux.wait_text("(stopped)")
        assert "f5 Retry" in tmux.wait_text("f5 Retry")
        store = Store(tmp_path / "k.db")
        reply = [r for r in store.messages(1) if r.role == "assistant"][-1]
        assert reply.status == "stopped" and "word499" not in reply.content
        tmux.send("F5")
        tmux.wait_text("Chief is thinking")
        tmux.wait_text("A calm second answer.")
        screen = tmux.wait_text("(earlier version)")
        assert "Chief is thinking" not in screen
        tmux.send("C-f")
        tmux.wait_text("Find:")
        tmux.type("everything")
        tmux.send("Enter")
        tmux.wait_text("1 of 1 (newest first)")
        tmux.send("Escape")
        tmux.wait_for(lambda text: "Find:" not in text, what="the search closed")
        assert [r.content for r in store.messages(1) if r.role == "user"] == ["tell me everything"]
        store.close()
    finally:
        tmux.close()
