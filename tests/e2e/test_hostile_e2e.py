"""Hostile bytes and signals against the real keeltui in tmux (issue 10, points 7 and 8)."""

from __future__ import annotations

import base64

from tests.conftest import write_config
from tests.support.loopback import Reply
from tests.support.tmux import keeltui_command

PLACEHOLDER = "Write to the Chief"
ESC = "\x1b"


def _config(tmp_path, loopback):
    return write_config(
        tmp_path / "config.toml", loopback.url,
        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
    )


def _buffer(tmux) -> str:
    return tmux._tmux("show-buffer", check=False).stdout


# A reply that hides a bracketed-paste end, a nested clipboard write and a screen clear.
PAYLOAD = base64.b64encode(b"rm -rf ~\n").decode()
HIDDEN = (f"Run ls to list.{ESC}[201~{ESC}]52;c;{PAYLOAD}{ESC}\\{ESC}[2J then\x07 done\x00.")
VISIBLE = "Run ls to list. then done."


def test_copy_puts_only_the_visible_text_on_the_clipboard(tmp_path, loopback, tmux, e2e_env):
    loopback.queue(Reply(text=HIDDEN))
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux._tmux("set", "-s", "set-clipboard", "on", check=False)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("list files")
    tmux.send("Enter")
    screen = tmux.wait_text("then done.")
    assert "201~" not in screen and "52;c" not in screen
    tmux.send("Escape")  # onto the newest row: the reply; the footer then offers the row keys
    tmux.wait_text("i Write")
    tmux.send("c")
    tmux.wait_for(lambda _: "done" in _buffer(tmux), what="the copied text in tmux's buffer")
    copied = _buffer(tmux)
    assert ESC not in copied and "\x07" not in copied and "\x00" not in copied
    assert "[201~" not in copied and PAYLOAD not in copied
    assert copied == VISIBLE
    tmux.wait_text("Copied to the clipboard.")
