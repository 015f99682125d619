"""Give the terminal back on SIGTERM, SIGINT and SIGHUP, and leave a terminal that hung up.

Python's default for SIGTERM and SIGHUP ends the process at once: the alternate
screen, mouse tracking and bracketed paste stay on and the cursor stays hidden, so
the owner's shell is unusable until ``reset``. Here each of them asks the app to exit
the ordinary way, which restores the terminal and cancels the workers (a streaming
reply is then settled as cut off, see ``ChiefTurns.reply``). A second signal while
that exit hangs writes the restoring sequences itself and leaves at once.

A terminal can also go without a SIGHUP: the app is not its session's controlling
process (started from a script with ``setsid``, a pty whose owner died), and the other
end of the pty simply closes. Textual's input thread then reads an empty string forever,
a core spinning in a process nobody sees. keeltui's input thread (terminal/quiet_input.py)
reads that end and says so, and the app leaves as on SIGHUP once ``poll`` confirms the
hang-up. Only with a driver that cannot tell is the terminal looked at once a second.
"""

from __future__ import annotations

import asyncio
import logging
import os
import select
import signal
import sys
import threading
import time
from contextlib import contextmanager, suppress
from collections.abc import Iterator

from keeltui.terminal.exit_hooks import app_driver

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name))

# Leave the alternate screen, mouse tracking (every mode Textual turns on) and bracketed
# paste off, cursor shown: what Textual's driver writes when it stops.
RESTORE = (
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"
    "\x1b[?2004l\x1b[?1004l\x1b[?25h\x1b[?1049l"
)


# How long the orderly exit may take after a signal before the process leaves by hand.
# A hung-up terminal used to wedge it for good (Textual's writer thread died on EIO and
# its full queue blocked the exit; keeltui/terminal/hungup.py closes that). The watchdog stays for
# whatever else may hang: a process nobody can see must never linger.
EXIT_GRACE_SECS = 5.0
HANGUP_CHECK_SECS = 1.0  # a driver that cannot tell: one poll(2) a second (its spinning thread costs far more)
log = logging.getLogger("keeltui.terminal")


def exit_code(signum: int) -> int:
    """The shell's convention for a process ended by a signal."""
    return 128 + signum


def install_signal_exit(app) -> None:
    """Route the signals to ``app.exit`` (call from the app's ``on_mount``, on its loop)."""
    loop = asyncio.get_running_loop()
    received: list[tuple[int, bool]] = []  # (signal, found by looking at the terminal)
    hangup = getattr(signal, "SIGHUP", None)

    def on_signal(signum: int, found: bool = False) -> None:
        if signum == getattr(signal, "SIGINT", None) and time.monotonic() < _interrupts_held_until:
            return  # meant for the editor or pager the app lent the terminal to
        if received:
            if signum == hangup and any(s == hangup and (f or found) for s, f in received):
                # One hang-up, two ways: found on the terminal (below) and the kernel's
                # SIGHUP, in either order. Not the "second signal" that means "now" (a
                # second SIGHUP from the kernel, `kill -HUP` again, is).
                return
            _restore_and_leave(app, signum)
        received.append((signum, found))
        # A watchdog off the event loop: if the loop itself is stuck, it still fires.
        watchdog = threading.Timer(EXIT_GRACE_SECS, _restore_and_leave, (app, signum))
        watchdog.daemon = True
        watchdog.start()
        app.exit(return_code=exit_code(signum))

    for signum in SIGNALS:
        with suppress(NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no such signal here
            loop.add_signal_handler(signum, on_signal, signum)

    stdin = sys.__stdin__
    if app.is_headless or stdin is None or hangup is None or not stdin.isatty():
        return  # a test's app, or no terminal to lose
    fd = stdin.fileno()

    def leave_if_hung_up() -> bool:
        if received:
            return True  # leaving already
        if terminal_hung_up(fd):
            log.warning("the terminal hung up without a SIGHUP: leaving as on one")
            on_signal(hangup, found=True)
            return True
        return False

    def look_at_the_terminal() -> None:
        if not leave_if_hung_up():
            loop.call_later(HANGUP_CHECK_SECS, look_at_the_terminal)

    driver = app_driver(app)
    if driver is not None and hasattr(driver, "on_hang_up"):
        # The input thread reads the end and tells (from its thread): no timer at all.
        # A SIGHUP usually comes first; when none does, this is how the app learns.
        driver.on_hang_up = lambda: loop.call_soon_threadsafe(leave_if_hung_up)
        if getattr(driver, "hung_up", False):
            leave_if_hung_up()  # it hung up before this was installed
    else:
        loop.call_later(HANGUP_CHECK_SECS, look_at_the_terminal)


def terminal_hung_up(fd: int) -> bool:
    """Whether the terminal on ``fd`` hung up (the other end of its pty closed) or is gone."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    try:
        ready = poller.poll(0)
    except OSError:
        return True
    return any(events & (select.POLLHUP | select.POLLNVAL) for _, events in ready)


# While a child (the editor, the pager) has the terminal, Ctrl+C in it reaches this
# process too (the same foreground process group). The event loop is blocked meanwhile
# and handles the signal only after the child ends: it is ignored until shortly after.
HOLD_AFTER_SECS = 1.0
_interrupts_held_until = 0.0


@contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT does not end the app while this block runs (nor for a moment after)."""
    global _interrupts_held_until
    _interrupts_held_until = float("inf")
    try:
        yield
    finally:
        _interrupts_held_until = time.monotonic() + HOLD_AFTER_SECS


def _restore_and_leave(app, signum: int) -> None:
    """The orderly exit did not finish: put the terminal right by hand and go."""
    try:
        from keeltui.infra.logfile import note_without_locks

        note_without_locks(f"the exit after signal {signum} did not finish within {EXIT_GRACE_SECS:g} s: "
                           "left by hand (the terminal was restored, the process ended)")
    except Exception:  # noqa: BLE001 - leaving is what matters here
        pass
    try:
        driver = app_driver(app)
        # Straight to the file descriptor: the driver's writer queue may be what is stuck.
        os.write(sys.__stdout__.fileno() if sys.__stdout__ is not None else 1, RESTORE.encode())
        saved = getattr(driver, "attrs_before", None)  # the tty's modes before raw mode
        if saved is not None and (stdin := sys.__stdin__) is not None:
            import termios

            termios.tcsetattr(stdin.fileno(), termios.TCSANOW, saved)
    except Exception:  # noqa: BLE001 - a hung-up terminal cannot be written: leaving is all that is left
        pass
    os._exit(exit_code(signum))
