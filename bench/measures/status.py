"""`keeltui status` latency next to `python -c pass` (the venv's Python for both),
and a check that it imports neither Textual nor openai.

Measured as tmux's `status-right` runs it, in four cases sampled together, interleaved
with the floor: with a config file and without one (a newcomer's default: no file, the
platform folders), each with keeltui open in a pane and with no app running (the config
case: the app ran with it and quit; the newcomer case: the app never ran, no state
folder). Also, for information: a config no app has opened yet, whose first call
validates it the full way and stamps it (the calls after it take the fast path).
"""

from __future__ import annotations

import contextlib
import subprocess
import time

from bench.context import Context, Subject, err
from bench.env import KEELTUI, PYTHON, Workspace
from bench.measures.profile import top_imports

SAMPLES_PER_RUN = 4
# key -> what the report calls it
CASES = {
    "status.keeltui": "a config file, the app running",
    "status.config_stopped": "a config file, no app running (it ran and quit)",
    "status.noconfig_app": "no config file, the app running",
    "status.noconfig": "no config file, no app running (a newcomer: it never ran)",
}


def _time(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(argv, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[0]} exited {proc.returncode}: {proc.stderr.strip()[:200]}")
    return elapsed


def _sample(ctx: Context, cases: list[tuple[str, list[str], dict[str, str]]]) -> None:
    for _, argv, env in cases:  # warm the page cache and .pyc files
        subprocess.run(argv, env=env, capture_output=True)
    for _ in range(ctx.runs * SAMPLES_PER_RUN):
        for key, argv, env in cases:
            try:
                ctx.results.add(key, _time(argv, env))
            except Exception as exc:  # noqa: BLE001
                ctx.results.fail(key, err(exc))


def _home(ctx: Context, name: str) -> dict[str, str]:
    """A home of its own with no config file (the XDG folders exist; no keeltui folder in them)."""
    return Workspace.base_env(ctx.workspace.fresh_dir(name) / "home")


def _ran_and_quit(ctx: Context, subject: Subject) -> None:
    """Start the app, let it write its status file, and end it (the file stays, naming a dead pid)."""
    with ctx.pane(subject) as pane:
        pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=subject.timeout)
        time.sleep(1.0)


def run(ctx: Context) -> None:
    floor = [PYTHON, "-c", "pass"]
    running = ctx.keeltui("status", "keeltui, open for `keeltui status`")
    stopped = ctx.keeltui("status.stopped", "keeltui, ran once and quit")
    newcomer_app = _home(ctx, "status-noconfig-app")
    newcomer = _home(ctx, "status-noconfig")
    cold_config = ctx.workspace.keeltui_config(ctx.brain.url, name="status-cold")
    cold = [KEELTUI, "--config", str(cold_config), "status"]
    cases = [
        ("status.keeltui", [KEELTUI, "--config", running.argv[-1], "status"], ctx.env),
        ("status.config_stopped", [KEELTUI, "--config", stopped.argv[-1], "status"], ctx.env),
        ("status.noconfig_app", [KEELTUI, "status", "--tmux"], newcomer_app),
        ("status.noconfig", [KEELTUI, "status", "--tmux"], newcomer),
        ("status.cold", cold, ctx.env),
        ("status.python", floor, ctx.env),
    ]
    try:
        _ran_and_quit(ctx, stopped)
        with contextlib.ExitStack() as open_apps:
            for subject in (running, Subject("status.noconfig_app", "keeltui, no config file", [KEELTUI],
                                             running.ready, newcomer_app)):
                pane = open_apps.enter_context(ctx.pane(subject))
                pane.launch(subject.argv)
                pane.wait_for(*subject.ready, timeout=subject.timeout)
            time.sleep(1.0)  # the apps write the status file as they start
            # Interleaved with the floor it is compared with: sampled apart, a busy
            # machine's load changed between the two and so did the ratio.
            _sample(ctx, cases)
    except Exception as exc:  # noqa: BLE001
        ctx.results.fail("status.keeltui", err(exc))
    proc = subprocess.run([PYTHON, "-X", "importtime", *cases[0][1]], env=ctx.env, capture_output=True, text=True)
    heavy = sorted({
        line.split("|")[-1].strip().split(".")[0]
        for line in proc.stderr.splitlines()
        if line.split("|")[-1].strip().split(".")[0] in ("textual", "openai", "rich", "httpx", "httpx2")
    })
    ctx.results.facts["status.heavy_imports"] = heavy
    ctx.results.facts["profile.status_warm"] = top_imports(proc.stderr)
    p = ctx.results.median("status.python")
    if p:
        ctx.say("status: " + ", ".join(
            f"{label} {(ctx.results.median(key) or 0) * 1000:.0f} ms ({(ctx.results.median(key) or 0) / p:.2f}×)"
            for key, label in CASES.items()) + f"; python -c pass {p * 1000:.0f} ms; heavy imports: {heavy or 'none'}")
