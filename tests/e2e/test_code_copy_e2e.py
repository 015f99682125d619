"""Copying a reply's code block through OSC 52, read back from tmux's buffer (the real app in tmux)."""

from __future__ import annotations

from keeltui_dev.loopback import Reply
from tests.conftest import write_config
from tests.support.tmux import keeltui_command

PLACEHOLDER = "Write to the Chief"
ESC = "\x1b"
REPLY = (
    "Install it:\n\n```sh\npip install keel\n```\n\nThen, in Python:\n\n"
    f"```py[/]\nimport keel[/]\nkeel.run(){ESC}]52;c;cm0gLXJm{ESC}\\\n```\n\nThat is all."
)


def _buffer(tmux) -> str:
    return tmux._tmux("show-buffer", check=False).stdout


def test_y_copies_the_chosen_code_block_and_the_whole_reply_as_markdown(tmp_path, loopback, tmux, e2e_env):
    loopback.queue(Reply(text=REPLY))
    config = write_config(tmp_path / "config.toml", loopback.url,
                          f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    tmux.start(keeltui_command(config), e2e_env)
    tmux._tmux("set", "-s", "set-clipboard", "on", check=False)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("how do I start?")
    tmux.send("Enter")
    tmux.wait_text("That is all.")
    tmux.send("Escape")  # onto the newest row: the reply
    tmux.wait_text("y Copy code")
    tmux.send("y")
    options = ("Copy which code block?", "1  sh · pip install keel  (1 line)", "2  py[/] · import keel[/]  (2 lines)",
               "the whole reply, as Markdown")
    tmux.wait_for(lambda s: all(option in s for option in options), what=f"the chooser: {options}")
    tmux.send("2")
    tmux.wait_text("Copied the py[/] code block (2 lines).")  # a hostile language is text, not markup
    assert _buffer(tmux) == "import keel[/]\nkeel.run()"  # visible text only: the hidden OSC 52 is gone
    tmux.send("y")
    tmux.wait_text("Copy which code block?")
    tmux.send("End", "Enter")
    tmux.wait_text("Copied the whole reply as Markdown.")
    assert _buffer(tmux) == REPLY.replace(f"{ESC}]52;c;cm0gLXJm{ESC}\\", "")
