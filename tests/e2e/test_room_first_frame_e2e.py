"""The real app in tmux: the terminal receives the room's newest row in the same first frame as
the composer, not a frame later (issue 9; the bench's "newest message on screen as fast as in an
empty room")."""

from __future__ import annotations

import shlex
import time

import pytest

from keeltui.store import Store
from tests.conftest import write_config
from tests.support.tmux import Tmux, keeltui_command
from tests.support.room_seed import seed_room

NEWEST = "The newest row of a long room"
COMPOSER = "to the Chief"  # the placeholder, as it reaches the terminal in one run of text


def _seed(path) -> None:
    seed_room(path, 2_999, lambda i: f"Row {i}.")
    store = Store(path)
    store.add_message(store.chief_id(), "assistant", NEWEST)
    store.close()



def _wait_for_file(path, needles: tuple[bytes, ...], timeout: float = 30.0) -> bytes:
    deadline = time.monotonic() + timeout
    data = b""
    while time.monotonic() < deadline:
        data = path.read_bytes() if path.exists() else b""
        if all(needle in data for needle in needles):
            return data
        time.sleep(0.05)
    raise AssertionError(f"the terminal never received {needles}: {len(data)} bytes")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_terminal_gets_the_newest_row_before_or_with_the_composer(tmp_path, loopback, tmux: Tmux, e2e_env, size):
    _seed(tmp_path / "k.db")
    config = write_config(tmp_path / "config.toml", loopback.url,
                          f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    tmux.width, tmux.height = size
    stream, go = tmp_path / "pane.bytes", tmp_path / "go"
    # The app starts once the pane's output is recorded (pipe-pane attaches after the pane exists).
    tmux.start(f"sh -c {shlex.quote(f'while [ ! -e {go} ]; do sleep 0.02; done; exec {keeltui_command(config)}')}",
               e2e_env)
    tmux._tmux("pipe-pane", f"cat >> {shlex.quote(str(stream))}")
    go.touch()
    data = _wait_for_file(stream, (COMPOSER.encode(), NEWEST.encode()))
    first_composer = data.index(COMPOSER.encode())
    assert NEWEST.encode() in data[:first_composer], (
        "the composer reached the terminal before the newest row (a frame without the room's rows)")
    tmux.wait_text(NEWEST)  # and it is on screen
