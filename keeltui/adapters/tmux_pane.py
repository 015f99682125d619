"""Ask tmux whether keeltui's pane is the one in front, and show a message on its client.

Only when $TMUX is set (keeltui runs inside tmux); the ``tmux`` found on $PATH talks to
the server named there. Every failure means "do not know" (None) or False: a signal
that cannot be given is never an error on the owner's screen.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping

from keeltui.text.textsafe import one_line

TMUX_SECS = 2.0
MESSAGE_MS = 5000
"""How long the message stays on tmux's status line (tmux's own default is 0.75 s)."""


def _tmux(args: list[str], env: Mapping[str, str]) -> str | None:
    pane = env.get("TMUX_PANE", "")
    target = ["-t", pane] if pane else []
    try:
        done = subprocess.run(["tmux", args[0], *target, *args[1:]], capture_output=True, text=True,
                              timeout=TMUX_SECS, env=dict(env), check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def pane_in_front(env: Mapping[str, str]) -> bool | None:
    """Whether the pane is its window's active pane, the window its session's current one,
    and the session attached to a client; None outside tmux or when tmux does not answer."""
    if not env.get("TMUX"):
        return None
    out = _tmux(["display-message", "-p", "#{pane_active} #{window_active} #{session_attached}"], env)
    parts = (out or "").split()
    if len(parts) != 3 or not parts[2].isdigit():
        return None
    return parts[0] == "1" and parts[1] == "1" and int(parts[2]) > 0


def display_message(text: str, env: Mapping[str, str]) -> bool:
    """Show ``text`` on the status line of the tmux client that shows keeltui's session."""
    if not env.get("TMUX"):
        return False
    line = one_line(text, 120).replace("#", "##")  # a message is a tmux format: # is special
    return _tmux(["display-message", "-d", str(MESSAGE_MS), line], env) is not None
