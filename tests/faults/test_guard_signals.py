"""The guard (keeltui/terminal/guard.py) on signals and hang-ups, in a real process with a
real pty: the first signal asks for the orderly exit; a second one means "now" (the exit
is left by hand); one hang-up reported twice (found on the terminal and by the kernel's
SIGHUP) is one; and a driver that cannot tell of a hang-up gets the guard's look instead.

The app is a stand-in whose orderly exit takes as long as the test says (the real app's
can hang on a stuck brain or disk), so what the guard does is seen on its own.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pty, poll(2) and signals: Linux's")

CHILD = """
import asyncio, select, sys, threading
from keeltui.terminal import guard

guard.HANGUP_CHECK_SECS = 0.1  # the look's pace; what is tested is that it runs at all
driver_kind, exit_secs = sys.argv[1], float(sys.argv[2])


class PlainDriver:
    pass  # no on_hang_up: cannot tell of a hang-up


class TellingDriver:
    on_hang_up = None  # set by the guard; called below when the terminal hangs up, as keeltui's input thread does


class StandInApp:
    is_headless = False

    def __init__(self):
        self._driver = PlainDriver() if driver_kind == "plain" else TellingDriver()
        self.left = asyncio.Event()

    def exit(self, return_code=0):
        print(f"exit asked {return_code}", flush=True)
        asyncio.get_running_loop().call_later(exit_secs, self.left.set)  # the orderly exit takes this long


def tell_when_hung_up(driver):
    poller = select.poll()
    poller.register(0, select.POLLIN)
    while not any(ev & select.POLLHUP for _, ev in poller.poll(100)):
        pass
    driver.on_hang_up()


async def main():
    app = StandInApp()
    guard.install_signal_exit(app)
    if driver_kind == "tells":
        threading.Thread(target=tell_when_hung_up, args=(app._driver,), daemon=True).start()
    print("installed", flush=True)
    await asyncio.wait_for(app.left.wait(), 60)
    print("left in order", flush=True)

asyncio.run(main())
"""


class Child:
    """The stand-in app on a pty that is not its controlling terminal (closing the pty's
    other end sends no SIGHUP: only the driver or the guard's look can find it)."""

    def __init__(self, driver: str, exit_secs: float) -> None:
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen([sys.executable, "-c", CHILD, driver, str(exit_secs)], stdin=slave,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                                     start_new_session=True)
        os.close(slave)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        assert line == "installed", self.proc.stderr.read() if self.proc.stderr else line

    def line(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().strip()

    def hang_up(self) -> None:
        if self.master >= 0:
            os.close(self.master)
            self.master = -1

    def signal(self, signum: int) -> None:
        os.kill(self.proc.pid, signum)

    def finish(self, timeout: float = 60) -> tuple[int, str, str]:
        # Not communicate(): it reads the pipes' file descriptors, and what readline() above
        # had already buffered (two lines in one read, on a loaded machine) would be lost.
        # The child writes a few lines: its pipes never fill while it is waited for.
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running {timeout:g} s on") from None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        return code, self.proc.stdout.read(), self.proc.stderr.read()

    def close(self) -> None:
        self.hang_up()
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def child():
    made: list[Child] = []

    def make(driver: str = "plain", exit_secs: float = 0.0) -> Child:
        made.append(Child(driver, exit_secs))
        return made[-1]

    yield make
    for c in made:
        c.close()


def test_a_plain_driver_still_leaves_when_its_terminal_closes_without_a_sighup(child):
    app = child("plain")
    time.sleep(0.3)  # a few looks at a terminal that is still there: nothing happens
    assert app.proc.poll() is None
    app.hang_up()
    assert app.line() == "exit asked 129"  # as on SIGHUP (128 + 1)
    code, out, err = app.finish()
    assert (code, out.strip()) == (0, "left in order"), err
    assert "Traceback" not in err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_second_signal_during_a_slow_exit_leaves_at_once(child, signum):
    app = child("plain", exit_secs=20.0)
    app.signal(signum)
    assert app.line() == f"exit asked {128 + signum}"
    app.signal(signum)  # `kill` again: now
    started = time.monotonic()
    code, out, err = app.finish(timeout=30)
    assert code == 128 + signum, (out, err)
    assert "left in order" not in out
    # At once, not by the 5 s watchdog after the first (nor the orderly exit's 20 s).
    assert time.monotonic() - started < 4.0


def test_one_hang_up_found_on_the_terminal_and_signalled_counts_once(child):
    app = child("tells", exit_secs=1.5)
    app.hang_up()  # the driver finds it first ...
    assert app.line() == "exit asked 129"
    app.signal(signal.SIGHUP)  # ... and the kernel says it too: the same hang-up
    code, out, err = app.finish()
    assert (code, out.strip()) == (0, "left in order"), err
