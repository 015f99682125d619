"""Settings Textual reads from the environment once, when it is imported.

keeltui sets them while it imports Textual, unless the owner set them, and then takes
them out again: the editor, pager and shell commands keeltui starts see the environment
the owner gave it (nano and other curses programs read ESCDELAY too).

- **The configured theme from the start** (``TEXTUAL_THEME``, Textual's default theme).
  ``[ui] theme`` set once the app had mounted made Textual parse every widget's CSS again
  for the new colours and restyle the whole screen, before the first frame: ~28 ms of it
  for everyone whose theme is not Textual's default. With the configured theme as the
  default, the stylesheet is built for it and nothing changes at mount. This one is set
  even over the owner's own: ``[ui] theme`` is what the app shows either way.

- **Escape in 25 ms instead of 100** (``ESCDELAY``). A lone ESC byte is either the Escape
  key or the start of a longer sequence (an arrow, Alt+key); Textual waits ESCDELAY
  milliseconds for more bytes before it calls it Escape. That wait was most of the time
  Escape took to stop a streaming reply. A terminal or tmux sends a whole sequence in one
  write, so its bytes come in one read or within a few milliseconds of each other: 25 ms
  still tells them apart (keeltui/terminal/keyinput.py also joins an ESC and the CR of
  Alt+Enter split over two reads).
- **A key's frame at once, not on a 60 fps beat** (``TEXTUAL_FPS``). Textual draws a screen
  on a timer of 1/TEXTUAL_FPS seconds, and after each frame that timer waits for a beat
  one to two periods ahead: a key that came 20-30 ms after a frame (the next press of a
  held PageUp, or any key after the room drew the rows it read ahead) waited up to 33 ms
  for its frame. At 120 the wait is at most 17 ms, most keys find the timer ready, and
  a held PageUp's p99 went from 46 ms to 14-18 ms (the paging bench, the two rates run
  one after the other). The room
  asks for few frames (a stream redraws ten times a second), so the cap it leaves still
  bounds what a burst of refreshes can cost.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager

ESCDELAY_MS = 25
FRAMES_A_SECOND = 120

SETTINGS = {"ESCDELAY": str(ESCDELAY_MS), "TEXTUAL_FPS": str(FRAMES_A_SECOND)}
"""What keeltui sets, by variable, where the owner set nothing."""
THEME = "TEXTUAL_THEME"


@contextmanager
def textual_settings(environ: MutableMapping[str, str], theme: str | None = None) -> Iterator[None]:
    """:data:`SETTINGS` in ``environ`` while Textual is imported, each unless the owner set
    it, and ``theme`` as Textual's default theme; afterwards the environment is as it was."""
    added = [name for name in SETTINGS if name not in environ]
    for name in added:
        environ[name] = SETTINGS[name]
    owners_theme = environ.get(THEME)
    if theme is not None:
        environ[THEME] = theme
    try:
        yield
    finally:
        for name in added:
            environ.pop(name, None)
        if owners_theme is None:
            environ.pop(THEME, None)
        else:
            environ[THEME] = owners_theme
