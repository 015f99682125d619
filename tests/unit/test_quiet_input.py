"""The terminal's input thread sleeps until there is input (keeltui/terminal/quiet_input.py).

The driver's thread runs against a real pty: bytes written to its master end are what a
terminal sends. Textual's own thread woke ten times a second to look at its exit flag and
its parser's clock; this one is woken by input, by its exit, or by the parser's deadline.
"""

from __future__ import annotations

import os
import pty
import signal
import threading
import time
import tty

import pytest
from textual import events
from textual.drivers import linux_driver

from keeltui.terminal.quiet_input import WakingEvent, quiet_input

# An exception in the input thread (Textual would show it as a crash) fails the test.
pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")


class Ticks:
    """Counts the parser's ``tick`` calls: one for each time the thread woke."""

    count = 0


@pytest.fixture
async def driver(monkeypatch):
    """A quiet driver on a pty whose messages are kept, and a way to run its thread."""
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGTSTP, signal.SIGCONT)}
    master, slave = pty.openpty()
    tty.setraw(slave)  # as the driver leaves a terminal: each byte readable as it comes
    base = linux_driver.XTermParser

    class CountingParser(base):  # type: ignore[valid-type, misc]
        def tick(self):
            Ticks.count += 1
            return super().tick()

    monkeypatch.setattr(linux_driver, "XTermParser", CountingParser)
    Ticks.count = 0
    seen: list = []

    class Probe(quiet_input(linux_driver.LinuxDriver)):
        def process_message(self, message) -> None:
            seen.append(message)

    probe = Probe(app=None)  # type: ignore[arg-type]  # the app is only reached through process_message
    probe.fileno = slave
    probe.seen = seen
    probe.master = master
    threads: list[threading.Thread] = []

    def start() -> threading.Thread:
        thread = threading.Thread(target=probe.run_input_thread, daemon=True)
        thread.start()
        threads.append(thread)
        return thread

    probe.start = start
    try:
        yield probe
    finally:
        probe.exit_event.set()
        for thread in threads:
            thread.join(5)
        os.close(master)
        os.close(slave)
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def keys(driver) -> str:
    return "".join(m.character or "" for m in driver.seen if isinstance(m, events.Key))


