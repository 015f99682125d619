"""Told when it lands: a long reply that finishes while keeltui's tmux pane is not in front
rings the bell (tmux's bell flag on its window) or shows a tmux message on the client."""

from __future__ import annotations

import re

from keeltui.store import Store
from keeltui_dev.loopback import Reply
from tests.conftest import write_config
from tests.support.tmux import Tmux, keeltui_command

PLACEHOLDER = "Write to the Chief"


def _config(tmp_path, loopback, signal: str):
    return write_config(
        tmp_path / "config.toml", loopback.url,
        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n'
        f'[ui]\nlanded_signal = "{signal}"\nlanded_after_secs = 1.0\n',
    )


def _ask_and_look_away(tmux: Tmux, tmp_path, loopback, e2e_env, signal: str) -> None:
    """A reply that takes two seconds is asked for; then another tmux window comes to the front."""
    loopback.queue(Reply(text="The long answer is here.", delay=2.0))
    tmux.start(keeltui_command(_config(tmp_path, loopback, signal)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("take your time")
    tmux.send("Enter")
    tmux.wait_text("take your time")
    tmux._tmux("new-window", "-n", "elsewhere")  # selected: keeltui's window is no longer in front
    tmux.wait_for(lambda _: loopback.requests, what="the request")


def _landed(tmp_path) -> bool:
    rows = Store(tmp_path / "k.db").messages(1)
    return any(row.content == "The long answer is here." and row.status == "complete" for row in rows)


def test_a_long_reply_that_lands_behind_another_window_rings_the_bell(tmp_path, loopback, tmux, e2e_env):
    _ask_and_look_away(tmux, tmp_path, loopback, e2e_env, "bell")
    tmux.wait_for(lambda _: _landed(tmp_path), what="the reply to land")
    flag = lambda: tmux._tmux("display", "-p", "-t", ":0", "#{window_bell_flag}").stdout.strip()  # noqa: E731
    tmux.wait_for(lambda _: flag() == "1", what="tmux's bell flag on keeltui's window")


def test_the_tmux_signal_is_a_message_on_the_client_that_looks_elsewhere(tmp_path, loopback, tmux, e2e_env):
    # A real client attached to the app's tmux server (a terminal in a second tmux): what the owner sees.
    client = Tmux(100, 30)
    try:
        loopback.queue(Reply(text="The long answer is here.", delay=2.0))
        tmux.start(keeltui_command(_config(tmp_path, loopback, "tmux")), e2e_env)
        client.start(f"env -u TMUX tmux -L {tmux.socket} -f /dev/null attach", {})
        client.wait_text(PLACEHOLDER)
        tmux.type("take your time")
        tmux.send("Enter")
        client.wait_text("take your time")
        tmux._tmux("new-window", "-n", "elsewhere")
        client.wait_for(lambda s: PLACEHOLDER not in s, what="the other window in front")
        screen = client.wait_text("keeltui: the Chief's reply landed after")
        assert re.fullmatch(r"keeltui: the Chief's reply landed after \d+ s\s*", screen.splitlines()[-1]), screen
        tmux._tmux("select-window", "-t", ":0")
        client.wait_text("The long answer is here.")
    finally:
        client.close()


def test_outside_tmux_a_terminal_that_lost_the_focus_gets_the_bell(tmp_path, loopback, tmux, e2e_env):
    loopback.queue(Reply(text="The long answer is here.", delay=2.0))
    # No $TMUX for the app: only the terminal's focus report says where the owner is.
    tmux.start("env -u TMUX -u TMUX_PANE " + keeltui_command(_config(tmp_path, loopback, "bell")), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("take your time")
    tmux.send("Enter")
    tmux.wait_text("take your time")
    tmux._tmux("send-keys", "-H", "1b", "5b", "4f")  # ESC [ O: the terminal lost the focus
    tmux.wait_for(lambda _: _landed(tmp_path), what="the reply to land")
    flag = lambda: tmux._tmux("display", "-p", "-t", ":0", "#{window_bell_flag}").stdout.strip()  # noqa: E731
    tmux.wait_for(lambda _: flag() == "1", what="the bell (tmux's bell flag on the window)")


def test_a_long_tutor_turn_that_lands_while_no_client_shows_it_rings_the_bell(tmp_path, loopback, tmux, e2e_env):
    from tests.e2e.test_tutor_e2e import _script, _start_session

    _script(loopback, [Reply(text="Tell me what you already know.", delay=2.0)])
    _start_session(tmux, _config(tmp_path, loopback, "bell"), e2e_env, "tide tables")
    # Bells rung while the session was opened (an extra Enter) are cleared by leaving the
    # window and coming back; no client shows the session, so the owner is not looking.
    tmux._tmux("new-window", "-n", "elsewhere")
    tmux._tmux("select-window", "-t", ":0")
    assert tmux._tmux("display", "-p", "-t", ":0", "#{window_bell_flag}").stdout.strip() == "0"
    tmux.wait_text("Tell me what you already know.")
    flag = lambda: tmux._tmux("display", "-p", "-t", ":0", "#{window_bell_flag}").stdout.strip()  # noqa: E731
    tmux.wait_for(lambda _: flag() == "1", what="the bell (tmux's bell flag on the window)")
