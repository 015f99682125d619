"""Alt+Enter that survives tmux, xterm and SSH: a new line, never a send.

tmux 3.x (default settings) and most terminals send Alt+Enter as ESC CR. Textual's
parser turns that into a plain ``enter`` (it applies Alt only to printable keys), and
two of them in one read become ``^`` followed by ``enter``: the composer would send a
half-typed message. Before the parser sees the bytes, the spellings of Alt+Enter are
rewritten to the unambiguous CSI-u form (``ESC [13;3u``), which Textual reads as
``alt+enter``. Pure string work; :func:`install` hands the parser to Textual's driver.

The same parser answers a lone Escape as soon as ESCDELAY has passed with nothing after it.
Textual's input thread checks the parser's timeout only when its ``select`` returns, which
is on the next byte or after 100 ms: however short ESCDELAY, Escape waited 100 ms. After a
read that ends in ESC the parser waits for the terminal itself, for ESCDELAY at most.
"""

from __future__ import annotations

import select
import sys
from collections.abc import Callable
from typing import Any

ALT_ENTER = "\x1b[13;3u"
# ESC CR: tmux, xterm with metaSendsEscape, ssh. U+008D: xterm's eight-bit Meta in UTF-8.
# CSI 27;3;13~: xterm's modifyOtherKeys.
_SPELLINGS = ("\x1b\r", "\u008d", "\x1b[27;3;13~")


class AltEnterRewriter:
    """Rewrites Alt+Enter in a stream of reads, including ESC at the end of one read
    and CR at the start of the next."""

    def __init__(self) -> None:
        self._esc_pending = False

    def rewrite(self, data: str) -> str:
        if self._esc_pending and data.startswith("\r"):
            # The ESC already went to the parser, which still waits for the rest.
            data = ALT_ENTER[1:] + data[1:]
        for spelling in _SPELLINGS:
            if spelling in data:
                data = data.replace(spelling, ALT_ENTER)
        self._esc_pending = data.endswith("\x1b") and not data.endswith("\x1b\x1b")
        return data

    def timed_out(self) -> None:
        """The parser gave up waiting after a lone ESC: it was the Escape key."""
        self._esc_pending = False


def more_input_within(fd: int, seconds: float) -> bool:
    """Whether the terminal has another byte to read within ``seconds``."""
    readable, _, _ = select.select([fd], [], [], seconds)
    return bool(readable)


def _terminal_fd() -> int:
    # The file Textual's Linux driver reads keys from (LinuxDriver.fileno).
    assert sys.__stdin__ is not None
    return sys.__stdin__.fileno()


def alt_enter_parser(base: Any, input_fd: Callable[[], int] = _terminal_fd) -> Any:
    """A subclass of Textual's ``XTermParser`` (``base``) that reads Alt+Enter's spellings
    and answers a lone Escape after ESCDELAY, reading more from ``input_fd()``'s file."""
    from textual import constants

    class AltEnterParser(base):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self._alt_enter = AltEnterRewriter()
            self._input_fd = input_fd()

        def feed(self, data: str):
            events = list(super().feed(self._alt_enter.rewrite(data) if data else data))
            # ESC ends the read: wait here, where the input thread would only wait longer.
            # More bytes: the thread reads them next and the parser joins them to the ESC.
            # A millisecond over ESCDELAY: the parser's deadline (set in feed) has passed.
            if data.endswith("\x1b") and not more_input_within(self._input_fd, constants.ESCAPE_DELAY + 0.001):
                events.extend(self.tick())
            return events

        def tick(self):
            events = list(super().tick())
            if events:
                self._alt_enter.timed_out()
            return events

    return AltEnterParser


_installed = False


def install() -> None:
    """Make Textual's Linux driver parse input through :func:`alt_enter_parser` (idempotent).

    Textual builds its parser inside the driver's input thread, so the driver module's
    name for the parser class is the one place to hand it ours (Textual is pinned).
    """
    global _installed
    if _installed:
        return
    try:
        from textual.drivers import linux_driver
    except ImportError:  # not on a POSIX terminal: nothing to fix
        return
    # Textual types this module attribute as the class itself; replacing it is the point.
    linux_driver.XTermParser = alt_enter_parser(linux_driver.XTermParser)  # type: ignore[misc]
    _installed = True
