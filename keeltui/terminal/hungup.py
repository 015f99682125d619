"""The terminal as Textual's writer thread sees it, safe once the terminal hangs up.

Textual writes through one thread (``WriterThread``) fed by a queue of 30 writes. When
the pane or SSH link goes away, a write to the terminal fails (EIO); the exception ends
that thread, the app's next 30 writes fill its queue, and the next one, or the driver's
own stop, waits on the queue for good: the app never exits and nobody sees it. Here a
failed write marks the terminal gone and later writes are dropped, so the thread lives
and the orderly exit runs to its end (the reply in flight is settled, the store closed).
"""

from __future__ import annotations

import errno
import select
from typing import IO


# A terminal that is gone for good; anything else that fails is retried or passed on.
GONE = frozenset({errno.EIO, errno.EPIPE, errno.ENXIO, errno.EBADF})


class HungUpSafeFile:
    """Wraps the terminal's file: writes after the terminal hung up are dropped."""

    def __init__(self, file: IO[str]) -> None:
        self._file = file
        self.gone = False
        """A write failed as on a terminal that is gone (EIO, EPIPE, ENXIO, EBADF)."""

    def write(self, text: str) -> int:
        self._attempt(lambda: self._file.write(text))
        return len(text)

    def flush(self) -> None:
        self._attempt(self._file.flush)

    def _attempt(self, operation) -> None:
        for _ in range(50):  # ~50 s of a terminal that takes nothing: then it is gone
            if self.gone:
                return
            try:
                operation()
                return
            except BlockingIOError:
                # Someone left the terminal non-blocking (ssh can): wait until it takes
                # more, then push what the buffer holds.
                select.select([], [self._file.fileno()], [], 1.0)
                operation = self._file.flush
            except InterruptedError:
                continue
            except OSError as exc:
                if exc.errno in GONE:
                    self.gone = True
                    return
                raise
        self.gone = True

    def fileno(self) -> int:
        return self._file.fileno()

    def isatty(self) -> bool:
        return self._file.isatty()


def hangup_safe(driver_class: type) -> type:
    """``driver_class`` with its terminal file wrapped (through keeltui/terminal/, which
    knows where Textual's Linux driver keeps it)."""
    from keeltui.terminal.exit_hooks import wrap_terminal_file

    class HangupSafeDriver(driver_class):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            wrap_terminal_file(self, HungUpSafeFile)  # type: ignore[arg-type]

        def _sigcont_application(self, *args) -> None:
            # Only a driver that SIGTSTP suspended starts again. The kernel sends SIGCONT
            # with the SIGHUP of a terminal that hangs up, and Textual started application
            # mode on it: a second input and writer thread, and writes to a terminal that is gone.
            if getattr(self, "_must_signal_resume", False):
                super()._sigcont_application(*args)

    HangupSafeDriver.__name__ = HangupSafeDriver.__qualname__ = f"HangupSafe{driver_class.__name__}"
    return HangupSafeDriver
