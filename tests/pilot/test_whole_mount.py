"""Widgets mounted together appear together (keeltui/panes/common/whole_mount.py): a plain
line is not drawn before a card mounted with it is ready, the screen never stays held by a
mount that does not end, and an app leaving mid-hold leaves."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from keeltui.panes.common import whole_mount
from tests.support.pilot import screen_text, wait_for


async def until(predicate, timeout: float = 10.0, what: str = "condition") -> None:
    """Poll on the loop's own sleep: the pilot's pause waits for every widget to settle, and
    the slow card does not settle until its gate opens."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


class SlowCard(Static):
    """A card that is ready only when its gate opens (a composed card's parts mounting)."""

    def __init__(self, gate: asyncio.Event) -> None:
        super().__init__("the card, whole")
        self.gate = gate

    async def on_mount(self) -> None:
        await self.gate.wait()


class Log(App):
    """A log where a card and the reply under it land together."""

    def __init__(self, gate: asyncio.Event) -> None:
        super().__init__()
        self.gate = gate

    def compose(self) -> ComposeResult:
        yield VerticalScroll(Static("before"), id="log")

    def land(self, gate: asyncio.Event, whole: bool = True) -> None:
        mounting = self.query_one("#log").mount_all([SlowCard(gate), Static("the reply below it")])
        if whole:
            whole_mount.appear_whole(self, mounting)


@asynccontextmanager
async def running(app: Log):
    """The app under a pilot; the card's gate opens before it leaves, whatever happened (a
    card still waiting would keep the app from closing)."""
    async with app.run_test(size=(60, 12)) as pilot:
        try:
            yield pilot
        finally:
            app.gate.set()


async def test_the_reply_is_not_drawn_before_the_card_that_landed_with_it():
    gate = asyncio.Event()
    app = Log(gate)
    async with running(app) as pilot:
        await wait_for(pilot, lambda: "before" in screen_text(app), what="the log")
        app.land(gate)
        for _ in range(5):
            await asyncio.sleep(0.02)  # (the pilot's own pause waits for the held screen)
            assert "the reply below it" not in screen_text(app)  # held: the card is not ready
        gate.set()
        await until(lambda: "the reply below it" in screen_text(app), what="both")
        assert "the card, whole" in screen_text(app)


async def test_without_it_the_reply_was_drawn_alone():
    # What the hold is for: the same landing, not held, shows the reply while the card mounts.
    gate = asyncio.Event()
    app = Log(gate)
    async with running(app) as pilot:
        await wait_for(pilot, lambda: "before" in screen_text(app), what="the log")
        app.land(gate, whole=False)
        await until(lambda: "the reply below it" in screen_text(app), what="the reply alone")
        gate.set()


async def test_a_mount_that_never_ends_does_not_hold_the_screen(monkeypatch):
    monkeypatch.setattr(whole_mount, "LONGEST_HOLD_SECS", 0.2)
    gate = asyncio.Event()
    app = Log(gate)
    async with running(app) as pilot:
        await wait_for(pilot, lambda: "before" in screen_text(app), what="the log")
        app.land(gate)
        await until(lambda: "the reply below it" in screen_text(app), timeout=5, what="frames let go")
        gate.set()


async def test_quitting_while_held_quits():
    gate = asyncio.Event()
    app = Log(gate)
    async with running(app) as pilot:
        await wait_for(pilot, lambda: "before" in screen_text(app), what="the log")
        app.land(gate)
        await asyncio.sleep(0.02)
        app.exit()  # while held
        gate.set()  # (the test's card itself waits for its gate to close)
    assert app.return_code in (0, None)


def test_the_widget_module_is_used_by_the_tutor_log():
    import inspect

    from keeltui import tutor_view

    assert "appear_whole(" in inspect.getsource(tutor_view.TutorPane.draw)