def wait_until(condition, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


async def test_typed_bytes_come_out_as_keys_in_order(driver):
    driver.start()
    os.write(driver.master, b"hello")
    wait_until(lambda: keys(driver) == "hello", "the five keys")
    os.write(driver.master, "é w".encode())
    wait_until(lambda: keys(driver) == "helloé w", "the next three")


async def test_an_untouched_terminal_never_wakes_the_thread(driver):
    driver.start()
    os.write(driver.master, b"x")
    wait_until(lambda: keys(driver) == "x", "the key")
    woken = Ticks.count
    time.sleep(0.6)  # Textual's thread ticks every 100 ms: six more here
    assert Ticks.count == woken


async def test_setting_exit_event_wakes_and_ends_the_thread(driver):
    thread = driver.start()
    wait_until(lambda: Ticks.count == 0 and thread.is_alive(), "the thread")
    time.sleep(0.2)  # asleep in poll(2), with no timeout
    driver.exit_event.set()
    thread.join(5)
    assert not thread.is_alive()


async def test_the_parser_deadline_wakes_the_thread_without_more_input(driver):
    # ESC [ starts a sequence: the parser waits ESCDELAY for its next byte, then gives up and
    # hands on what it has. Sleeping in poll(2) with no timeout, that would wait for the next key.
    driver.start()
    os.write(driver.master, b"\x1b[")
    wait_until(lambda: any(isinstance(m, events.Key) for m in driver.seen), "the keys of the cut sequence")


async def test_a_driver_stopped_and_started_again_reads_again(driver):
    # Textual stops the input thread to lend the terminal (the editor, Ctrl+Z) and starts a
    # new one after: the wake byte the stop wrote must not end the new thread at once.
    first = driver.start()
    driver.exit_event.set()
    first.join(5)
    assert not first.is_alive()
    driver.exit_event.clear()
    second = driver.start()
    time.sleep(0.2)
    assert second.is_alive()
    os.write(driver.master, b"ok")
    wait_until(lambda: keys(driver) == "ok", "the keys after the restart")


def test_a_waking_event_is_an_event_that_writes_a_byte():
    read, write = os.pipe()
    try:
        event = WakingEvent(write)
        assert not event.is_set()
        event.set()
        assert event.is_set() and os.read(read, 8) == b"!"
        os.close(write)
        event.set()  # the pipe closed: nothing waits, nothing raised
    finally:
        os.close(read)


def test_other_drivers_are_left_as_they_are():
    from textual.drivers.headless_driver import HeadlessDriver

    assert quiet_input(HeadlessDriver) is HeadlessDriver
    assert issubclass(quiet_input(linux_driver.LinuxDriver), linux_driver.LinuxDriver)


async def test_a_terminal_that_hangs_up_is_no_longer_read_and_the_thread_sleeps(driver):
    # The other end of the pty closes: poll(2) answers "readable" at once and every read is
    # empty (or EIO). Reading on would spin a core until the app has left.
    told: list[str] = []
    driver.on_hang_up = lambda: told.append(threading.current_thread().name)
    thread = driver.start()
    os.write(driver.master, b"a")
    wait_until(lambda: keys(driver) == "a", "the key")
    assert not driver.hung_up and told == []
    os.close(driver.master)
    driver.master = os.open(os.devnull, os.O_RDONLY)  # for the fixture's close
    time.sleep(0.3)
    woken = Ticks.count
    time.sleep(0.5)
    assert Ticks.count == woken, "the thread spins on a hung-up terminal"
    # Told once, from the input thread (keeltui/terminal/guard.py then leaves as on SIGHUP:
    # no once-a-second look at the terminal).
    assert driver.hung_up and told == [thread.name]
    assert thread.is_alive()  # asleep, until the app's exit sets exit_event
    driver.exit_event.set()
    thread.join(5)
    assert not thread.is_alive()


async def test_a_character_split_across_two_reads_is_not_taken_for_the_end(driver):
    driver.start()
    encoded = "é".encode()
    os.write(driver.master, encoded[:1])
    time.sleep(0.2)  # read alone: the decoder holds it, nothing to hand on yet
    os.write(driver.master, encoded[1:] + b"z")
    wait_until(lambda: keys(driver) == "éz", "the character and the next key")


async def test_one_exit_ends_every_input_thread_of_the_driver(driver):
    # As a terminal hangs up, the kernel sends SIGHUP and SIGCONT; Textual's SIGCONT handler
    # starts the input again, a second thread beside the first. The exit sets exit_event once
    # and joins the newest: the wake must reach both (one that drained it for itself left the
    # other asleep, and the app hung until its 5 s watchdog).
    threads = [driver.start() for _ in range(3)]
    time.sleep(0.2)
    driver.exit_event.set()
    threads[-1].join(5)
    driver.exit_event.clear()  # what disable_input does once it joined its thread
    for thread in threads:
        thread.join(5)
    assert not any(thread.is_alive() for thread in threads)


async def test_only_a_driver_sigtstp_suspended_starts_again_on_sigcont(driver, monkeypatch):
    # A terminal that hangs up sends SIGHUP and SIGCONT: Textual's SIGCONT handler started
    # application mode again (a second input thread, writes to the dead terminal).
    from keeltui.terminal.hungup import hangup_safe

    started: list[str] = []
    cls = hangup_safe(type(driver))
    monkeypatch.setattr(cls, "start_application_mode", lambda self: started.append("start"))
    safe = cls(app=None)  # type: ignore[arg-type]
    safe._sigcont_application()
    assert started == []  # never suspended: nothing to resume
    monkeypatch.setattr(cls, "suspend_application_mode", lambda self: started.append("suspend"))
    monkeypatch.setattr("os.kill", lambda pid, sig: started.append(f"signal {int(sig)}"))
    safe._sigtstp_application()  # what SIGTSTP runs: suspend, then stop the process
    safe._sigcont_application()
    assert started == ["suspend", f"signal {int(signal.SIGSTOP)}", "start"]


async def test_a_read_with_nothing_to_read_is_not_taken_for_the_end(driver, monkeypatch):
    # A terminal left non-blocking (ssh can) answers a read it woke for with EAGAIN when
    # something else took the bytes first: that is no hang-up, and the keys after it count.
    from keeltui.terminal import quiet_input as module

    real, refused = module._read, []

    def read(fd: int, size: int) -> bytes:
        if not refused:
            refused.append(fd)
            raise BlockingIOError(11, "Resource temporarily unavailable")
        return real(fd, size)

    monkeypatch.setattr(module, "_read", read)
    driver.start()
    os.write(driver.master, b"k")
    wait_until(lambda: keys(driver) == "k", "the key after a refused read")
    os.write(driver.master, b"ey")
    wait_until(lambda: keys(driver) == "key", "the keys after it")
    assert refused
