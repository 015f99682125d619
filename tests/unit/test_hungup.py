"""A terminal that hangs up never wedges the app's exit.

Textual's writer thread dies on the first failed write (EIO once the pane or SSH link
is gone); its queue holds 30 writes, so the 31st write, or the driver's stop, then
waits for ever. The real WriterThread is driven here with a terminal file that fails
like a hung-up pty.
"""

from __future__ import annotations

import errno
import threading

import pytest

from textual.drivers._writer_thread import MAX_QUEUED_WRITES, WriterThread

from keeltui.terminal.hungup import HungUpSafeFile, hangup_safe


class HungUpTerminal:
    """A pty whose other end is gone: every write and flush fails with EIO."""

    def __init__(self) -> None:
        self.attempts = 0

    def write(self, text: str) -> int:
        self.attempts += 1
        raise OSError(errno.EIO, "Input/output error")

    def flush(self) -> None:
        raise OSError(errno.EIO, "Input/output error")

    def fileno(self) -> int:
        return 2

    def isatty(self) -> bool:
        return True


def _exit_path(file, wait: float = 30.0) -> threading.Thread:
    """What the app does after the hang-up: keep drawing a while, then stop the driver."""
    writer = WriterThread(file)
    writer.start()

    def draw_then_stop() -> None:
        for frame in range(MAX_QUEUED_WRITES * 4):
            writer.write(f"frame {frame}")
        writer.stop()

    exiting = threading.Thread(target=draw_then_stop, daemon=True)  # daemon: a wedge must not hang pytest
    exiting.start()
    exiting.join(timeout=wait)  # bounds a wedge only; the fixed path ends at once
    return exiting


def test_the_exit_ends_after_the_terminal_hung_up():
    terminal = HungUpTerminal()
    safe = HungUpSafeFile(terminal)
    assert not _exit_path(safe).is_alive(), "the exit waited for ever on a terminal that hung up"
    assert safe.gone and terminal.attempts == 1  # one failed write, then nothing more is tried


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # the dying writer
def test_textuals_own_writer_wedges_without_it():
    """The mechanism, shown on Textual's code as it is (the reason for HungUpSafeFile)."""
    assert _exit_path(HungUpTerminal(), wait=1.0).is_alive()  # a wedge lasts for ever


async def test_the_apps_driver_wraps_its_terminal(make_app):
    from textual.drivers.linux_driver import LinuxDriver

    app = make_app()
    driver_class = app.get_driver_class()
    assert issubclass(driver_class, LinuxDriver)
    driver = driver_class(app)
    assert isinstance(driver._file, HungUpSafeFile)
    assert hangup_safe(LinuxDriver) is not LinuxDriver


class NonBlockingTerminal(HungUpTerminal):
    """A terminal someone left non-blocking: the first write finds it full (EAGAIN)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.written: list[str] = []
        self.full = True
        self.fd = fd

    def write(self, text: str) -> int:
        if self.full:
            self.full = False
            raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
        self.written.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        return self.fd


def test_a_full_non_blocking_terminal_is_waited_for_never_taken_for_gone():
    import os

    read_end, write_end = os.pipe()  # an empty pipe is writable: the wait returns at once
    try:
        terminal = NonBlockingTerminal(write_end)
        safe = HungUpSafeFile(terminal)
        safe.write("frame 1")
        safe.write("frame 2")
    finally:
        os.close(read_end)
        os.close(write_end)
    assert not safe.gone and terminal.written == ["frame 2"]  # the screen keeps being drawn
