"""The real KeelApp for whole-app snapshots, made deterministic.

Built through the composition root (``keeltui.wiring.wire``) over a real SQLite file that
a scene seeds with known rows, with one fixed clock for the store, the services and the
app (every time and date on screen comes from it, read in UTC), the brain at the
loopback server (checked online before a picture is taken), the sentinel off and the
evidence source none, and the theme set on the app. A scene says what is stored, which
keys are pressed, and what must be on screen before the picture.
"""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from textual.widgets import Input, TextArea

from keeltui.app import KeelApp
from keeltui.config import load_config
from keeltui.store import Store
from keeltui.wiring import Services, wire
from tests.support.pilot import screen_text, wait_for
from tests.support.room_files import room_config

# Tuesday 1 December 2026, 10:00 UTC: "today"; rows stored a day earlier are yesterday's.
NOW = 1796119200.0
HOUR = 3600.0
DAY = 24 * HOUR


class FixedClock:
    """The one clock of the store, the services and the app: it moves only when set."""

    def __init__(self, now: float = NOW) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass
class Scene:
    """What the store holds, what the person does, and what must show before the picture."""

    seed: Callable[[Services, FixedClock], None]
    ready: str
    """Text that is on screen once the scene is drawn (waited for, never slept for)."""
    keys: tuple[str, ...] = ()
    act: Callable[[KeelApp], Awaitable[None]] | None = None
    """Anything beyond keys (run after them, before ``ready`` is waited for)."""
    also: tuple[str, ...] = field(default=())
    """More text that must be on screen too (e.g. a count that lands after the first match)."""


@contextmanager
def utc() -> Iterator[None]:
    """Times on screen are read in UTC, whatever the machine's zone (put back after)."""
    was = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    try:
        yield
    finally:
        if was is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = was
        time.tzset()


def build_app(tmp_path: Path, base_url: str, scene: Scene, stores: list[Store]) -> KeelApp:
    """The real app over a seeded store; the store is added to ``stores`` to close."""
    config = load_config(room_config(tmp_path, base_url), env={})
    clock = FixedClock()
    store = Store(config.database_path(), clock=clock)
    stores.append(store)
    services = wire(config, store, clock=clock)
    scene.seed(services, clock)
    clock.now = NOW
    return KeelApp(config, store, clock=clock, services=services)


def steady_cursors(app: KeelApp) -> None:
    """A blinking cursor is drawn or not at the moment of the picture: keep it drawn."""
    for screen in app.screen_stack:
        for widget in screen.query("*"):
            if isinstance(widget, (TextArea, Input)):
                widget.cursor_blink = False


def run_scene(scene: Scene, theme: str) -> Callable:
    """The ``run_before`` of ``snap_compare``: the theme, the scene's keys, then a wait for
    the app to settle (the brain checked, the tutor and the sentinel mounted) and for the
    scene's text, with the cursors held still."""

    async def before(pilot) -> None:
        app: KeelApp = pilot.app
        app.theme = theme
        await wait_for(pilot, lambda: app.brain_online is True, what="the brain check")
        await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted, what="the ambient controller")
        await wait_for(pilot, lambda: app.tutor is not None and app.tutor.is_mounted, what="the tutor pane")
        for key in scene.keys:
            await pilot.press(key)
            await pilot.pause()
        if scene.act is not None:
            await scene.act(app)
        for text in (scene.ready, *scene.also):
            await wait_for(pilot, lambda text=text: text in screen_text(app), what=repr(text))
        steady_cursors(app)
        await pilot.pause()

    return before
