"""tmux's status bar calling `keeltui status --tmux`, as a newcomer has it: no config file
(issue 19's fast path). What the bar shows while the app runs, in Quiet Mode and after it
quits, seen through a second tmux attached as a terminal (tmux runs status-right only for
an attached client)."""

from __future__ import annotations

import shlex

from tests.support.need import need_binary
from tests.support.tmux import VENV_BIN, Tmux

PLACEHOLDER = "Write to the Chief"


def test_the_status_bar_follows_the_app_with_no_config_file(e2e_env):
    need_binary("tmux", "tmux")
    keeltui = shlex.quote(str(VENV_BIN / "keeltui"))
    app, terminal = Tmux(80, 24), Tmux(80, 24)
    try:
        app.start(keeltui, e2e_env)  # no --config: the platform folders, where no config file is
        app.wait_text(PLACEHOLDER)
        app.set_option("status-interval", "1")
        app.set_option("status-right-length", "60")
        app.set_option("status-right", f"[#({keeltui} status --tmux)]")
        terminal.start(f"env -u TMUX tmux -L {app.socket} -f /dev/null attach", e2e_env)
        bar = terminal.wait_for(lambda text: "[idle" in text, what="the app's line in the status bar")
        assert PLACEHOLDER in bar  # the app itself, above the bar
        app.send("C-g")
        terminal.wait_text("[◌ Quiet Mode]")
        app.send("C-g")
        terminal.wait_text("[idle")
        app.send("C-q")
        terminal.wait_text("[keeltui not running]")
    finally:
        terminal.close()
        app.close()
