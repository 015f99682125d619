"""A private tmux server holding one 120x40 pane, driven like a person would.

The session starts with a placeholder command; :meth:`Pane.launch` respawns the pane
with the program under test, so the clock starts after tmux itself is up.
"""

from __future__ import annotations

import itertools
import os
import shlex
import subprocess
import sys
import time
import contextlib

from bench.procs import wait_gone

POLL_SECS = 0.02
WIDTH, HEIGHT = 120, 40
_counter = itertools.count()


class TmuxError(RuntimeError):
    pass


class Pane:
    def __init__(self, env: dict[str, str], width: int = WIDTH, height: int = HEIGHT) -> None:
        self.socket = f"keelbench-{os.getpid()}-{next(_counter)}"
        self.env = env
        self.width = width
        self.height = height
        self.target = "bench:0.0"
        self._started = False

    # -- plumbing ---------------------------------------------------------------------

    def tmux(self, *args: str, check: bool = True) -> str:
        proc = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            env=self.env, capture_output=True, text=True,
        )
        if check and proc.returncode != 0:
            raise TmuxError(f"tmux {' '.join(args[:2])}: {proc.stderr.strip()}")
        return proc.stdout

    def start(self) -> Pane:
        self.tmux(
            "new-session", "-d", "-s", "bench", "-x", str(self.width), "-y", str(self.height),
            "-e", "COLORTERM=truecolor", "sleep 100000",
        )
        self._started = True
        self.tmux("set", "-g", "default-terminal", "tmux-256color")
        self.tmux("set", "-g", "escape-time", "10")
        self.tmux("set", "-g", "remain-on-exit", "on")
        self.tmux("set", "-g", "status", "off")
        self.tmux("resize-window", "-t", "bench", "-x", str(self.width), "-y", str(self.height), check=False)
        return self

    def close(self) -> None:
        if self._started:
            # Its program is waited for after the server goes: a killed app winds down for up
            # to a couple of seconds (keeltui ~1.6 s after its terminal hangs up, ~50 ms of
            # CPU), and on two cores that fell on the next subject's start.
            pid = self.tmux("display", "-p", "-t", self.target, "#{pane_pid}", check=False).strip()
            self.tmux("kill-server", check=False)
            self._started = False
            if pid.isdigit():
                wait_gone(int(pid))
            # tmux leaves its socket file behind after kill-server: remove ours.
            base = os.environ.get("TMUX_TMPDIR") or "/tmp"
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(base, f"tmux-{os.getuid()}", self.socket))

    def __enter__(self) -> Pane:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    # -- driving ----------------------------------------------------------------------

    def launch(self, argv: list[str]) -> float:
        """Replace the pane's program with ``argv``; returns the monotonic start time."""
        command = "exec " + " ".join(shlex.quote(a) for a in argv)
        t0 = time.monotonic()
        self.tmux("respawn-pane", "-k", "-t", self.target, command)
        return t0

    def capture(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.target, check=False)

    def wait_for(self, *texts: str, timeout: float = 30.0, interval: float = POLL_SECS) -> float:
        """Poll the screen until every text shows; returns the monotonic time it did."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.capture()
            now = time.monotonic()
            if all(t in screen for t in texts):
                return now
            if now > deadline:
                dead = self.pane_dead()
                raise TimeoutError(
                    f"{' + '.join(repr(t) for t in texts)} not on screen after {timeout:.0f} s"
                    + (" (the program exited)" if dead else "")
                    + f"; screen: {_tail(screen)}"
                )
            time.sleep(interval)

    def send_keys(self, *keys: str, literal: bool = False) -> None:
        args = ["send-keys", "-t", self.target]
        if literal:
            args.append("-l")
        self.tmux(*args, *keys)

    def type_and_send(self, text: str, key: str = "Enter") -> float:
        """Type ``text`` into the focused input, then ``key``; returns the time the key left."""
        self.send_keys(text, literal=True)
        time.sleep(0.05)
        t = time.monotonic()
        self.send_keys(key)
        return t

    def pane_pid(self) -> int:
        return int(self.tmux("display", "-p", "-t", self.target, "#{pane_pid}").strip())

    def pane_dead(self) -> bool:
        return self.tmux("display", "-p", "-t", self.target, "#{pane_dead}", check=False).strip() == "1"

    def pipe_to(self, path: str, stamped: bool = False) -> None:
        """Append every byte the program writes to the terminal to ``path``
        (``stamped``: also when each piece arrived, in ``path``.times: see bench/pipe_stamp.py)."""
        if stamped:
            stamp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pipe_stamp.py")
            command = f"{shlex.quote(sys.executable)} {shlex.quote(stamp)} {shlex.quote(path)}"
        else:
            command = f"cat >> {shlex.quote(path)}"
        self.tmux("pipe-pane", "-o", "-t", self.target, command)

    def stop_pipe(self) -> None:
        self.tmux("pipe-pane", "-t", self.target, check=False)


def _tail(screen: str, lines: int = 12) -> str:
    kept = [" ".join(line.split()) for line in screen.splitlines() if line.strip()]
    return " | ".join(kept[-lines:])[:1200] or "(blank)"
