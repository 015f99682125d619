"""CPU seconds and memory of a running process, from /proc."""

from __future__ import annotations

import os
import time

_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int, children: bool = True) -> float:
    """User + system CPU of ``pid`` (all its threads), plus its reaped children's."""
    with open(f"/proc/{pid}/stat") as f:
        data = f.read()
    fields = data[data.rindex(")") + 2:].split()
    # fields[0] is field 3 (state): utime=14, stime=15, cutime=16, cstime=17.
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / _TICKS


def _status_kb(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise KeyError(key)


def peak_rss_mb(pid: int) -> float:
    """VmHWM: the highest resident set size so far, in MB."""
    return _status_kb(pid, "VmHWM") / 1024


def rss_mb(pid: int) -> float:
    return _status_kb(pid, "VmRSS") / 1024


def machine_busy_seconds() -> float:
    """CPU seconds all the processors have spent busy since boot (``/proc/stat``): everything
    but idle and iowait; steal counts, being time another guest of the host took."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
    return (sum(values) - values[3] - values[4]) / _TICKS


QUIET_WINDOW_SECS = 0.2
QUIET_BUSY_SECS = 0.02
"""Quiet, for the whole machine: busy under this many CPU seconds in QUIET_WINDOW_SECS (10 % of one core)."""


def wait_until_quiet(at_most: float = 5.0, busy=machine_busy_seconds, window: float = QUIET_WINDOW_SECS,
                     most_busy: float = QUIET_BUSY_SECS, clock=time.monotonic,
                     sleep=time.sleep) -> tuple[float, bool]:
    """Wait for a ``window``-second stretch in which ``busy()`` (CPU seconds: the whole
    machine's by default, or some processes') grew by under ``most_busy``, at most ``at_most``
    seconds. Returns the seconds waited and whether it was quiet."""
    started = clock()
    before = busy()
    while True:
        sleep(window)
        now = busy()
        if now - before < most_busy:
            return clock() - started, True
        if clock() - started >= at_most:
            return clock() - started, False
        before = now


def alive(pid: int) -> bool:
    return os.path.exists(f"/proc/{pid}")


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of the main thread, of each other thread, and of reaped children: where the time goes.

    Python does not name its threads for the kernel, so they are told apart by id.
    """
    out: dict[str, float] = {}
    try:
        tids = sorted(os.listdir(f"/proc/{pid}/task"), key=int)
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                data = f.read()
        except OSError:
            continue  # the thread ended
        fields = data[data.rindex(")") + 2:].split()
        name = "main thread (the event loop)" if int(tid) == pid else f"thread {tid}"
        out[name] = (int(fields[11]) + int(fields[12])) / _TICKS
    out["reaped children (e.g. the evidence command)"] = cpu_seconds(pid) - cpu_seconds(pid, children=False)
    return out


def wait_gone(pid: int, timeout: float = 10.0) -> bool:
    """Wait until process ``pid`` has exited (a killed app may take a second to wind down);
    False if it is still there after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def rss_by_mapping(pid: int, top: int = 8) -> list[tuple[str, float]]:
    """The resident set now, by what is mapped (a shared library's file, ``[heap]``, ``[anon]``
    for Python's arenas, thread stacks and big allocations), largest first, in MB."""
    import re

    sizes: dict[str, int] = {}
    name = "[anon]"
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for line in f:
                if re.match(r"[0-9a-f]+-[0-9a-f]+ ", line):
                    parts = line.split(maxsplit=5)
                    name = parts[5].strip() if len(parts) > 5 else "[anon]"
                    name = name.rsplit("/", 1)[-1]
                elif line.startswith("Rss:"):
                    sizes[name] = sizes.get(name, 0) + int(line.split()[1])
    except OSError:
        return []
    ranked = sorted(sizes.items(), key=lambda kv: -kv[1])
    return [(k, v / 1024) for k, v in ranked[:top]]
