"""The owner's own editor and pager, run on a private temporary file.

Textual-free: the view suspends the app (keeltui/panes/common/editor_bridge.py) and calls
these while the terminal belongs to the child. The text goes through a file in a
fresh owner-only folder (0700, the file 0600) that is removed afterwards, so a draft
never lingers in /tmp for others to read.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import termios  # keeltui runs on POSIX terminals only
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterator, Mapping

from keeltui.text.textsafe import one_line

FALLBACK_EDITOR = "vi"
"""What git and crontab run when neither $VISUAL nor $EDITOR is set."""
FALLBACK_PAGER = "less"


@dataclass(frozen=True)
class Outcome:
    text: str | None
    """What the editor saved (None when it failed: the caller keeps what it had)."""
    problem: str = ""
    """One line naming the command that failed; empty on success."""


def editor_command(env: Mapping[str, str]) -> str:
    """$VISUAL, else $EDITOR, else vi (as git chooses)."""
    for name in ("VISUAL", "EDITOR"):
        if env.get(name, "").strip():
            return env[name].strip()
    return FALLBACK_EDITOR


def pager_command(env: Mapping[str, str]) -> tuple[str, bool]:
    """The command that shows a row read-only, and whether it is the editor.

    $PAGER, else less when it is installed, else the editor on a read-only file.
    """
    if env.get("PAGER", "").strip():
        return env["PAGER"].strip(), False
    if shutil.which(FALLBACK_PAGER, path=env.get("PATH")):
        return FALLBACK_PAGER, False
    return editor_command(env), True


SHOWN_CHARS = 30
"""The status line is one line, 80 columns at the least: the program's name and its
arguments, not the folders it lives in."""


def shown_command(argv: list[str]) -> str:
    """The command for a one-line message: the program's name, then its arguments."""
    return one_line(" ".join([os.path.basename(argv[0]), *argv[1:]]), SHOWN_CHARS)


def _run(command: str, path: Path, env: Mapping[str, str]) -> str:
    """Run ``command`` on ``path`` in the foreground; a problem line, or "" on success."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return f"cannot run {one_line(command, SHOWN_CHARS)!r}: {exc}"
    if not argv:
        return "no command to run"
    shown = shown_command(argv)
    try:
        # The terminal is the child's (the app is suspended): no pipes, its own tty.
        with _tty_kept():
            finished = subprocess.run([*argv, str(path)], env=dict(env), check=False)
    except FileNotFoundError:
        return f"{shown!r} not found"
    except OSError as exc:
        return f"cannot run {shown!r}: {exc.strerror or exc}"
    if finished.returncode != 0:
        return f"{shown!r} failed (exit {finished.returncode})"
    return ""


@contextmanager
def _tty_kept() -> Iterator[None]:
    """The terminal's modes as they were before the child, whatever it leaves behind
    (an editor killed in raw mode): the app would otherwise take them as the modes to
    give back when it ends."""
    try:
        fd = sys.__stdin__.fileno() if sys.__stdin__ is not None else 0
        saved = termios.tcgetattr(fd)
    except (OSError, ValueError, termios.error):
        yield  # not a terminal (tests, a pipe): nothing to keep
        return
    try:
        yield
    finally:
        with suppress(termios.error):
            termios.tcsetattr(fd, termios.TCSANOW, saved)


def _private_file(text: str, name: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="keeltui-"))  # 0700 whatever the umask
    path = folder / name
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(text)
    return path


def _remove(path: Path) -> None:
    shutil.rmtree(path.parent, ignore_errors=True)


def edit_text(text: str, env: Mapping[str, str]) -> Outcome:
    """Open ``text`` in the owner's editor; what it saved, or one line saying what failed."""
    command = editor_command(env)
    # Editors end a file with a newline; a draft that had none gets none back.
    path = _private_file(text + "\n" if text and not text.endswith("\n") else text, "draft.md")
    try:
        problem = _run(command, path, env)
        if problem:
            return Outcome(None, f"editor: {problem}; draft kept")
        try:
            saved = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            return Outcome(None, f"editor: cannot read back {path}: {exc.strerror}; draft kept")
    finally:
        _remove(path)
    return Outcome(saved[:-1] if saved.endswith("\n") else saved)


def view_text(text: str, env: Mapping[str, str], name: str = "row.md") -> str:
    """Show ``text`` read-only in the pager (or the editor); one problem line, or ""."""
    command, is_editor = pager_command(env)
    path = _private_file(text, name)
    try:
        os.chmod(path, 0o400)  # read-only: whatever an editor does, the row stays as stored
        problem = _run(command, path, env)
    finally:
        _remove(path)
    return f"{'editor' if is_editor else 'pager'}: {problem}" if problem else ""
