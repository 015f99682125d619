"""Quitting at once: Ctrl+Q the moment the first frame shows exits cleanly.

The tutor pane and the ambient controller are mounted right after the first frame;
quitting then used to end in a traceback (MountError from mounting onto a screen being
torn down, NoMatches from the tutor pane's on_mount) and exit status 1.
"""

from __future__ import annotations

import pytest

from tests.conftest import write_config
from tests.support.tmux import Tmux, keeltui_command

PLACEHOLDER = "Write to the Chief"


@pytest.mark.slow
def test_ctrl_q_at_the_first_frame_exits_cleanly(tmp_path, loopback, tmux, e2e_env):
    config = write_config(tmp_path / "config.toml", loopback.url,
                          f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    # The race is in the first few hundred milliseconds: several starts make it certain
    # that a regression shows (before the fix most starts failed).
    for attempt in range(8):
        session = Tmux()
        try:
            session.start(keeltui_command(config), e2e_env)
            session.wait_text(PLACEHOLDER)
            session.send("C-q")
            session.wait_for(lambda _: session.pane_dead(), timeout=60, what=f"exit after Ctrl+Q (start {attempt})")
            screen = session.capture()  # Textual prints a crash's traceback as it exits
            assert "Traceback" not in screen and "Error" not in screen, screen
            status = session._tmux("display", "-p", "#{pane_dead_status}", check=False).stdout.strip()
            assert status in ("0", ""), screen  # "" while tmux has not reaped the process yet
        finally:
            session.close()
