"""Causes, measured in the same run: where keeltui's start-up time, memory and `status`
time go. Recorded as facts that bench/causes.py writes under a missed target.

- imports: a fresh interpreter imports, step by step, what keeltui loads (Textual's app,
  keeltui's app, the openai client built as ``Brain`` builds it); wall time and VmHWM after
  each step.
- status: ``python -X importtime`` of ``keeltui status`` with a config no app has
  opened yet (the full path) and with one it has (the fast path); the costliest
  top-level imports of each.
- first frame: ``python -m bench.profile_start --phases`` for keeltui and the floor
  (imports, then the rest up to the first full frame), and cProfile's costliest
  functions up to keeltui's first frame.
"""

from __future__ import annotations

import json
import pstats
import subprocess
import time

from bench.context import Context, err
from bench.env import KEELTUI, PYTHON, REPO

STEPS = r"""
import json, sys, time
def hwm():
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM:'):
            return int(line.split()[1]) / 1024
out = [('python', 0.0, hwm())]
t = time.perf_counter()
import textual.app, textual.widgets
out.append(('textual.app + widgets', time.perf_counter() - t, hwm())); t = time.perf_counter()
import keeltui.cli.commands, keeltui.app
out.append(('keeltui.app (its imports before the first frame)', time.perf_counter() - t, hwm())); t = time.perf_counter()
import rich.markdown
out.append(('rich.markdown (room rows after the first frame)', time.perf_counter() - t, hwm())); t = time.perf_counter()
from keeltui.brain import Brain
from keeltui.config import BrainConfig
Brain(BrainConfig(base_url='http://127.0.0.1:9/v1')).client()  # as the app builds it
out.append(('openai + AsyncOpenAI (the brain client)', time.perf_counter() - t, hwm()))
print(json.dumps(out))
"""


def import_steps(ctx: Context) -> None:
    runs = []
    for _ in range(3):
        proc = subprocess.run([PYTHON, "-c", STEPS], env=ctx.env, capture_output=True, text=True, cwd=REPO, timeout=120)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr.strip()[-300:])
        runs.append(json.loads(proc.stdout))
    steps = []
    for i, (name, _, _) in enumerate(runs[0]):
        secs = sorted(r[i][1] for r in runs)[1]  # the median of three
        hwm = sorted(r[i][2] for r in runs)[1]
        steps.append((name, secs, hwm))
    ctx.results.facts["profile.imports"] = steps


def top_imports(stderr: str, top: int = 6) -> list[tuple[str, float]]:
    """The costliest top-level imports (cumulative, seconds) in ``-X importtime`` output."""
    found = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = (part for part in line.split(":", 1)[1].split("|"))
        if cumulative.strip().isdigit() and not name.startswith("   "):  # a top-level import (one space of indent)
            found.append((name.strip(), int(cumulative) / 1e6))
    return sorted(found, key=lambda item: -item[1])[:top]


def importtime(ctx: Context, argv: list[str]) -> list[tuple[str, float]]:
    proc = subprocess.run([PYTHON, "-X", "importtime", *argv], env=ctx.env, capture_output=True, text=True, timeout=60)
    return top_imports(proc.stderr)


def status_imports(ctx: Context) -> None:
    cold = ctx.workspace.keeltui_config(ctx.brain.url, name="profile-status-cold")
    ctx.results.facts["profile.status_cold"] = importtime(ctx, [KEELTUI, "--config", str(cold), "status"])


def phases(ctx: Context, who: list[str], key: str) -> dict[str, float]:
    out = ctx.workspace.fresh_dir(f"profile-{key}") / "phases.txt"
    subject = ctx.keeltui("profile", "keeltui") if key == "keeltui" else ctx.floor()
    argv = [PYTHON, "-m", "bench.profile_start", str(out), "--phases", "--", *who]
    with ctx.pane(subject) as pane:
        pane.launch(["env", "-C", str(REPO), *argv])
        deadline = time.monotonic() + 30
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    if not out.exists():
        raise RuntimeError(f"{key}: no phase file after 30 s")
    return {k: float(v) for k, v in (line.split() for line in out.read_text().splitlines())}


