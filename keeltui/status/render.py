"""The one-line status, rendered from values (pure).

The file the app writes for tmux and ``keeltui status`` reads is
keeltui/status/file.py; both must stay fast, so nothing heavy is imported.
"""

from __future__ import annotations

from collections import namedtuple

from keeltui.status.line import AMBIENT_OFF, AWAY, IDLE, NO_EVIDENCE, QUIET, SNOOZED, tmux_escape

# What the status line shows. A namedtuple, not a dataclass: the app writes the line on
# every change and nothing here should cost more than the line. (`keeltui status`'s fast
# path does not import this module: keeltui/status/line.py holds what it prints.)
StatusState = namedtuple(
    "StatusState",
    ["quiet", "ambient_line", "focus_text", "context_text", "judge", "snoozed_until", "ambient_off", "away",
     "context_warning", "no_evidence"],
    defaults=[False, "", "", "", "", 0.0, False, False, "", False],
)
StatusState.__doc__ = """quiet, drift line, focus text, context text, which judge runs ("brain", "local",
"local · brain unreachable"), the snooze's end (epoch, 0 when not snoozed), ambient off, away, and the
tutor's context warning (mirrored beside the drift line), and whether no evidence source answers at all."""


def render_status(state: StatusState) -> str:
    """The shared line: safe for a screen other people can see."""
    from keeltui.text.textsafe import one_line

    if state.quiet:
        # Quiet Mode hides everything that is not screen-safe, drift text included.
        return QUIET
    if state.focus_text:
        return _with_context_warning(one_line(state.focus_text, 120), state)
    if state.ambient_line:
        return _with_context_warning("⚠ " + one_line(state.ambient_line, 118), state)
    return _with_context_warning(ambient_state_text(state), state)


def _with_context_warning(line: str, state: StatusState) -> str:
    """The tutor's context warning beside the line (alone when the line is idle)."""
    from keeltui.text.textsafe import one_line

    if not state.context_warning:
        return line
    warning = one_line(state.context_warning, 120)
    return warning if line == IDLE else f"{line}  ·  {warning}"

def ambient_state_text(state: StatusState) -> str:
    """Why there is no drift line: off, snoozed (until when), away, or idle; plus the
    local judge when it stands in for the brain. Never a bare ``idle`` that hides a state."""
    if state.ambient_off:
        line = AMBIENT_OFF
    elif state.snoozed_until:
        import time

        line = f"{SNOOZED} until {time.strftime('%H:%M', time.localtime(state.snoozed_until))}"
    elif state.away:
        line = AWAY
    elif state.no_evidence:
        # Not "idle": with no window to read, the sentinel cannot see a drift at all.
        line = NO_EVIDENCE
    else:
        line = IDLE
    if str(state.judge).startswith(("local", "bad answers")):
        line += f" · judge: {state.judge}"
    return line


__all__ = ["AMBIENT_OFF", "AWAY", "IDLE", "NO_EVIDENCE", "QUIET", "SNOOZED", "StatusState", "render_status", "tmux_escape"]
