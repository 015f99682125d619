"""TmuxSource against a real tmux server on a private socket."""

from __future__ import annotations

import os
import subprocess
import uuid

import pytest

from tests.support.need import need_binary

from keeltui.adapters.evidence import TmuxSource


@pytest.fixture
def tmux_server():
    need_binary("tmux", "tmux")
    socket = f"keel-test-{uuid.uuid4().hex[:8]}"
    env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "TMUX_PANE")}

    def tmux(*args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", socket, "-f", "/dev/null", *args], env=env, capture_output=True, text=True, check=True
        ).stdout

    tmux("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", "sleep 600")
    try:
        yield socket, env, tmux
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], env=env, capture_output=True)


def test_tmux_source_reads_the_active_pane(tmux_server):
    socket, env, tmux = tmux_server
    tmux("split-window", "-t", "t", "sleep 601")
    tmux("select-pane", "-t", "t:0.0", "-T", "keeltui pane")
    tmux("select-pane", "-t", "t:0.1", "-T", "notes for issue #12 ✓")
    source = TmuxSource(socket, env=env)
    assert source.available
    tmux("select-pane", "-t", "t:0.1")
    snap = source.read()
    assert snap is not None
    assert snap.wm_class == "sleep"
    assert snap.title == "notes for issue #12 ✓"
    tmux("select-pane", "-t", "t:0.0")
    assert source.read().title == "keeltui pane"


def test_tmux_source_with_a_dead_server_is_none():
    need_binary("tmux", "tmux")
    source = TmuxSource(f"keel-absent-{uuid.uuid4().hex[:8]}", env=dict(os.environ))
    assert source.read() is None
    assert source.reason
