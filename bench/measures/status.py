"""`keeltui status` latency next to `python -c pass` (the venv's Python for both),
and a check that it imports neither Textual nor openai."""

from __future__ import annotations

import subprocess
import time

from bench.context import Context, err
from bench.env import KEELTUI, PYTHON

SAMPLES_PER_RUN = 4


def _time(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(argv, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[0]} exited {proc.returncode}: {proc.stderr.strip()[:200]}")
    return elapsed


def run(ctx: Context) -> None:
    config = ctx.workspace.keeltui_config(ctx.brain.url, name="status")
    status = [KEELTUI, "--config", str(config), "status"]
    floor = [PYTHON, "-c", "pass"]
    for argv in (status, floor):  # warm the page cache and .pyc files
        subprocess.run(argv, env=ctx.env, capture_output=True)
    for _ in range(ctx.runs * SAMPLES_PER_RUN):
        for key, argv in (("status.keeltui", status), ("status.python", floor)):
            try:
                ctx.results.add(key, _time(argv, ctx.env))
            except Exception as exc:  # noqa: BLE001
                ctx.results.fail(key, err(exc))
    proc = subprocess.run([PYTHON, "-X", "importtime", KEELTUI, "--config", str(config), "status"],
                          env=ctx.env, capture_output=True, text=True)
    heavy = sorted({
        line.split("|")[-1].strip().split(".")[0]
        for line in proc.stderr.splitlines()
        if line.split("|")[-1].strip().split(".")[0] in ("textual", "openai", "rich", "httpx", "httpx2")
    })
    ctx.results.facts["status.heavy_imports"] = heavy
    k, p = ctx.results.median("status.keeltui"), ctx.results.median("status.python")
    if k and p:
        ctx.say(f"status: keeltui status {k * 1000:.0f} ms, python -c pass {p * 1000:.0f} ms, heavy imports: {heavy or 'none'}")
