"""Issue 24.5: a password in ``brain.base_url`` is never shown nor stored anywhere.

keeltui refuses such a URL (exit 2, the URL masked in the message); the test greps every
surface a base URL reaches: each command's output, the app's screen in tmux, the database,
the log and status files. Passwords are often pasted unencoded, so the password may hold
"/", "?", "#" or "@", which end a URL's host part early for a parser.
"""

from __future__ import annotations

import os
import shlex

import pytest

from tests.conftest import write_config
from tests.support.tmux import keeltui_command, run_keeltui

SECRET = "hunter2sekrit"
PASSWORDS = (SECRET, f"12/{SECRET}", f"pw/{SECRET}", f"pw?{SECRET}", f"pw#{SECRET}", f"pw@{SECRET}")
COMMANDS = ([], ["status"], ["doctor"], ["chat", "hello"], ["log"], ["export"], ["report", "--source", "x", "hi"])


def _every_file_under(*folders) -> dict:
    found = {}
    for folder in folders:
        for root, _, names in os.walk(folder):
            for name in names:
                path = os.path.join(root, name)
                with open(path, "rb") as handle:
                    found[path] = handle.read()
    return found


@pytest.mark.parametrize("password", PASSWORDS)
@pytest.mark.parametrize("where", ["file", "environment"])
def test_a_password_in_the_base_url_is_refused_and_appears_on_no_surface(tmp_path, where, password):
    url = f"http://ada:{password}@127.0.0.1:9/v1"
    state = tmp_path / "state"
    config = write_config(tmp_path / "c.toml", url if where == "file" else "http://127.0.0.1:9/v1",
                          f'[paths]\ndatabase = "{tmp_path / "data" / "k.db"}"\nstatus_file = "{state / "status"}"\n')
    env = {"KEEL_BRAIN_BASE_URL": url} if where == "environment" else {}
    for command in COMMANDS:
        out = run_keeltui(config, *command, env=env)
        said = out.stdout + out.stderr
        assert out.returncode == 2, (command, said)
        assert SECRET not in said and "ada:" not in said and "pw" not in said, (command, said)
        assert "http://***@127.0.0.1:9/v1" in said and "brain.api_key_env" in said, (command, said)
    written = _every_file_under(tmp_path / "data", state, os.environ["XDG_STATE_HOME"], os.environ["XDG_DATA_HOME"])
    assert not [path for path, data in written.items() if SECRET.encode() in data]


def test_a_bad_port_in_a_url_with_a_password_is_reported_masked(tmp_path):
    config = write_config(tmp_path / "c.toml", f"http://ada:{SECRET}@127.0.0.1:99999/v1")
    out = run_keeltui(config, "status")
    assert out.returncode == 2 and SECRET not in out.stderr and "***@" in out.stderr, out.stderr


@pytest.mark.parametrize("password", [f"12/{SECRET}", f"pw?{SECRET}"])
@pytest.mark.parametrize("where", ["file", "environment"])
def test_the_app_in_a_terminal_shows_the_url_masked_and_never_the_password(tmp_path, tmux, e2e_env, where, password):
    url = f"http://ada:{password}@127.0.0.1:9/v1"
    config = write_config(tmp_path / "c.toml", url if where == "file" else "http://127.0.0.1:9/v1",
                          f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    env = {**e2e_env, "KEEL_BRAIN_BASE_URL": url} if where == "environment" else e2e_env
    # A shell stays in the pane after the app exits: tmux 3.3 drops the first line of a dead
    # pane's wrapped last words, and the test must read all of them.
    tmux.start("sh -c " + shlex.quote(keeltui_command(config) + '; echo "exit $?"; exec sleep 600'), env)
    screen = tmux.wait_text("exit 2")
    assert "http://***@127.0.0.1:9/v1" in screen and "brain.api_key_env" in screen, screen
    assert SECRET not in screen and "ada:" not in screen, screen
    assert not (tmp_path / "k.db").exists() or SECRET.encode() not in (tmp_path / "k.db").read_bytes()
