"""A recorder of garbage-collection pauses, for the benchmark (off unless asked for).

With ``KEEL_BENCH_GC_LOG=FILE`` in the environment, every collection the app runs
appends one line to FILE: ``<generation> <milliseconds> <objects collected>``. The bench
(bench/measures/paging.py) reads it to count the pauses a person feels while paging.
Without the variable nothing is registered: zero cost. The file is owner-only and holds
no text of the room.
"""

from __future__ import annotations

import gc
import os
import time

ENV = "KEEL_BENCH_GC_LOG"


def record_if_asked(environ=os.environ) -> bool:
    """Register the recorder when ``KEEL_BENCH_GC_LOG`` names a file; True when it did."""
    path = environ.get(ENV, "")
    if not path:
        return False
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    out = os.fdopen(fd, "a", buffering=1, encoding="ascii")  # a line at a time: the bench reads it live
    started = [0.0]

    def on_collection(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            out.write(f"{info['generation']} {(time.perf_counter() - started[0]) * 1000:.3f} {info['collected']}\n")

    gc.callbacks.append(on_collection)
    return True
