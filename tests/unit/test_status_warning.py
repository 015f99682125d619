"""The status line and file mirror the tutor's context warning beside the drift line."""

from __future__ import annotations

from keeltui.status.render import IDLE, QUIET, StatusState, render_status

WARNING = "CTX warning: context 60% full"


def test_the_warning_stands_alone_when_idle_and_beside_the_drift_line() -> None:
    assert render_status(StatusState()) == IDLE
    assert render_status(StatusState(context_warning=WARNING)) == WARNING
    line = render_status(StatusState(ambient_line="drifting to news", context_warning=WARNING))
    assert line == f"⚠ drifting to news  ·  {WARNING}"


def test_quiet_mode_hides_the_drift_line_and_the_warning() -> None:
    assert render_status(StatusState(quiet=True, ambient_line="news", context_warning=WARNING)) == QUIET
