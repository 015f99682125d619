"""Whether a long reply that just landed deserves one quiet signal, and which. Pure.

The owner asked and looked away: a reply (or a tutor turn) that took a while ends
while the terminal or the tmux pane is not in front. One signal then, the terminal's
bell or a tmux message, as ``[ui] landed_signal`` says; never in Quiet Mode, never for
a quick reply, never while the owner is looking.
"""

from __future__ import annotations

from keeltui.infra.records import record

LANDED_SIGNALS = ("bell", "tmux", "off")


@record(frozen=True)
class Presence:
    terminal_focused: bool
    """The terminal's focus reports (True when it never sends any)."""
    pane_in_front: bool | None
    """In tmux: the pane shows in its window, the window in its session, the session on a
    client. None outside tmux."""

    @property
    def in_front(self) -> bool:
        return self.terminal_focused and self.pane_in_front is not False


def worth_a_look(setting: str, quiet: bool, seconds: float, after_secs: float) -> bool:
    """Whether to find out where the owner is at all (a tmux query costs a process)."""
    return setting != "off" and not quiet and seconds >= after_secs


def landed_signal(setting: str, quiet: bool, seconds: float, after_secs: float, presence: Presence) -> str | None:
    """"bell", "tmux" or None. A tmux message outside tmux is the bell."""
    if not worth_a_look(setting, quiet, seconds, after_secs) or presence.in_front:
        return None
    if setting == "tmux" and presence.pane_in_front is None:
        return "bell"
    return setting


def landed_line(what: str, seconds: float) -> str:
    """The tmux message: what landed, after how long."""
    return f"keeltui: {what} landed after {seconds:.0f} s"
