"""$EDITOR both ways, as the owner sees it: the real app in tmux lends the terminal to a
scripted editor or pager (VISUAL/PAGER set to a small shell script) and takes it back."""

from __future__ import annotations

import stat

import pytest

from keeltui.store import Store
from tests.conftest import write_config
from tests.support.tmux import keeltui_command

PLACEHOLDER = "Write to the Chief"

# Shows that it has the terminal, waits for a line (so the test sees it there), then
# writes two more lines into the draft, as an owner finishing a long prompt would.
EDITOR = """#!/bin/sh
printf 'SCRIPTED EDITOR on %s\\n' "$(basename "$1")"
read answer
printf 'second line\\nthird line\\n' >> "$1"
"""

# Shows the row's file as it is, then waits for a line (as `less` waits for q).
PAGER = """#!/bin/sh
printf 'SCRIPTED PAGER\\n'
cat "$1"
printf '\\nPAGER END\\n'
read answer
"""


def _script(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def _config(tmp_path, loopback):
    return write_config(tmp_path / "config.toml", loopback.url,
                        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_draft_goes_to_the_editor_and_comes_back_unsent(tmp_path, loopback, tmux, e2e_env, size):
    tmux.width, tmux.height = size
    env = {**e2e_env, "VISUAL": _script(tmp_path, "editor.sh", EDITOR), "EDITOR": "/bin/false"}
    tmux.start(keeltui_command(_config(tmp_path, loopback)), env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("first line")
    tmux.wait_text("first line")
    tmux.send("C-n")
    # The app is suspended: the editor has the whole terminal, the room is gone from it.
    screen = tmux.wait_text("SCRIPTED EDITOR on draft.md")
    assert "Chief" not in screen and "first line" not in screen, screen
    tmux.send("Enter")
    # The app redraws over the editor's screen, the edited draft in its composer.
    tmux.wait_for(lambda s: all(line in s for line in ("first line", "second line", "third line", "Chief"))
                  and "SCRIPTED EDITOR" not in s, what="the edited draft in the redrawn app")
    assert not loopback.requests, "the edited draft was sent without Enter"
    tmux.send("Enter")
    tmux.wait_text("Hello from the loopback brain.")
    users = [row.content for row in Store(tmp_path / "k.db").messages(1) if row.role == "user"]
    assert users == ["first line\nsecond line\nthird line"]


def test_an_editor_that_cannot_run_says_which_and_keeps_the_draft(tmp_path, loopback, tmux, e2e_env):
    env = {**e2e_env, "VISUAL": str(tmp_path / "no-such-editor"), "EDITOR": "/bin/false"}
    tmux.start(keeltui_command(_config(tmp_path, loopback)), env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("keep me")
    tmux.wait_text("keep me")
    tmux.send("C-n")
    screen = tmux.wait_for(lambda s: "no-such-editor" in s and "keep me" in s, what="the line and the draft, redrawn")
    line = next(line for line in screen.splitlines() if "no-such-editor" in line)
    assert "editor: 'no-such-editor' not found; draft kept" in line, screen
    assert "keep me" in screen and "Traceback" not in screen
    tmux.send("Enter")  # the draft is still the composer's: Enter sends it
    tmux.wait_text("Hello from the loopback brain.")
    assert [row.content for row in Store(tmp_path / "k.db").messages(1) if row.role == "user"] == ["keep me"]


def test_a_focused_row_opens_read_only_in_the_pager(tmp_path, loopback, tmux, e2e_env):
    Store(tmp_path / "k.db").add_report("cron:x", "nightly backup: 42 files\n\nsecond paragraph")
    env = {**e2e_env, "PAGER": _script(tmp_path, "pager.sh", PAGER)}
    tmux.start(keeltui_command(_config(tmp_path, loopback)), env)
    tmux.wait_text("nightly backup")
    tmux.send("Escape")  # onto the newest row: the report
    tmux.wait_text("i Write")
    tmux.send("v")
    screen = tmux.wait_text("PAGER END")
    assert "SCRIPTED PAGER\nnightly backup: 42 files\n\nsecond paragraph\n" in screen, screen
    assert PLACEHOLDER not in screen
    tmux.send("Enter")
    tmux.wait_for(lambda s: PLACEHOLDER in s and "PAGER END" not in s, what="the room back")


# Ctrl+C while the pager has the terminal: the signal goes to the whole foreground process
# group, keeltui included. The script sends it as the terminal would (kill -INT 0).
INTERRUPTED_PAGER = """#!/bin/sh
trap 'printf "pager got Ctrl+C\\\\n"' INT
kill -INT 0
printf 'PAGER END\\n'
read answer
"""


def test_ctrl_c_in_the_pager_does_not_end_the_app(tmp_path, loopback, tmux, e2e_env):
    Store(tmp_path / "k.db").add_report("cron:x", "a report to read")
    env = {**e2e_env, "PAGER": _script(tmp_path, "pager.sh", INTERRUPTED_PAGER)}
    tmux.start(keeltui_command(_config(tmp_path, loopback)), env)
    tmux.wait_text("a report to read")
    tmux.send("Escape")
    tmux.wait_text("i Write")
    tmux.send("v")
    tmux.wait_text("PAGER END")
    tmux.send("Enter")
    tmux.wait_text(PLACEHOLDER)
    tmux.send("i")  # back to the composer: the app still takes keys
    tmux.wait_text("esc Leave input")  # the composer's keys in the footer: it has the focus
    tmux.type("still here")
    tmux.wait_text("still here")
    assert not tmux.pane_dead()


def test_quiet_mode_keeps_the_room_draft_out_of_the_editor(tmp_path, loopback, tmux, e2e_env):
    ran = tmp_path / "editor-ran"
    env = {**e2e_env, "VISUAL": _script(tmp_path, "editor.sh", f"#!/bin/sh\ntouch {ran}\nread answer\n")}
    tmux.start(keeltui_command(_config(tmp_path, loopback)), env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("a private draft")
    tmux.wait_text("a private draft")
    tmux.send("C-g")
    tmux.wait_text("Quiet Mode is on")
    tmux.send("C-n")
    tmux.send("C-g")  # handled after Ctrl+N: had the editor run, it would have taken this key
    tmux.wait_text("a private draft")
    assert not ran.exists()


def test_an_editor_that_leaves_the_terminal_raw_does_not_leave_it_so_after_the_app(tmp_path, loopback, tmux, e2e_env):
    from tests.e2e.test_hostile_e2e import _assert_terminal_given_back, _in_shell

    # An editor killed mid-session leaves raw mode behind; the app must not adopt it as
    # the terminal's modes to give back when it ends.
    editor = _script(tmp_path, "editor.sh", '#!/bin/sh\nstty raw -echo\nprintf "more" >> "$1"\n')
    tmux.start(_in_shell(keeltui_command(_config(tmp_path, loopback))), {**e2e_env, "VISUAL": editor})
    tmux.wait_text(PLACEHOLDER)
    tmux.send("C-n")
    tmux.wait_text("more")
    tmux.send("C-q")
    _assert_terminal_given_back(tmux)
