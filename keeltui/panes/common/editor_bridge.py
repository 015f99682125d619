"""Hand the terminal to the owner's editor or pager, and take it back.

The app is suspended (Textual's ``App.suspend``: the alternate screen is left, the
terminal restored to how it was before the app started, input no longer read), the
child runs in the foreground, and the app redraws when it ends. It works wherever
the app runs in a real terminal: in tmux, over SSH. What runs and what it returns is
decided in keeltui/adapters/editor.py; this module only lends it the terminal.
"""

from __future__ import annotations

import os
from typing import TypeVar
from collections.abc import Callable

from textual.app import App, SuspendNotSupported
from textual.widgets import TextArea

from keeltui.adapters.editor import edit_text, view_text
from keeltui.terminal.guard import interrupts_held

T = TypeVar("T")


def _suspended(app: App, run: Callable[[], T]) -> T:
    with app.suspend(), interrupts_held():
        return run()


def edit_draft(app: App, field: TextArea) -> str:
    """Open ``field``'s text in $VISUAL/$EDITOR; what is saved becomes its text (not sent).

    Returns one line saying what failed ("" on success); on a failure the text stays.
    """
    try:
        outcome = _suspended(app, lambda: edit_text(field.text, os.environ))
    except SuspendNotSupported:
        return "editor: this terminal cannot lend the screen to another program; draft kept"
    if outcome.text is None:
        return outcome.problem
    field.load_text(outcome.text)
    field.move_cursor(field.document.end)  # ready to go on typing, or to send with Enter
    field.focus()
    return ""


def page_text(app: App, text: str, name: str) -> str:
    """Show ``text`` read-only in $PAGER (or the editor); one line saying what failed, or ""."""
    try:
        return _suspended(app, lambda: view_text(text, os.environ, name))
    except SuspendNotSupported:
        return "pager: this terminal cannot lend the screen to another program"
