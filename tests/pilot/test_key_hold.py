"""Keys kept back while the place that should take them is not there yet (keeltui/terminal/
key_hooks.py: KeyHookApp.hold_keys / release_keys), then handed on in the order they came."""

from __future__ import annotations

import asyncio

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input

from keeltui.terminal import key_hooks
from keeltui.terminal.key_hooks import KeyHookApp
from tests.support.pilot import burst, wait_for


class Holder(KeyHookApp):
    BINDINGS = [Binding("ctrl+t", "hold_again", priority=True)]

    def compose(self) -> ComposeResult:
        yield Input(id="field")

    def on_mount(self) -> None:
        self.set_focus(self.query_one(Input))

    def action_hold_again(self) -> None:
        self.hold_keys()  # as Ctrl+T does when the tutor is still on its way


def _typed(app: App) -> str:
    return app.query_one(Input).value


async def test_held_keys_are_typed_in_order_when_released():
    app = Holder()
    async with app.run_test(size=(40, 5)) as pilot:
        app.hold_keys()
        await pilot.press(*"abc")
        assert app.holding_keys and _typed(app) == ""  # the app took them in (press waits): kept, not typed
        app.call_later(app.release_keys)
        await wait_for(pilot, lambda: _typed(app) == "abc" and not app.holding_keys, what="the keys typed")


async def test_a_released_key_that_holds_again_keeps_the_rest_back_ahead_of_newer_keys():
    app = Holder()
    async with app.run_test(size=(40, 5)) as pilot:
        app.hold_keys()
        await pilot.press("x", "ctrl+t", "y")
        app.call_later(app.release_keys)
        await wait_for(pilot, lambda: _typed(app) == "x", what="the key before the second hold")
        assert app.holding_keys
        await pilot.press("z")
        app.call_later(app.release_keys)
        await wait_for(pilot, lambda: _typed(app) == "xyz" and not app.holding_keys, what="the rest, in order")


class SlowBox(Vertical):
    """A place that takes a while over what a key set off (a loaded machine, a handler doing I/O)."""

    def __init__(self, seen: list[str]) -> None:
        super().__init__()
        self.seen = seen

    async def on_input_changed(self, event: Input.Changed) -> None:
        await asyncio.sleep(0.5)
        self.seen.append(f"box saw {event.value}")


class Field(Input):
    def __init__(self, seen: list[str]) -> None:
        super().__init__()
        self.seen = seen

    def on_key(self, event: events.Key) -> None:
        self.seen.append(f"key {event.key}")


class SlowParent(KeyHookApp):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def compose(self) -> ComposeResult:
        with SlowBox(self.seen):
            yield Field(self.seen)

    def on_mount(self) -> None:
        self.set_focus(self.query_one(Field))


async def test_a_key_behind_a_slow_handler_waits_for_it_however_long_it_takes(monkeypatch):
    # The journey is looked at every 50 ms here; what the key set off takes 500 ms. The
    # key behind must still wait: it used to be let go after the check's time, and overtook.
    monkeypatch.setattr(key_hooks, "KEY_JOURNEY_CHECK_SECS", 0.05)
    app = SlowParent()
    async with app.run_test(size=(40, 5)) as pilot:
        burst(app, "a", "b")
        await wait_for(pilot, lambda: len(app.seen) == 4, what="both keys typed and seen by the box")
        assert app.seen == ["key a", "box saw a", "key b", "box saw ab"]



async def test_a_focus_report_after_held_keys_is_taken_after_them():
    """The terminal reports it lost the focus after keys it sent (a reply is asked, then the
    owner looks away): the report waits behind them. It went straight through, and the held
    keys, handed on after it, told the app the owner was back (Textual takes a key as a
    sign of focus): the bell for the long reply that landed next never rang."""
    app = Holder()
    async with app.run_test(size=(40, 5)) as pilot:
        app.hold_keys()
        await pilot.press(*"ab")
        app.post_message(events.AppBlur())
        await pilot.pause()
        assert app.app_focus  # not before the keys typed ahead of it
        app.call_later(app.release_keys)
        await wait_for(pilot, lambda: _typed(app) == "ab" and not app.holding_keys and not app._waiting,
                       what="the keys typed")
        await pilot.pause()
        assert not app.app_focus
        app.post_message(events.AppFocus())
        await wait_for(pilot, lambda: app.app_focus, what="the focus back")
