"""A streamed reply rendered again whole, off the UI thread, when its colours may be wrong.

A long code block streams a piece at a time (room_stream.py): each piece of
``FENCE_PIECE`` lines is highlighted on its own, so a multi-line string or comment that
crosses a piece's edge is coloured as code after the edge, and its closing quotes as the
start of a string (everything below it). The pieces are what keeps a 5 000-line block
cheap while it streams; at its end the row is rendered whole once more, here, and its
lines replace the streamed ones where they differ. Whole, such a block is ~2 s of
rendering: on the UI thread, every key held behind it.
"""

from __future__ import annotations

import io
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Literal, cast

from rich.console import Console

from keeltui.chief.row_cache import Line

log = logging.getLogger(__name__)

ColourSystem = Literal["standard", "256", "truecolor", "windows"]
"""The names ``Console.color_system`` gives (and ``Console`` takes)."""


def private_console(console: Console) -> Console:
    """A console that renders as ``console`` does, for another thread: drawing a row pushes
    the reply's Markdown styles on the console's theme stack, which two threads must not
    share."""
    # The same colour system: Rich's Syntax draws its background only in 256 colours or more.
    system = cast("ColourSystem | None", console.color_system)
    return Console(file=io.StringIO(), width=console.width, height=console.height, color_system=system,
                   force_terminal=True, legacy_windows=False, markup=False, highlight=False, emoji=False,
                   safe_box=console.safe_box)


def render_whole(render: Callable[[Console], list[Line]], console: Console, streamed: Sequence[Line],
                 differs: Callable[[list[Line]], object]) -> threading.Thread:
    """``render(console)`` on a thread of its own, with a private copy of ``console``; when its
    lines are not ``streamed``, ``differs(lines)`` is called on that thread (it posts a
    message). A daemon thread: quitting never waits for a render under way."""
    private = private_console(console)

    def work() -> None:
        try:
            lines = render(private)
            if lines != list(streamed):
                differs(lines)
        except Exception:  # the streamed lines stay; no traceback on the terminal
            log.exception("rendering a streamed reply again whole failed")

    thread = threading.Thread(target=work, name="keeltui-whole-render", daemon=True)
    thread.start()
    return thread


__all__ = ["private_console", "render_whole"]
