"""How the app ends, where Textual has no public hook: the one place keeltui overrides
``App._fatal_error`` (and reads ``_exception``, ``_exit_renderables``,
``_close_messages_no_wait``), replaces the Linux driver's ``_file`` and reads the app's
``_driver`` (the terminal's saved modes, when the orderly exit is stuck).
tests/unit/test_textual_seam.py checks their shape.

Why: Textual's own crash report is a traceback with local variables, which hold the
owner's text; keeltui prints one line instead. And Textual's writer thread dies on a
terminal that hung up, after which the exit waits for ever (keeltui/terminal/hungup.py).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import IO

from rich.console import RenderableType
from textual.app import App


class CrashLineApp(App):
    def crash_renderable(self, error: BaseException | None) -> RenderableType:
        """What is printed after the app ends on an unexpected ``error``."""
        raise NotImplementedError

    def _fatal_error(self) -> None:
        self.bell()
        self._exit_renderables.append(self.crash_renderable(sys.exc_info()[1] or self._exception))
        self._close_messages_no_wait()


def wrap_terminal_file(driver: object, wrap: Callable[[IO[str]], IO[str]]) -> None:
    """Replace the file the driver writes the terminal through (the Linux driver's
    ``_file``) by ``wrap(file)``; a driver without one (the headless test driver) is unchanged."""
    file = getattr(driver, "_file", None)
    if file is not None:
        driver._file = wrap(file)  # type: ignore[attr-defined]


def app_driver(app: App) -> object | None:
    """The app's driver, if it has one yet (keeltui/terminal/guard.py restores the tty's
    modes it saved when the orderly exit does not finish)."""
    return getattr(app, "_driver", None)
