"""The terminal's input thread sleeps until there is input: no wake-ups while nobody types.

Textual's Linux driver reads the terminal on a thread that waits in ``select`` for at most
100 ms, to notice its ``exit_event`` and its parser's timeouts: an app nobody touches wakes
ten times a second, all day (0.25 % of a core here, the largest part of an idle keeltui).
:func:`quiet_input` gives the driver a thread that waits with no timeout unless the parser
has a deadline pending (then until that moment), and an ``exit_event`` that wakes it through
a pipe when it is set: ``disable_input`` (the exit, Ctrl+Z, the external editor) sets it,
then joins the thread. Between the wake-ups the thread does what Textual's does, in the same
order: read, decode, feed the parser, hand each event to ``process_message``, then ``tick``.

When the terminal hangs up, the thread stops reading it and says so through the driver's
``on_hang_up`` (set by keeltui/terminal/guard.py), so the app can leave without looking at
the terminal once a second.

Textual's loop, the names it reads (``fileno``, ``exit_event``, ``_debug``, the module's
``XTermParser``) and the parser's ``_timeout_time`` are checked by
``tests/unit/test_textual_seam.py`` against the pinned Textual.
"""

from __future__ import annotations

import os
import selectors
import threading
import time
import weakref
from codecs import getincrementaldecoder
from collections.abc import Callable
from contextlib import suppress


class WakingEvent(threading.Event):
    """A ``threading.Event`` that also writes a byte to ``wake_fd`` when it is set, and counts
    its sets: the driver clears it once it has joined *its* input thread, and any other one
    that slept through the set (Textual started a second on the SIGCONT of a hang-up, before
    keeltui/terminal/hungup.py narrowed that handler) still knows it was told to stop."""

    def __init__(self, wake_fd: int) -> None:
        super().__init__()
        self._wake_fd = wake_fd
        self.sets = 0

    def set(self) -> None:
        self.sets += 1
        super().set()
        # A full pipe: the thread is awake already; a closed one: nothing waits.
        with suppress(OSError):
            os.write(self._wake_fd, b"!")


_read = os.read  # the terminal's bytes (a name of its own, for the tests)


def _close_both(*fds: int) -> None:
    for fd in fds:
        with suppress(OSError):
            os.close(fd)


def next_deadline(parser: object) -> float | None:
    """When the parser wants its ``tick`` (a ``time.monotonic`` value, Textual's clock), or None."""
    return getattr(parser, "_timeout_time", None)


def quiet_input(driver_class: type) -> type:
    """``driver_class`` (Textual's ``LinuxDriver`` or a subclass) with the quiet input thread;
    any other driver class is returned as it is."""
    from textual.drivers import linux_driver

    if not issubclass(driver_class, linux_driver.LinuxDriver):
        return driver_class

    class QuietInputDriver(driver_class):
        hung_up = False
        """The input thread read the terminal's end (a hang-up, or a piped stdin's end)."""
        on_hang_up: Callable[[], None] | None = None
        """Called on the input thread when ``hung_up`` becomes true: it must be thread-safe."""

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self._wake_read, self._wake_write = os.pipe()
            os.set_blocking(self._wake_read, False)
            os.set_blocking(self._wake_write, False)
            self.exit_event = WakingEvent(self._wake_write)
            # Not in close(): Textual closes a driver it suspends (the editor, Ctrl+Z) and
            # starts it again; the pipe lives as long as the driver.
            weakref.finalize(self, _close_both, self._wake_read, self._wake_write)

        def _drain_wake(self) -> None:
            try:
                while os.read(self._wake_read, 64):
                    pass
            except OSError:  # empty (BlockingIOError) or closed
                pass

        def _tell_hang_up(self) -> None:
            self.hung_up = True
            if (told := self.on_hang_up) is not None:
                with suppress(Exception):  # a closed loop at the exit: the app is leaving anyway
                    told()

        def run_input_thread(self) -> None:
            stop = self.exit_event
            born = stop.sets

            def told_to_stop() -> bool:
                return stop.is_set() or stop.sets != born

            if not told_to_stop():
                self._drain_wake()  # a wake left from the last stop (Ctrl+Z, the editor)
            fileno, wake = self.fileno, self._wake_read
            selector = selectors.PollSelector()  # as select(2), any file (epoll refuses plain files)
            selector.register(fileno, selectors.EVENT_READ)
            selector.register(wake, selectors.EVENT_READ)
            # Looked up now, not at import: keeltui/terminal/keyinput.py hands Textual its parser.
            parser = linux_driver.XTermParser(self._debug)
            feed, tick = parser.feed, parser.tick
            decode = getincrementaldecoder("utf-8")().decode
            reading = True

            def process(ready: list) -> None:
                nonlocal reading
                for key, mask in ready:
                    if key.fd == wake:
                        # Told to stop: the byte stays for every other input thread (the
                        # driver joins only its newest; Textual starts one on each SIGCONT it
                        # resumes from), and the loop ends.
                        if not told_to_stop():
                            self._drain_wake()
                        continue
                    if mask & selectors.EVENT_READ:
                        try:
                            data = _read(fileno, 1024 * 4)
                        except (BlockingIOError, InterruptedError):
                            continue  # nothing after all: a terminal left non-blocking (ssh can)
                        except OSError:  # EIO: the terminal hung up
                            data = b""
                        if not data:
                            # A piped stdin at its end, or a terminal that hung up: poll(2)
                            # would answer at once for ever (Textual's thread spins on it).
                            # Stop reading; the app leaves on SIGHUP or when told here.
                            selector.unregister(fileno)
                            reading = False
                            self._tell_hang_up()
                            break
                        text = decode(data)
                        if text:  # "" is half a character the decoder holds: feed("") means the end
                            for event in feed(text):
                                self.process_message(event)
                for event in tick():
                    self.process_message(event)

            try:
                while not told_to_stop():
                    deadline = next_deadline(parser)
                    timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
                    process(selector.select(timeout))
                if reading:
                    selector.unregister(fileno)
                process([])  # the parser's last tick
            finally:
                selector.close()
                try:
                    for _event in feed(""):
                        pass
                except Exception:  # noqa: BLE001 - Textual's EOFError/ParseError at the end: nothing to tell
                    pass

    QuietInputDriver.__name__ = QuietInputDriver.__qualname__ = f"QuietInput{driver_class.__name__}"
    return QuietInputDriver
