"""`keeltui chat` (line mode) prints the reports that land while it is open (issue 9, point 9)."""

from __future__ import annotations

from keeltui.store import Store
from tests.conftest import write_config
from keeltui_dev.loopback import Reply
from tests.support.tmux import keeltui_command, run_keeltui


def test_reports_landing_while_the_line_chat_waits_are_printed(tmp_path, loopback, tmux, e2e_env):
    loopback.queue(Reply(text="The answer, streamed.", chunk_delay=0.05))
    config = write_config(
        tmp_path / "config.toml", loopback.url,
        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
    )
    tmux.start(keeltui_command(config, "chat"), e2e_env)
    tmux.wait_text("Ctrl-D to leave")
    tmux.wait_text("Owner>")
    tmux.type("half a thought")  # typed but not sent: a report must not eat it
    tmux.wait_text("Owner> half a thought")  # echoed: the prompt holds it
    out = run_keeltui(config, "report", "--source", "followup:plumber", "The plumber confirmed Tuesday")
    assert out.returncode == 0, out.stderr
    # The report is printed, then the prompt drawn again below it with what was typed (a
    # capture between the two shows the report alone: wait for both).
    screen = tmux.wait_for(lambda s: "[Follow-up] The plumber confirmed Tuesday" in s
                           and s.rstrip().splitlines()[-1].startswith("Owner> half a thought"),
                           what="the report above the prompt, which keeps what was typed")
    # Printed above the prompt, which keeps what was typed.
    lines = screen.rstrip().splitlines()
    report_line = max(i for i, line in enumerate(lines) if "The plumber confirmed Tuesday" in line)
    prompt_line = max(i for i, line in enumerate(lines) if "Owner> half a thought" in line)
    assert report_line < prompt_line
    tmux.send("Enter")
    tmux.wait_text("The answer, streamed.")
    # The chat still sends: the typed text is the turn.
    rows = Store(tmp_path / "k.db").messages(1)
    assert [r.content for r in rows if r.role == "user"] == ["half a thought"]
    # A second report, after a turn, is printed too.
    assert run_keeltui(config, "report", "--source", "cron:backup", "Backups verified").returncode == 0
    tmux.wait_text("[Scheduled task] Backups verified")
    tmux.send("C-d")
    tmux.wait_for(lambda _: tmux.pane_dead(), what="chat to exit")
