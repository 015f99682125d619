"""When a reply that landed gets a signal, and which (keeltui/chief/landed.py)."""

from __future__ import annotations

import pytest

from keeltui.chief.landed import Presence, landed_line, landed_signal

AWAY_IN_TMUX = Presence(terminal_focused=True, pane_in_front=False)
BLURRED = Presence(terminal_focused=False, pane_in_front=None)
LOOKING = Presence(terminal_focused=True, pane_in_front=True)


@pytest.mark.parametrize("setting, quiet, seconds, presence, expected", [
    ("bell", False, 9, AWAY_IN_TMUX, "bell"),
    ("tmux", False, 9, AWAY_IN_TMUX, "tmux"),
    ("tmux", False, 9, BLURRED, "bell"),  # no tmux: the bell stands in
    ("bell", False, 9, LOOKING, None),
    ("bell", False, 9, Presence(True, None), None),  # a focused terminal outside tmux
    ("bell", False, 2, AWAY_IN_TMUX, None),  # quick: the owner hardly waited
    ("bell", True, 9, AWAY_IN_TMUX, None),  # Quiet Mode
    ("off", False, 9, BLURRED, None),
])
def test_one_signal_only_for_a_long_reply_the_owner_is_not_looking_at(setting, quiet, seconds, presence, expected):
    assert landed_signal(setting, quiet, seconds, 5.0, presence) == expected


def test_the_message_says_what_landed_and_after_how_long():
    assert landed_line("the tutor's turn", 12.4) == "keeltui: the tutor's turn landed after 12 s"
