"""A recorder of garbage-collection pauses, for the benchmark (off unless asked for).

With ``KEEL_BENCH_GC_LOG=FILE`` in the environment, every collection the app runs
appends one line to FILE: ``<generation> <milliseconds> <objects collected> <CPU milliseconds>``.
The bench (bench/measures/paging.py) reads it to count the pauses a person feels while
paging; the thread's CPU time beside the wall-clock pause tells a long collection from one
the system took the processor away from (two cores, tmux and the bench beside the app).
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
    started = [0.0, 0.0]

    def on_collection(phase: str, info: dict) -> None:
        if phase == "start":
            started[0], started[1] = time.perf_counter(), time.thread_time()
        else:
            ms, cpu_ms = (time.perf_counter() - started[0]) * 1000, (time.thread_time() - started[1]) * 1000
            out.write(f"{info['generation']} {ms:.3f} {info['collected']} {cpu_ms:.3f}\n")

    gc.callbacks.append(on_collection)
    return True
