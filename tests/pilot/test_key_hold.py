"""Keys kept back while the place that should take them is not there yet (keeltui/terminal/
key_hooks.py: KeyHookApp.hold_keys / release_keys), then handed on in the order they came."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Input

from keeltui.terminal.key_hooks import KeyHookApp
from tests.support.pilot import wait_for


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
