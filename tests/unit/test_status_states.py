"""Every ambient state has its own status line (issue 13 point 6): never a bare `idle`
that hides snoozed, off, away or the local judge."""

from __future__ import annotations

import time

import pytest

from keeltui.status.render import StatusState, render_status, tmux_escape

UNTIL = time.mktime((2026, 11, 30, 14, 5, 0, 0, 0, -1))


@pytest.mark.parametrize(
    "state, line",
    [
        (StatusState(), "idle"),
        (StatusState(ambient_off=True), "ambient off"),
        (StatusState(snoozed_until=UNTIL), "◌ snoozed until 14:05"),
        (StatusState(away=True), "away"),
        (StatusState(judge="local · brain unreachable"), "idle · judge: local · brain unreachable"),
        (StatusState(snoozed_until=UNTIL, judge="local"), "◌ snoozed until 14:05 · judge: local"),
        (StatusState(judge="brain"), "idle"),
        # What outranks them stays on top.
        (StatusState(ambient_line="Reddit again", snoozed_until=UNTIL), "⚠ Reddit again"),
        (StatusState(quiet=True, ambient_off=True), "◌ Quiet Mode"),
        (StatusState(focus_text="◎ Focus: write · 20m left", away=True), "◎ Focus: write · 20m left"),
    ],
)
def test_each_state_is_named(state, line):
    assert render_status(state) == line


def test_the_tmux_line_is_the_same_line_escaped():
    assert tmux_escape(render_status(StatusState(ambient_line="PR #12 on GitHub"))) == "⚠ PR ##12 on GitHub"
