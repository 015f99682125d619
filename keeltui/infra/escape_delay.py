"""Escape in 25 ms instead of 100.

A lone ESC byte is either the Escape key or the start of a longer sequence (an arrow,
Alt+key); Textual waits ESCDELAY milliseconds (100 by default, read once, when
``textual.constants`` is imported) for more bytes before it calls it Escape. That wait was
most of the time Escape took to stop a streaming reply. A terminal or tmux sends a whole
sequence in one write, so its bytes come in one read or within a few milliseconds of each
other: 25 ms still tells them apart (keeltui/terminal/keyinput.py also joins an ESC and the
CR of Alt+Enter split over two reads). An ESCDELAY the owner set is kept.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager

ESCDELAY_MS = 25


@contextmanager
def short_escape_delay(environ: MutableMapping[str, str]) -> Iterator[None]:
    """ESCDELAY is 25 ms while Textual is imported, unless the owner set it.

    Afterwards it is taken out again: the editor, pager and shell commands keeltui starts see
    the environment the owner gave it (nano and other curses programs read ESCDELAY too).
    """
    if "ESCDELAY" in environ:
        yield
        return
    environ["ESCDELAY"] = str(ESCDELAY_MS)
    try:
        yield
    finally:
        environ.pop("ESCDELAY", None)
