"""Helpers for pilot tests: wait for a condition while the app runs."""

from __future__ import annotations

import time


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
