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
        done = subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", *args], env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"tmux {' '.join(args)}: {done.stderr.strip()} (exit {done.returncode})"
        return done.stdout

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
    assert snap.title.startswith("sleep · ") and snap.title.endswith(" · notes for issue #12 ✓")
    tmux("select-pane", "-t", "t:0.0")
    assert source.read().title.endswith(" · keeltui pane")


def test_tmux_source_sees_the_command_path_and_window_not_the_host_name(tmux_server, tmp_path):
    socket, env, tmux = tmux_server
    # A real client attached (in a second server's pane), so client_activity exists.
    # "t:" names the session (a new window at its next free index); a bare "t" is resolved as
    # a window target too, and once failed with "index 0 in use".
    tmux("new-window", "-t", "t:", "-n", "services", "-c", "/etc", "less /etc/services")
    attach = f"keel-attach-{socket}"
    subprocess.run(["tmux", "-L", attach, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30",
                    f"tmux -L {socket} attach -t t"], env=env, check=True)
    try:
        source = TmuxSource(socket, env=env)
        snap = None
        for _ in range(200):  # the attach takes a moment under load
            snap = source.read()
            if snap is not None and snap.wm_class == "less" and snap.idle_secs is not None:
                break
            subprocess.run(["sleep", "0.1"])
        assert snap is not None and snap.wm_class == "less"
        assert snap.title.startswith("less · /etc · services"), snap.title
        assert snap.idle_secs is not None and 0 <= snap.idle_secs < 600
    finally:
        subprocess.run(["tmux", "-L", attach, "kill-server"], env=env, capture_output=True)


def test_tmux_source_with_a_dead_server_is_none():
    need_binary("tmux", "tmux")
    source = TmuxSource(f"keel-absent-{uuid.uuid4().hex[:8]}", env=dict(os.environ))
    assert source.read() is None
    assert source.reason
