"""`keeltui status` latency next to `python -c pass` (the venv's Python for both),
and a check that it imports neither Textual nor openai.

Measured as tmux's `status-right` runs it: keeltui is open in a pane with the same
config and has written the status file. Also measured, for information: a config that
no running app has opened yet: the first call validates it the full way and stamps it,
the calls after it (the samples) take the fast path until the file changes.
"""

from __future__ import annotations

import subprocess
import time

from bench.context import Context, err
from bench.env import KEELTUI, PYTHON
from bench.measures.profile import top_imports

SAMPLES_PER_RUN = 4


def _time(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(argv, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[0]} exited {proc.returncode}: {proc.stderr.strip()[:200]}")
    return elapsed


def _sample(ctx: Context, cases: list[tuple[str, list[str]]]) -> None:
    for argv in (a for _, a in cases):  # warm the page cache and .pyc files
        subprocess.run(argv, env=ctx.env, capture_output=True)
    for _ in range(ctx.runs * SAMPLES_PER_RUN):
        for key, argv in cases:
            try:
                ctx.results.add(key, _time(argv, ctx.env))
            except Exception as exc:  # noqa: BLE001
                ctx.results.fail(key, err(exc))


def run(ctx: Context) -> None:
    floor = [PYTHON, "-c", "pass"]
    subject = ctx.keeltui("status", "keeltui, open for `keeltui status`")
    config = subject.argv[-1]
    status = [KEELTUI, "--config", config, "status"]
    cold_config = ctx.workspace.keeltui_config(ctx.brain.url, name="status-cold")
    cold = [KEELTUI, "--config", str(cold_config), "status"]
    try:
        with ctx.pane() as pane:
            pane.launch(subject.argv)
            pane.wait_for(*subject.ready, timeout=subject.timeout)
            time.sleep(1.0)  # the app writes the status file as it starts
            # Interleaved with the floor it is compared with: sampled apart, a busy
            # machine's load changed between the two and so did the ratio.
            _sample(ctx, [("status.keeltui", status), ("status.cold", cold), ("status.python", floor)])
    except Exception as exc:  # noqa: BLE001
        ctx.results.fail("status.keeltui", err(exc))
    if not ctx.results.median("status.cold"):
        _sample(ctx, [("status.cold", cold)])
    proc = subprocess.run([PYTHON, "-X", "importtime", *status], env=ctx.env, capture_output=True, text=True)
    heavy = sorted({
        line.split("|")[-1].strip().split(".")[0]
        for line in proc.stderr.splitlines()
        if line.split("|")[-1].strip().split(".")[0] in ("textual", "openai", "rich", "httpx", "httpx2")
    })
    ctx.results.facts["status.heavy_imports"] = heavy
    ctx.results.facts["profile.status_warm"] = top_imports(proc.stderr)
    k, p, c = ctx.results.median("status.keeltui"), ctx.results.median("status.python"), ctx.results.median("status.cold")
    if k and p:
        ctx.say(f"status: keeltui status {k * 1000:.0f} ms (config not yet opened by an app: "
                f"{(c or 0) * 1000:.0f} ms), python -c pass {p * 1000:.0f} ms, heavy imports: {heavy or 'none'}")
