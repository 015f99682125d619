"""A reply streaming a long code block, and Escape, as the owner sees it (the real app in tmux,
issue 19): the newest code lines show while it streams, Escape stops it, and the room keeps every
line that came, on screen with the "stopped" words."""

from __future__ import annotations

import re
import threading

import pytest

from keeltui.store import Store
from keeltui_dev.loopback import Reply
from tests.e2e.test_chief_streaming_e2e import PLACEHOLDER, _config
from tests.support.tmux import keeltui_command

STOPPED = "Reply stopped"
CODE = re.compile(r"value_(\d{5}) = ")


def code(i: int) -> str:
    return f"value_{i:05d} = {i}\n"


def last_code_line(screen: str) -> int:
    return max((int(n) for n in CODE.findall(screen)), default=-1)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_long_code_block_streams_and_escape_keeps_what_came(tmp_path, loopback, tmux, e2e_env, size):
    tmux.width, tmux.height = size
    gate = threading.Semaphore(0)
    loopback.queue(Reply(chunks=["Here is the file:\n\n```python\n", *(code(i) for i in range(3_000)), "```\n", "Done."],
                         gate=gate))
    tmux.start(keeltui_command(_config(tmp_path, loopback)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("stream the file")
    tmux.send("Enter")
    tmux.wait_text("Here is the file")
    released = 0
    for upto in (100, 200, 400):  # read while it happens: the newest line is on screen each time
        while released < upto:
            gate.release()
            released += 1
        screen = tmux.wait_for(lambda s: last_code_line(s) >= upto - 1, timeout=60, what=f"code line {upto - 1}")
        assert "Done." not in screen
    for _ in range(30):  # more lines on their way when the owner presses Escape
        gate.release()
    tmux.send("Escape")
    screen = tmux.wait_text(STOPPED, timeout=60)
    store = Store(tmp_path / "k.db")
    try:
        reply = store.messages(store.chief_id())[-1]
    finally:
        store.close()
    assert reply.status == "stopped" and "Done." not in reply.content
    kept = max(int(n) for n in CODE.findall(reply.content))
    assert 399 <= kept < 3_000 - 1
    # The last line that came is on screen with the words, and nothing after it streams in.
    screen = tmux.wait_for(lambda s: last_code_line(s) == kept and STOPPED in s, timeout=30, what="the kept lines")
    assert "Done." not in screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_escape_stops_a_block_streaming_at_500_lines_a_second(tmp_path, loopback, tmux, e2e_env, size):
    # As the bench streams it (issue 19): a line every 2 ms, the owner presses Escape well inside
    # the block. The gate lets 4 000 lines go and holds the rest, so the block cannot end by
    # itself before the key is read, however loaded the machine.
    tmux.width, tmux.height = size
    gate = threading.Semaphore(4_000)
    loopback.queue(Reply(chunks=["Here is the file:\n\n```python\n", *(code(i) for i in range(5_000)), "```\n", "Done."],
                         chunk_delay=0.002, gate=gate))
    tmux.start(keeltui_command(_config(tmp_path, loopback)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("stream the file")
    tmux.send("Enter")
    tmux.wait_for(lambda s: last_code_line(s) >= 500, timeout=60, what="code line 500")
    tmux.send("Escape")
    tmux.wait_text(STOPPED, timeout=60)
    store = Store(tmp_path / "k.db")
    try:
        reply = store.messages(store.chief_id())[-1]
    finally:
        store.close()
    assert reply.status == "stopped"
    kept = max(int(n) for n in CODE.findall(reply.content))
    assert 500 <= kept < 4_000
    screen = tmux.wait_for(lambda s: last_code_line(s) == kept and STOPPED in s, timeout=30, what="the kept lines")
    assert "Done." not in screen
