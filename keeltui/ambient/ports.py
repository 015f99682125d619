"""The shapes the ambient core needs from the world, as Protocols.

The adapters in :mod:`keeltui.adapters` implement them; the core (the sentinel,
focus mode) depends only on these, never on a subprocess, X11 or D-Bus.
"""

from __future__ import annotations

from typing import Protocol

APP_NAME = "keeltui"


class Notifier(Protocol):
    name: str

    def notify(self, title: str, body: str) -> None: ...


class TaskProvider(Protocol):
    name: str

    def today(self) -> list[str]: ...