def frame_phases(ctx: Context) -> None:
    config = ctx.workspace.keeltui_config(ctx.brain.url, name="profile-keeltui")
    big = (ctx.workspace.keeltui_config(ctx.brain.url, ctx.room_db, name="profile-100k")
           if ctx.room_db is not None else None)
    samples: dict[str, list[dict[str, float]]] = {"keeltui": [], "floor": [], "keeltui.100k": []}
    for _ in range(3):
        samples["keeltui"].append(phases(ctx, ["keeltui", "--config", str(config)], "keeltui"))
        samples["floor"].append(phases(ctx, ["floor"], "floor"))
        if big is not None:
            samples["keeltui.100k"].append(phases(ctx, ["keeltui", "--config", str(big)], "keeltui"))
    ctx.results.facts["profile.phases"] = {
        who: {k: sorted(p[k] for p in runs)[len(runs) // 2] for k in runs[0]} for who, runs in samples.items() if runs
    }
    prof = ctx.workspace.fresh_dir("profile-cprofile") / "start.prof"
    subject = ctx.keeltui("profile", "keeltui")
    with ctx.pane(subject) as pane:
        pane.launch(["env", "-C", str(REPO), PYTHON, "-m", "bench.profile_start", str(prof), "--",
                     "keeltui", "--config", str(config)])
        deadline = time.monotonic() + 30
        while not prof.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # the dump is written in one go; let it land
    if prof.exists():
        stats = pstats.Stats(str(prof))
        rows = sorted(((fn, st[2]) for fn, st in stats.stats.items()), key=lambda item: -item[1])[:8]
        ctx.results.facts["profile.breakdown"] = breakdown(stats)
        ctx.results.facts["profile.tottime"] = [(f"{fn[2]} ({fn[0].rsplit('/', 2)[-2:][0]}/"
                                                 f"{fn[0].rsplit('/', 1)[-1]}:{fn[1]})", secs) for fn, secs in rows]


BREAKDOWN = (
    ("keeltui/app.py", "<module>", "importing keeltui.app (Textual included)"),
    ("textual/css/stylesheet.py", "parse", "parsing CSS"),
    ("textual/css/stylesheet.py", "apply", "applying CSS to widgets"),
    ("textual/widget.py", "_compose", "composing widgets"),
    ("textual/screen.py", "_refresh_layout", "layout and the first full frame"),
    ("textual/_styles_cache.py", "render_line", "drawing widget lines"),
)


def breakdown(stats: pstats.Stats) -> list[tuple[str, float, int]]:
    """(what, cumulative seconds, calls) for the parts of a start named in BREAKDOWN (cProfile's own clock)."""
    out = []
    for suffix, name, label in BREAKDOWN:
        rows = [(st[3], st[1]) for fn, st in stats.stats.items() if fn[0].endswith(suffix) and fn[2] == name]
        if rows:
            out.append((label, max(cum for cum, _ in rows), sum(calls for _, calls in rows)))
    return out


def run(ctx: Context) -> None:
    for name, step in (("imports", import_steps), ("status", status_imports), ("phases", frame_phases)):
        try:
            step(ctx)
        except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
            ctx.results.note("profile", f"{name}: {err(exc)}")
            ctx.say(f"profile: {name} failed: {err(exc)}")
    steps = ctx.results.facts.get("profile.imports")
    if steps:
        ctx.say("profile: imports " + "; ".join(f"{n} +{s * 1000:.0f} ms → {h:.1f} MB" for n, s, h in steps))
    if ctx.results.facts.get("profile.phases"):
        ctx.say(f"profile: phases {ctx.results.facts['profile.phases']}")
    if ctx.results.facts.get("profile.status_cold"):
        ctx.say(f"profile: status (never-run config) imports {ctx.results.facts['profile.status_cold']}")
