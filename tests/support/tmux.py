"""Drive the real ``keeltui`` in tmux: a private socket, send-keys, capture-pane."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

VENV_BIN = Path(sys.executable).parent
# How long a wait looks for two captures that agree once its condition holds (see Tmux._settled).
SETTLE = 0.4


class Tmux:
    def __init__(self, width: int = 120, height: int = 40) -> None:
        self.socket = f"keel-test-{uuid.uuid4().hex[:8]}"
        self.width = width
        self.height = height

    def _tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args],
                              capture_output=True, text=True, check=check, env=_pane_environment())

    def start(self, command: str, env: dict[str, str]) -> None:
        env_args: list[str] = []
        for key, value in env.items():
            env_args += ["-e", f"{key}={value}"]
        self._tmux("new-session", "-d", "-x", str(self.width), "-y", str(self.height),
                   "-e", "COLORTERM=truecolor", *env_args, f"exec {command}")
        self._tmux("set", "-g", "escape-time", "10", check=False)
        self._tmux("set", "-g", "default-terminal", "tmux-256color", check=False)
        self._tmux("set", "-g", "remain-on-exit", "on", check=False)

    def capture(self) -> str:
        return self._tmux("capture-pane", "-p", check=False).stdout

    def set_option(self, name: str, value: str) -> None:
        """A global tmux option of this server (``set -g``), e.g. its status bar's."""
        self._tmux("set", "-g", name, value)

    def send(self, *keys: str) -> None:
        self._tmux("send-keys", *keys)

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-l", text)

    def pane_pid(self) -> int:
        return int(self._tmux("display", "-p", "#{pane_pid}").stdout.strip())

    def pane_dead(self) -> bool:
        return self._tmux("display", "-p", "#{pane_dead}", check=False).stdout.strip() == "1"

    def wait_for(self, predicate, timeout: float = 20.0, what: str = "screen") -> str:
        """Poll the screen until ``predicate(text)``; return a settled capture of it.

        The timeout only bounds a hang. The capture returned is one tmux showed twice in a
        row where it can (:meth:`_settled`): a test reads the rest of its assertions from it.
        """
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.capture()
            if predicate(text):
                return self._settled(text, predicate)
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}; screen was:\n{text}")

    def _settled(self, text: str, predicate) -> str:
        """The screen once two captures agree, for at most ``SETTLE`` seconds.

        tmux parses what the app writes as it reads it: a capture can land inside a frame,
        showing the line waited for and not yet the rest of that frame (a test read its
        other assertions from such a capture and failed under load). A screen that keeps
        changing (a stream) gives its latest capture that still holds; a state that passes
        gives the capture that showed it.
        """
        until = time.monotonic() + SETTLE
        while time.monotonic() < until:
            time.sleep(0.05)
            again = self.capture()
            if again == text or not predicate(again):
                return text
            text = again
        return text

    def wait_text(self, needle: str, timeout: float = 20.0) -> str:
        return self.wait_for(lambda text: needle in text, timeout, repr(needle))

    def kill9(self) -> None:
        os.kill(self.pane_pid(), signal.SIGKILL)

    def close(self) -> None:
        self._tmux("kill-server", check=False)


def _pane_environment() -> dict[str, str]:
    """This process's environment without COLUMNS and LINES: the tmux server passes its
    environment to its panes, and Textual takes those over the real pane size (under
    pytest they can say 80x24 whatever size the test asked for)."""
    return {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}


def keeltui_command(config_path: Path, *args: str) -> str:
    return " ".join([shlex.quote(str(VENV_BIN / "keeltui")), "--config", shlex.quote(str(config_path)),
                     *map(shlex.quote, args)])


def run_keeltui(config_path: Path, *args: str, input: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(VENV_BIN / "keeltui"), "--config", str(config_path), *args],
                          capture_output=True, text=True, input=input, timeout=60,
                          env={**os.environ, **(env or {})})
