"""Quiet Mode keys are safe (issue 9, point 8): the real keeltui in tmux.

With Quiet Mode on, no key sends typed text anywhere the owner did not choose:
`i` never routes into the tutor, and Ctrl+T always comes back to the Chief tab,
which shows the Quiet sentence. Watched on screen at 80x24 and 120x40.
"""

from __future__ import annotations

import pytest

from keeltui.store import Store
from tests.conftest import write_config
from tests.support.tmux import Tmux, keeltui_command, run_keeltui

# The sentence wraps in a narrow pane: its first words are enough to know it is there.
QUIET_HEAD = "Quiet Mode is on"
TUTOR_HEAD = "Tutor sessions"


def _quiet_tmux(tmp_path, loopback, e2e_env, width: int, height: int) -> tuple[Tmux, object]:
    config = write_config(
        tmp_path / "config.toml", loopback.url,
        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
    )
    assert run_keeltui(config, "quiet", "on").returncode == 0
    session = Tmux(width, height)
    session.start(keeltui_command(config), e2e_env)
    return session, config


def _chief_tab_in_front(text: str) -> bool:
    return QUIET_HEAD in text and TUTOR_HEAD not in text


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_quiet_mode_keys_never_send_text_elsewhere(tmp_path, loopback, e2e_env, size):
    from tests.support.need import need_binary

    need_binary("tmux", "tmux")
    tmux, _config = _quiet_tmux(tmp_path, loopback, e2e_env, *size)
    try:
        tmux.wait_for(_chief_tab_in_front, what="the Quiet sentence")
        # Typing at once: the hidden composer must not hold the keyboard.
        tmux.type("hidden words")
        tmux.send("Enter")
        # Ctrl+T to the tutor and back: the Chief tab comes to the front and stays there.
        for _ in range(2):
            tmux.send("C-t")
            tmux.wait_text(TUTOR_HEAD)
            tmux.send("C-t")
            tmux.wait_for(_chief_tab_in_front, what="the Chief tab with the Quiet sentence")
            for _ in range(10):  # watched while the app settles: the tutor never pulls itself forward
                screen = tmux.wait_for(lambda text: True)
                assert _chief_tab_in_front(screen), screen

        # `i` then typing on the hidden room: nothing may take the text.
        tmux.send("i")
        tmux.type("secret plan")
        tmux.send("Enter")
        for _ in range(10):
            screen = tmux.wait_for(lambda text: True)
            assert _chief_tab_in_front(screen) and "secret plan" not in screen, screen
        # The tutor did not get it either (Ctrl+T is handled after every key before it).
        tmux.send("C-t")
        screen = tmux.wait_text(TUTOR_HEAD)
        assert "secret plan" not in screen
    finally:
        tmux.close()
    store = Store(tmp_path / "k.db")
    try:
        tutor_rows = [
            row for conv in store.conversations("tutor") for row in store.messages(conv.id)
        ]
        assert not any("secret plan" in row.content for row in tutor_rows)
        assert not any("secret plan" in conv.title for conv in store.conversations("tutor"))
        chief_rows = store.messages(store.chief_id())
        assert not any("secret plan" in row.content or "hidden words" in row.content for row in chief_rows)
    finally:
        store.close()
