"""What every measure is handed: the run's settings, workspace, brain and results."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.env import FLOOR_APP, KEELTUI, PYTHON, Workspace
from bench.floor_app import READY as FLOOR_READY
from bench.loop import Switchboard
from bench.stats import Results
from bench.tmux import Pane

COMPOSER = "Write to the Chief…"


@dataclass
class Subject:
    key: str
    label: str
    argv: list[str]
    ready: tuple[str, ...]
    env: dict[str, str]
    brain_wait: bool = False
    """keeltui loads its brain client after the first frame: also read RSS 3 s later."""
    timeout: float = 30.0


@dataclass
class Context:
    runs: int
    quick: bool
    workspace: Workspace
    brain: Switchboard
    results: Results
    room_db: Path | None = None
    peers: list[Subject] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)

    @property
    def env(self) -> dict[str, str]:
        return self.workspace.env

    def say(self, text: str) -> None:
        print(f"[bench {time.monotonic() - self.started:6.1f}s] {text}", flush=True)

    def pane(self) -> Pane:
        return Pane(self.env)

    def floor(self) -> Subject:
        return Subject("floor", "bare Textual app (floor)", [PYTHON, FLOOR_APP], (FLOOR_READY,), self.env)

    def keeltui(self, key: str = "keeltui.empty", label: str = "keeltui, empty store",
                database: Path | None = None, ambient: bool = False, ready_extra: tuple[str, ...] = ()) -> Subject:
        config = self.workspace.keeltui_config(self.brain.url, database, ambient=ambient, name=key)
        return Subject(key, label, [KEELTUI, "--config", str(config)], (COMPOSER, *ready_extra),
                       self.env, brain_wait=True)


def err(exc: BaseException) -> str:
    text = str(exc).strip().replace("\n", " ")
    return f"{type(exc).__name__}: {text}"[:400]


def python_version() -> str:
    return sys.version.split()[0]
