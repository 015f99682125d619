"""What the numbers were measured on."""

from __future__ import annotations

import datetime as dt
import os
import platform
import subprocess

from bench.env import PYTHON, REPO


def _run(argv: list[str]) -> str:
    try:
        return subprocess.run(argv, capture_output=True, text=True, cwd=REPO, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def describe() -> dict[str, str]:
    versions = _run([PYTHON, "-c", "import sys, textual, rich; print(sys.version.split()[0], textual.__version__, "
                                   "__import__('importlib.metadata').metadata.version('rich'))"]).split()
    commit = _run(["git", "rev-parse", "--short", "HEAD"])
    dirty = _run(["git", "status", "--porcelain", "--", "keeltui"])
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "uname": " ".join(platform.uname()[i] for i in (0, 2, 4)),
        "cpu": f"{cpu_model()} ({os.cpu_count()} cores)",
        "python": versions[0] if versions else "?",
        "textual": versions[1] if len(versions) > 1 else "?",
        "rich": versions[2] if len(versions) > 2 else "?",
        "tmux": _run(["tmux", "-V"]),
        "keeltui": f"{commit}{' + uncommitted changes in keeltui/' if dirty else ''}",
        "load": load(),
        "pace": pace(),
        "wake": wake(),
    }


PACE_SCRIPT = """
import io, time
from rich.console import Console
from rich.markdown import Markdown
text = "\\n\\n".join(f"## Part {i}\\n\\nSome **bold** words, `code`, and a list:\\n\\n- one\\n- two {i}" for i in range(200))
console = Console(file=io.StringIO(), width=100, color_system="truecolor")
console.print(Markdown(text))  # warm: imports, caches
times = []
for _ in range(5):
    t = time.perf_counter()
    console.print(Markdown(text))
    times.append(time.perf_counter() - t)
print(f"{sorted(times)[2] * 1000:.0f}")
"""
"""A fixed piece of the work the apps do (Rich renders Markdown), timed in a fresh
interpreter. Absolute figures (CPU per cent, milliseconds) move with the machine's weather,
which the load average does not show (a neighbour on the host thrashing the caches): two
runs are comparable as far as this figure agrees."""


def pace() -> str:
    """Milliseconds for the reference render (the median of five), or "?"."""
    out = _run([PYTHON, "-c", PACE_SCRIPT])
    return f"{out} ms" if out.isdigit() else "?"


WAKE_SCRIPT = """
import select, time
select.select([], [], [], 0.01)  # warm
cpu, wall = time.process_time(), time.perf_counter()
for _ in range(300):
    select.select([], [], [], 0.01)
print(f"{(time.process_time() - cpu) / 300 * 1e6:.0f} {(time.perf_counter() - wall) / 300 * 1e3:.1f}")
"""
"""What one wake-up from an idle wait costs (the way Textual's input thread waits): the idle
and streaming figures are mostly wake-ups, and on this shared machine their price moved by
3-7x within an hour while the pace figure moved by a third."""


def wake() -> str:
    """CPU microseconds per wake-up from a 10 ms wait (300 of them), and the wait it took."""
    out = _run([PYTHON, "-c", WAKE_SCRIPT]).split()
    return f"{out[0]} µs CPU per wake-up ({out[1]} ms for a 10 ms wait)" if len(out) == 2 else "?"


def load() -> str:
    """The 1-minute load average: other work on the machine skews every figure."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "?"
