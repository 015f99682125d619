"""Whether a process is alive: the one place keeltui probes another process.

The core (keeltui/chief/interrupted.py) decides what a dead writer's row means; it
is handed this probe, so deciding never touches the system.
"""

# No `from __future__ import annotations`: `keeltui status` imports this on every tmux tick.
import os


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's live process: not ours to judge
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """A killed process nobody has reaped yet still answers kill(0): it writes nothing more."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return False  # no /proc (macOS): trust kill(0)
    return stat[stat.rfind(b")") + 2:][:1] in (b"Z", b"X")
