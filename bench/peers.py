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
         "OLLAMA_HOST points at the Ollama shim on loopback (bench/ollama_shim.py)"),
]


def prepare(peer: Peer, env: dict[str, str], brain_url: str, shim_host: str = "") -> dict[str, str]:
    """The environment (and files) a peer starts with: never a network call off this machine."""
    env = dict(env)
    host = brain_url.split("://", 1)[1].rsplit("/v1", 1)[0]
    if peer.key == "oterm":
        env["OLLAMA_HOST"] = shim_host or host  # oterm prefixes http:// itself
        data = Path(env["XDG_DATA_HOME"]) / "oterm"
        data.mkdir(parents=True, exist_ok=True)
        (data / "config.json").write_text('{"theme": "textual-dark", "splash-screen": false}')
    if peer.key == "elia":
        env["OPENAI_BASE_URL"] = brain_url
        env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"  # litellm fetches a price list from the web otherwise
        config = Path(env["XDG_CONFIG_HOME"]) / "elia"
        config.mkdir(parents=True, exist_ok=True)
        # A model on the loopback server, chosen by default: the home screen's prompt talks to it.
        (config / "config.toml").write_text(
            'default_model = "bench-loop"\n\n[[models]]\nid = "bench-loop"\nname = "openai/loop-model"\n'
            f'api_base = "{brain_url}"\napi_key = "bench-key"\n'
        )
    return env


CHAT_READY = {
    "elia": ("Enter your message",),  # the home screen's prompt, focused: a message there starts a chat
    "oterm": ("model: loop-model",),  # the seeded chat, loaded, its prompt focused
}
SEND_KEY = {"elia": "C-j"}  # elia's prompt is a TextArea: Enter is a new line, Ctrl+J sends
SEED = Path(__file__).with_name("peer_seed.py")


def chat_subject(ctx, peer: Peer, exe: Path, version: str, name: str, rows: int = 0, marker: str = "x",
                 ready: tuple[str, ...] = ()):
    """A fresh start of ``peer`` (its own home, config and store) on a chat prompt; ``rows``: a long chat."""
    from bench.context import Subject

    home = ctx.workspace.fresh_dir(f"{name}-{peer.key}") / "home"
    env = prepare(peer, ctx.workspace.base_env(home), ctx.brain.url, ctx.shim_host)
    if peer.key == "oterm" or rows:
        proc = subprocess.run([str(exe.parent / "python"), str(SEED), peer.key, str(rows), marker],
                              env=env, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(f"seeding {peer.key}'s store: {proc.stderr.strip()[-300:]}")
    return Subject(f"{name}.{peer.key}", f"{peer.key} {version}", [str(exe)], ready or CHAT_READY[peer.key], env,
                   timeout=60, who=peer.key, send_key=SEND_KEY.get(peer.key, "Enter"))


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
