"""Tell the owner a long reply landed while they looked elsewhere: the bell, or a tmux message.

Where the owner is comes from the terminal's focus reports (Textual's ``app_focus``,
from AppFocus/AppBlur) and, inside tmux, from tmux itself (its pane state, asked off
the UI thread). What to do is decided in keeltui/chief/landed.py.
"""

from __future__ import annotations

import os

from textual.app import App
from textual.message import Message

from keeltui.adapters.tmux_pane import display_message, pane_in_front
from keeltui.config import UIConfig
from keeltui.chief.landed import Presence, landed_line, landed_signal, worth_a_look


class TurnLanded(Message):
    """A turn the owner waited on finished (the tutor pane posts it; the app signals)."""

    def __init__(self, what: str, seconds: float) -> None:
        super().__init__()
        self.what = what
        self.seconds = seconds


def signal_landed(app: App, settings: UIConfig, quiet: bool, what: str, seconds: float) -> None:
    """Give the one signal ``settings`` ask for, if the owner is not looking."""
    if not worth_a_look(settings.landed_signal, quiet, seconds, settings.landed_after_secs):
        return
    terminal_focused = app.app_focus

    def look_and_signal() -> None:
        presence = Presence(terminal_focused, pane_in_front(os.environ))
        signal = landed_signal(settings.landed_signal, quiet, seconds, settings.landed_after_secs, presence)
        if signal == "tmux" and display_message(landed_line(what, seconds), os.environ):
            return
        if signal is not None and app.is_running:  # the bell, or a tmux message tmux would not show
            app.call_from_thread(app.bell)

    app.run_worker(look_and_signal, name="landed-signal", group="landed", thread=True, exit_on_error=False)
