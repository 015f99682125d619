"""The one-line status: rendered from values (pure), written atomically for tmux.

``keeltui status`` reads the file the app writes on every change; it must stay fast,
so this module imports nothing heavy.
"""

from __future__ import annotations

import json
import os
from collections import namedtuple
from pathlib import Path

IDLE = "idle"
QUIET = "◌ Quiet Mode"
AMBIENT_OFF = "ambient off"
SNOOZED = "◌ snoozed"
AWAY = "away"


# What the status line shows. A namedtuple, not a dataclass: this module is on the
# path of `keeltui status`, which tmux runs every few seconds.
StatusState = namedtuple(
    "StatusState",
    ["quiet", "ambient_line", "focus_text", "context_text", "judge", "snoozed_until", "ambient_off", "away",
     "context_warning"],
    defaults=[False, "", "", "", "", 0.0, False, False, ""],
)
StatusState.__doc__ = """quiet, drift line, focus text, context text, which judge runs ("brain", "local",
"local · brain unreachable"), the snooze's end (epoch, 0 when not snoozed), ambient off, away, and the
tutor's context warning (mirrored beside the drift line)."""


def render_status(state: StatusState) -> str:
    """The shared line: safe for a screen other people can see."""
    from keeltui.textsafe import one_line

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
    from keeltui.textsafe import one_line

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
    else:
        line = IDLE
    if str(state.judge).startswith("local"):
        line += f" · judge: {state.judge}"
    return line


def tmux_escape(line: str) -> str:
    """tmux expands #(...) and #[...] in status-right: double every '#'."""
    return line.replace("#", "##")


def write_status(path: Path, line: str, *, pid: int | None = None, config_stamp: str = "") -> None:
    """Replace the status file in one rename, so a reader never sees half a line.

    ``config_stamp`` names the config the writer validated, so that ``keeltui
    status`` may skip validating it again while it is unchanged.
    """
    payload = {"line": line, "pid": pid if pid is not None else os.getpid(), "config": config_stamp}
    _replace(path, json.dumps(payload, ensure_ascii=False))


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` in one rename, owner-only."""
    import tempfile

    from keeltui.private_files import make_private_dir

    make_private_dir(path.parent)  # owner-only when created; mkstemp makes the file 0600
    fd, tmp = tempfile.mkstemp(prefix=".status-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


NOT_RUNNING = "keeltui not running"


def read_status_payload(path: Path) -> tuple[str, str]:
    """(the line to print, the config stamp the writer validated)."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        line = str(payload.get("line", IDLE))
        pid = payload.get("pid")
        stamp = str(payload.get("config", ""))
    except (OSError, ValueError, AttributeError):
        return NOT_RUNNING, ""
    if isinstance(pid, int) and not _alive(pid):
        return NOT_RUNNING, stamp
    return line, stamp


def _validated_path(path: Path) -> Path:
    """Beside the status file: the stamp of the config ``keeltui status`` last validated
    itself (a file of its own: the status file is the running app's to write)."""
    return path.with_name(f".{path.name}.validated")


def remember_validated(path: Path, config_stamp: str) -> None:
    """After a full validation, so that the next ``keeltui status`` on the same config
    takes the fast path even when no app has run with it. Best effort, and only into a
    folder that exists: a status call creates no folder of its own."""
    if not path.parent.is_dir() or status_validated(path, config_stamp):
        return  # no folder, or stamped already (the environment's overrides send every call here)
    try:
        _replace(_validated_path(path), config_stamp)
    except OSError:
        pass  # a read-only state folder: every call validates, as before


def status_validated(path: Path, config_stamp: str) -> bool:
    """Whether an earlier ``keeltui status`` validated ``config_stamp`` (the config's
    current contents; the app's own stamp is in the status file's payload)."""
    try:
        return _validated_path(path).read_text(encoding="utf-8") == config_stamp
    except (OSError, ValueError):
        return False


def read_status(path: Path) -> str:
    """The line the app last wrote; a note when the app is not running."""
    return read_status_payload(path)[0]


__all__ = ["StatusState", "render_status", "write_status", "read_status", "tmux_escape"]
