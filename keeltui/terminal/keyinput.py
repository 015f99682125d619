"""Alt+Enter that survives tmux, xterm and SSH: a new line, never a send.

tmux 3.x (default settings) and most terminals send Alt+Enter as ESC CR. Textual's
parser turns that into a plain ``enter`` (it applies Alt only to printable keys), and
two of them in one read become ``^`` followed by ``enter``: the composer would send a
half-typed message. Before the parser sees the bytes, the spellings of Alt+Enter are
rewritten to the unambiguous CSI-u form (``ESC [13;3u``), which Textual reads as
``alt+enter``. Pure string work; :func:`install` hands the parser to Textual's driver.
"""

from __future__ import annotations

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


_installed = False


def install() -> None:
    """Make Textual's Linux driver parse input through the rewriter (idempotent).

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
    base = linux_driver.XTermParser

    class AltEnterParser(base):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self._alt_enter = AltEnterRewriter()

        def feed(self, data: str):
            return super().feed(self._alt_enter.rewrite(data) if data else data)

        def tick(self):
            events = list(super().tick())
            if events:
                self._alt_enter.timed_out()
            return events

    # Textual types this module attribute as the class itself; replacing it is the point.
    linux_driver.XTermParser = AltEnterParser  # type: ignore[misc]
    _installed = True
