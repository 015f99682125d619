"""Where the keyboard goes on the main screen: Tab among places, no key dropped, focus kept.

Tab and Shift+Tab cycle among the places a person sees in the Chief room: the drift
banner's buttons when it shows, the room's log, the search field when it is open, and
the composer. Never the tab strip (Ctrl+T switches panes), never each row in turn.

A printable key that no binding takes and no text field typed (a row or the log had the
focus, or nothing had it) lands in the composer, or the status line says why it cannot
(Quiet Mode hides the composer). Leaving Quiet Mode gives the composer the keys back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar
from collections.abc import Sequence

from keeltui.keys.keymap import action, key_label
from keeltui.keys.keyspec import typed_character

if TYPE_CHECKING:
    from textual import events
    from textual.widget import Widget

    from keeltui.app import KeelApp

T = TypeVar("T")


def step_place(places: Sequence[T], current: T | None, step: int) -> T | None:
    """The place ``step`` away from ``current`` (wrapping); from outside them, the first or last."""
    if not places:
        return None
    if current not in places:
        return places[0] if step > 0 else places[-1]
    return places[(places.index(current) + step) % len(places)]


def chief_places(app: KeelApp) -> list[Widget]:
    """The Chief room's places, top to bottom, as they show now."""
    from keeltui.panes.chief.search_bar import SearchBar

    room = app.room
    places: list[Widget] = []
    if app.banner.display and app.banner.has_class("-shown"):
        places += [button for button in app.banner.query("Button") if button.focusable]
    places.append(room.log_view)
    places += [bar.input for bar in room.query(SearchBar) if bar.has_class("-open")]
    places.append(room.composer.input)
    return places


def cycle(app: KeelApp, step: int) -> None:
    """Tab / Shift+Tab on the main screen."""
    if app.screen is not app.main_screen or app.main_screen.panes.active != "chief-tab":
        # A dialog, or the tutor (its own order; the tab strip takes no focus): Textual's.
        if step > 0:
            app.screen.focus_next()
        else:
            app.screen.focus_previous()
        return
    if app.quiet:
        return  # the room is hidden: nothing there to go to
    places = chief_places(app)
    focused = app.focused
    # A row stands for the log it is in.
    current = app.room.log_view if focused is not None and app.room.log_view in focused.ancestors else focused
    target = step_place(places, current, step)
    if target is not None:
        target.focus(scroll_visible=False)


def quiet_line(app: KeelApp) -> str:
    keys = (app.config.keys or {}).get("quiet") or action("quiet").keys
    return f"typing goes nowhere in Quiet Mode · {key_label(keys)} ends it"


def stray_key(app: KeelApp, event: events.Key) -> bool:
    """A printable key no binding took and no field typed: into the composer, or say why.

    True when it was placed (or refused with a reason)."""
    if not typed_character(event.character) or app.screen is not app.main_screen:
        return False  # a dialog's keys are the dialog's
    # No "who has the focus?": a text field stops the characters typed into it, so one
    # that reaches the app was typed elsewhere, perhaps queued on a row in the same read
    # as a first letter that has already moved the focus to the composer.
    if app.main_screen.panes.active == "chief-tab":
        if app.quiet:
            app.status_line.message = quiet_line(app)
            return True
        composer = app.room.composer
    elif app.tutor is not None and app.tutor.is_mounted:
        app.tutor.take_typed(event.character)
        return True
    else:
        return False
    composer.input.insert(event.character)
    composer.focus_input()
    return True


def after_quiet(app: KeelApp, quiet: bool) -> None:
    """Quiet Mode on: the hidden room gives up the keys. Off: the composer takes them."""
    if not quiet and app.status_line.message == quiet_line(app):
        app.status_line.message = ""  # no longer true
    if app.main_screen.panes.active != "chief-tab" or app.screen is not app.main_screen:
        return
    focused = app.focused
    if quiet:
        if focused is not None and app.room in focused.ancestors:
            app.set_focus(None)
    elif focused is None:
        app.call_after_refresh(app.action_compose)  # after the room is shown again
