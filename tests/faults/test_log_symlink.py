"""Issue 24.8: the log file is never opened through a symbolic link, nor its target chmodded."""

from __future__ import annotations

import os
import stat

from tests.conftest import write_config
from tests.support.tmux import keeltui_command, run_keeltui


def test_a_symlinked_log_file_is_neither_written_nor_chmodded(tmp_path, tmux, e2e_env):
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    victim = tmp_path / "victim.txt"
    victim.write_text("someone else's file\n")
    os.chmod(victim, 0o644)
    (state / "keeltui.log").symlink_to(victim)
    config = write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1",
                          f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{state / "status"}"\n')
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text("Write to the Chief")
    tmux.wait_text("brain unreachable")  # a warning-worthy moment has passed: the app ran its start-up
    tmux.send("C-q")
    tmux.wait_for(lambda _: tmux.pane_dead(), what="the app to quit")
    assert victim.read_text() == "someone else's file\n"
    assert stat.S_IMODE(os.stat(victim).st_mode) == 0o644
    doctor = run_keeltui(config, "doctor")
    assert f"log: {state / 'keeltui.log'} is a symbolic link" in doctor.stdout
