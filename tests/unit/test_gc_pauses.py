"""The bench's collection-pause recorder: off unless asked for, one line per collection."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import gc, sys
from keeltui.infra.gc_pauses import record_if_asked
before = len(gc.callbacks)
print(record_if_asked(), len(gc.callbacks) - before)
gc.collect()
gc.collect(0)
"""


def run(env: dict) -> list[str]:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_off_by_default_registers_nothing():
    assert run({"PATH": "/usr/bin"}) == ["False", "0"]


def test_asked_for_each_collection_is_a_private_line(tmp_path):
    log = tmp_path / "gc.log"
    assert run({"PATH": "/usr/bin", "KEEL_BENCH_GC_LOG": str(log)}) == ["True", "1"]
    lines = [line.split() for line in log.read_text().splitlines()]
    assert {"0", "2"} <= {gen for gen, _, _, _ in lines}  # the full collection and the young one
    assert all(float(ms) >= 0 and int(collected) >= 0 and float(cpu) >= 0 for _, ms, collected, cpu in lines)
    assert log.stat().st_mode & 0o777 == 0o600
