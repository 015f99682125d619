"""Helpers for pilot tests: wait for a condition while the app runs."""

from __future__ import annotations

import os
import sys
import time

import keeltui


async def wait_for(pilot, predicate, timeout: float = 30.0, what: str = "condition") -> None:
    """Let the app run until ``predicate()`` is true (the timeout only bounds a hang)."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


def screen_text(app) -> str:
    """Everything the screen shows now, as plain text lines."""
    update = app.screen._compositor.render_full_update()
    app.screen.refresh()  # the full render above consumed the pending dirty regions
    return "\n".join("".join(strip.text for strip in line) for line in update.strips)


async def repeat_until(pilot, step, predicate, timeout: float = 30.0, what: str = "condition") -> None:
    """Do ``step()`` (e.g. a scroll) and let the app run, until ``predicate()``: for an
    interaction that takes an unknown number of rounds on a loaded machine."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await step()



_CHARACTERS = {"tab": "\t", "enter": "\r", "space": " ", "escape": "\x1b"}


def burst(app, *keys: str) -> None:
    """Keys as one read from the terminal brings them (a paste of keys over SSH, tmux
    send-keys): all in the app's queue at once, as the driver posts them, with no frame
    between them (``pilot.press`` lets the app settle after each key). Letters and
    digits by themselves, the rest by name ("tab", "ctrl+t")."""
    from textual import events

    for key in keys:
        character = key if len(key) == 1 else _CHARACTERS.get(key)
        app.post_message(events.Key(key, character))


class FocusHistory(list[str]):
    """What :func:`focus_history` saw, one line each; ``given``: the widgets the screen was
    asked to focus, in order (None for "no focus")."""

    def __init__(self) -> None:
        super().__init__()
        self.given: list = []


_PACKAGE = os.path.dirname(os.path.abspath(keeltui.__file__))


def focus_history(app) -> FocusHistory:
    """From now on, every focus the screen is given, with when and who asked (the keeltui
    frames of the caller), and every hand-on of held keys: for a failure message when a
    race on a loaded machine put the keys somewhere unexpected."""
    history = FocusHistory()
    start = time.monotonic()
    screen = app.screen

    def callers() -> str:
        frame, names = sys._getframe(2), []
        while frame is not None and len(names) < 4:
            if frame.f_code.co_filename.startswith(_PACKAGE):
                names.append(f"{frame.f_code.co_name}:{frame.f_lineno}")
            frame = frame.f_back
        return "<".join(names) or "textual"

    def note(what: str) -> None:
        history.append(f"{time.monotonic() - start:.3f} {what} [{callers()}]")

    set_focus, release_keys = screen.set_focus, app.release_keys

    def recording_set_focus(widget, *args, **kwargs):
        history.given.append(widget)
        note(f"focus {widget!r}")
        return set_focus(widget, *args, **kwargs)

    async def recording_release_keys():
        note("keys handed on")
        await release_keys()

    screen.set_focus = recording_set_focus
    app.release_keys = recording_release_keys
    return history
