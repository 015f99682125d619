"""The peers users know (elia, oterm), each installed ONCE into its own venv under
bench/.work/peers/ and reused by later runs. A failed install is remembered too
(delete bench/.work/peers/NAME.failed to try again).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.env import WORK

PEERS_DIR = WORK / "peers"
INSTALL_TIMEOUT = 900


@dataclass(frozen=True)
class Peer:
    key: str
    package: str
    executable: str
    ready: tuple[str, ...]
    """Text on the first usable screen."""
    note: str = ""


PEERS = [
    Peer("elia", "elia-chat", "elia", ("Enter your message",), "its home screen (message box)"),
    Peer("oterm", "oterm", "oterm", ("Welcome to oterm!",),
         "its welcome screen, splash animation turned off (config.json `splash-screen: false`); "
         "OLLAMA_HOST points at the loopback server"),
]


def prepare(peer: Peer, env: dict[str, str], brain_url: str) -> dict[str, str]:
    """The environment (and files) a peer starts with: never a network call off this machine."""
    env = dict(env)
    host = brain_url.split("://", 1)[1].rsplit("/v1", 1)[0]
    if peer.key == "oterm":
        env["OLLAMA_HOST"] = host  # oterm prefixes http:// itself
        data = Path(env["XDG_DATA_HOME"]) / "oterm"
        data.mkdir(parents=True, exist_ok=True)
        (data / "config.json").write_text('{"theme": "textual-dark", "splash-screen": false}')
    if peer.key == "elia":
        env["OPENAI_BASE_URL"] = brain_url
    return env


def ensure(peer: Peer, say) -> tuple[Path | None, str]:
    """Returns (executable, version) or (None, why it is not there)."""
    venv = PEERS_DIR / peer.package
    exe = venv / "bin" / peer.executable
    stamp = venv / ".bench-installed"
    failed = PEERS_DIR / f"{peer.package}.failed"
    if failed.exists():
        return None, f"install failed earlier: {failed.read_text().strip()[:300]}"
    if not (exe.exists() and stamp.exists()):
        say(f"peers: installing {peer.package} into {venv.relative_to(WORK.parent.parent)} (once)")
        PEERS_DIR.mkdir(parents=True, exist_ok=True)
        try:
            if not (venv / "bin" / "python").exists():
                subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, text=True)
            proc = subprocess.run(
                [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", peer.package],
                capture_output=True, text=True, timeout=INSTALL_TIMEOUT,
            )
            if proc.returncode != 0 or not exe.exists():
                lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("ERROR")] or proc.stderr.splitlines()[-3:]
                raise RuntimeError(f"pip install {peer.package} exited {proc.returncode}: {' '.join(lines)[:300]}")
        except Exception as exc:  # noqa: BLE001
            failed.write_text(str(exc))
            return None, f"cannot be installed: {exc}"
        stamp.write_text(version(venv, peer.package))
    return exe, stamp.read_text().strip() or version(venv, peer.package)


def version(venv: Path, package: str) -> str:
    proc = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "show", package],
                          capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        if line.startswith("Version:"):
            return line.split(":", 1)[1].strip()
    return "?"
