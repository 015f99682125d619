"""Alt+Enter that survives tmux, xterm and SSH: a new line, never a send.

tmux 3.x (default settings) and most terminals send Alt+Enter as ESC CR. Textual's
parser turns that into a plain ``enter`` (it applies Alt only to printable keys), and
two of them in one read become ``^`` followed by ``enter``: the composer would send a
half-typed message. Before the parser sees the bytes, the spellings of Alt+Enter are
rewritten to the unambiguous CSI-u form (``ESC [13;3u``), which Textual reads as
``alt+enter``. Pure string work; :func:`install` hands the parser to Textual's driver.

Escape then a character, read together (a burst over SSH, a fast hand, tmux pasting keys), is
the same bytes as Alt+<character>: ESC x. Textual reads them as ``alt+x`` (typed as ``x``,
the Escape gone), or as ``¡`` for ESC 1, or drops the Escape of ESC space: Escape pressed to
stop a reply and the first letters of the next message came in one read, and the reply went
on. Nothing in keeltui binds Alt+<character> unless the owner's ``[keys]`` does, so ESC
followed by a character that starts no sequence is rewritten to the kitty spelling of the
Escape key (``ESC [27u``) and the character: Escape, then what was typed.

The same parser answers a lone Escape as soon as ESCDELAY has passed with nothing after it.
Textual's input thread checks the parser's timeout only when its ``select`` returns, which
is on the next byte or after 100 ms: however short ESCDELAY, Escape waited 100 ms. After a
read that ends in ESC the parser waits for the terminal itself, for ESCDELAY at most.
"""

from __future__ import annotations

import re
import select
import sys
from collections.abc import Callable, Collection
from typing import Any

from keeltui.keys.keyspec import character_key, typed_character  # pure: Textual's key names without Textual

ALT_ENTER = "\x1b[13;3u"
# ESC CR: tmux, xterm with metaSendsEscape, ssh. U+008D: xterm's eight-bit Meta in UTF-8.
# CSI 27;3;13~: xterm's modifyOtherKeys.
_SPELLINGS = ("\x1b\r", "\u008d", "\x1b[27;3;13~")
ESCAPE_KEY = "\x1b[27u"  # the Escape key in the kitty keyboard protocol: no other reading
# What may follow ESC in a sequence the terminal sends (CSI, SS3, DCS, OSC, APC, PM, SOS, ST):
# ESC before one of these is left to Textual.
_INTRODUCERS = "[OP]_^X\\"
_ESC_THEN = re.compile("\x1b(?=(.))", re.DOTALL)
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"  # bracketed paste: pasted bytes are left as they are


def alt_names(character: str) -> tuple[str, ...]:
    """The names Textual may give Alt+``character`` (``alt+x``; ``alt+shift+x`` for ``X``)."""
    names = [f"alt+{character_key(character)}", f"alt+{character}"]
    if character.isupper():
        names.append(f"alt+shift+{character.lower()}")
    return tuple(names)


class InputRewriter:
    """Rewrites Alt+Enter, and Escape followed by a character, in a stream of reads,
    including ESC at the end of one read and the rest at the start of the next.

    ``bound_alt_keys()`` names the Alt keys something binds (the owner's ``[keys]``): ESC
    and a character whose Alt key is bound stays Alt+<character>.
    """

    def __init__(self, bound_alt_keys: Callable[[], Collection[str]] = frozenset) -> None:
        self._esc_pending = False
        self._in_paste = False
        self._bound_alt_keys = bound_alt_keys

    def _escape_then(self, character: str) -> bool:
        """Whether ESC before ``character`` is the Escape key (see the module's docstring)."""
        if not typed_character(character) or character in _INTRODUCERS:
            return False
        bound = self._bound_alt_keys()
        return not any(name in bound for name in alt_names(character))

    def rewrite(self, data: str) -> str:
        if self._esc_pending and data.startswith("\r"):
            # The ESC already went to the parser, which still waits for the rest.
            data = ALT_ENTER[1:] + data[1:]
        elif self._esc_pending and data and self._escape_then(data[0]):
            data = ESCAPE_KEY[1:] + data  # the parser holds the ESC: "[27u" makes it the Escape key
        for spelling in _SPELLINGS:
            if spelling in data:
                data = data.replace(spelling, ALT_ENTER)
        if "\x1b" in data:
            data = self._escapes(data)
        self._esc_pending = data.endswith("\x1b") and not data.endswith("\x1b\x1b")
        return data

    def _escapes(self, data: str) -> str:
        """ESC before a character made the Escape key, outside a bracketed paste."""
        def typed(text: str) -> str:
            return _ESC_THEN.sub(lambda m: ESCAPE_KEY if self._escape_then(m.group(1)) else m.group(0), text)

        out: list[str] = []
        while data:
            marker = PASTE_END if self._in_paste else PASTE_START
            at = data.find(marker)
            if at < 0:
                out.append(data if self._in_paste else typed(data))
                break
            out.append(data[:at] if self._in_paste else typed(data[:at]))
            out.append(marker)
            data = data[at + len(marker):]
            self._in_paste = not self._in_paste
        return "".join(out)

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


_bound_alt_keys: frozenset[str] = frozenset()


def keep_alt_keys(keys: Collection[str]) -> None:
    """The Alt keys the app binds (the owner's ``[keys]``): ESC and their character stays
    Alt+<character>. Read by the parser on Textual's input thread (one name swapped at once)."""
    global _bound_alt_keys
    _bound_alt_keys = frozenset(key for key in keys if key.startswith("alt+"))


def input_parser(base: Any, input_fd: Callable[[], int] = _terminal_fd) -> Any:
    """A subclass of Textual's ``XTermParser`` (``base``) that reads Alt+Enter's spellings
    and Escape followed by a character, and answers a lone Escape after ESCDELAY, reading
    more from ``input_fd()``'s file."""
    from textual import constants

    class KeelInputParser(base):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self._rewriter = InputRewriter(lambda: _bound_alt_keys)
            self._input_fd = input_fd()

        def feed(self, data: str):
            events = list(super().feed(self._rewriter.rewrite(data) if data else data))
            # ESC ends the read: wait here, where the input thread would only wait longer.
            # More bytes: the thread reads them next and the parser joins them to the ESC.
            # A millisecond over ESCDELAY: the parser's deadline (set in feed) has passed.
            if data.endswith("\x1b") and not more_input_within(self._input_fd, constants.ESCAPE_DELAY + 0.001):
                events.extend(self.tick())
            return events

        def tick(self):
            events = list(super().tick())
            if events:
                self._rewriter.timed_out()
            return events

    return KeelInputParser


_installed = False


def install(bound_keys: Collection[str] = ()) -> None:
    """Make Textual's Linux driver parse input through :func:`input_parser` (idempotent);
    ``bound_keys``: every key the app binds (its Alt keys stay Alt keys).

    Textual builds its parser inside the driver's input thread, so the driver module's
    name for the parser class is the one place to hand it ours (Textual is pinned).
    """
    global _installed
    keep_alt_keys(bound_keys)
    if _installed:
        return
    try:
        from textual.drivers import linux_driver
    except ImportError:  # not on a POSIX terminal: nothing to fix
        return
    # Textual types this module attribute as the class itself; replacing it is the point.
    linux_driver.XTermParser = input_parser(linux_driver.XTermParser)  # type: ignore[misc]
    _installed = True
