"""What every measure is handed: the run's settings, workspace, brain and results."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable

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
    who: str = "keeltui"
    """Which program this is: "keeltui", "floor" or a peer's key; peers' figures are keyed ``base@who``."""
    open_chat: Callable[[Pane], None] | None = None
    """Keys a person presses after the first frame to reach a chat input (None: it has focus already)."""
    send_key: str = "Enter"
    """The tmux key that sends a typed message."""


@dataclass
class Context:
    runs: int
    quick: bool
    workspace: Workspace
    brain: Switchboard
    results: Results
    room_db: Path | None = None
    room_db_1m: Path | None = None
    """A 1 000 000-row room (first frame, paging), seeded once per run like room_db."""
    peers: list[Subject] = field(default_factory=list)
    peer_kits: list = field(default_factory=list)
    """(Peer, executable, version) of each installed peer: fresh chat subjects come from these."""
    shim_host: str = ""
    peer_runs: int = 2
    """Runs for a peer where one run takes long (streaming, first message, long chat)."""
    """host:port of the Ollama shim (oterm)."""
    started: float = field(default_factory=time.monotonic)

    @property
    def env(self) -> dict[str, str]:
        return self.workspace.env

    def say(self, text: str) -> None:
        print(f"[bench {time.monotonic() - self.started:6.1f}s] {text}", flush=True)

    def pane(self, subject: Subject | None = None) -> Pane:
        """A private tmux server whose programs get ``subject``'s environment (its own XDG home)."""
        return Pane(subject.env if subject is not None else self.env)

    def floor(self) -> Subject:
        return Subject("floor", "bare Textual app (floor)", [PYTHON, FLOOR_APP], (FLOOR_READY,), self.env)

    def keeltui(self, key: str = "keeltui.empty", label: str = "keeltui, empty store",
                database: Path | None = None, ambient: bool = False, ready_extra: tuple[str, ...] = ()) -> Subject:
        config = self.workspace.keeltui_config(self.brain.url, database, ambient=ambient, name=key)
        return Subject(key, label, [KEELTUI, "--config", str(config)], (COMPOSER, *ready_extra),
                       self.env, brain_wait=True)

    def chatters(self, name: str, with_peers: bool = True) -> list[Subject]:
        """keeltui and every installed peer, each a fresh start (own store/config) ready to chat."""
        from bench import peers  # peers imports env only; kept local to avoid a cycle at import

        out = [self.keeltui(name, f"keeltui ({name})")]
        if with_peers:
            out += [peers.chat_subject(self, peer, exe, version, name) for peer, exe, version in self.peer_kits]
        return out


def tag(base: str, who: str) -> str:
    """keeltui's figures keep their historical keys; everyone else's carry ``@who``."""
    return base if who == "keeltui" else f"{base}@{who}"


def err(exc: BaseException) -> str:
    text = str(exc).strip().replace("\n", " ")
    return f"{type(exc).__name__}: {text}"[:400]


def python_version() -> str:
    return sys.version.split()[0]
