"""Idle cost: the app's CPU while nobody touches it, with the store watcher, the
evidence poll (a `command` source) and the sentinel (mode status, 5 s cadence) on.

One process is watched for the whole period; the period is cut into six windows,
each a sample, and the whole period is a sample of its own.
"""

from __future__ import annotations

import importlib.util
import time

from bench.context import Context, err
from bench.procs import cpu_seconds

WINDOWS = 6
SETTLE_SECS = 3.0


def run(ctx: Context) -> None:
    seconds = 20.0 if ctx.quick else 60.0
    controller = importlib.util.find_spec("keeltui.ambient.controller") is not None
    if not controller:
        ctx.results.note("idle", "keeltui.ambient.controller does not exist yet: the app attaches no sentinel "
                                 "and no evidence poll, so the idle figure covers the store watcher, the status "
                                 "line and Textual alone.")
    for ambient in (True, False):
        subject = ctx.keeltui("idle", "keeltui, idle", ambient=ambient)
        try:
            with ctx.pane() as pane:
                pane.launch(subject.argv)
                try:
                    pane.wait_for(*subject.ready, timeout=15)
                except TimeoutError as exc:
                    if ambient:
                        ctx.results.note("idle", f"the ambient config was rejected ({err(exc)[:200]}); "
                                                 "measured with ambient mode off instead")
                        continue
                    raise
                pid = pane.pane_pid()
                time.sleep(SETTLE_SECS)
                ctx.say(f"idle: watching the app for {seconds:.0f} s (ambient {'status' if ambient else 'off'})")
                start = last = cpu_seconds(pid)
                step = seconds / WINDOWS
                for _ in range(WINDOWS):
                    time.sleep(step)
                    now = cpu_seconds(pid)
                    ctx.results.add("idle.window_pct", 100 * (now - last) / step)
                    last = now
                ctx.results.add("idle.pct", 100 * (last - start) / seconds)
                ctx.results.facts["idle.secs"] = seconds
                ctx.results.facts["idle.ambient"] = "status (command evidence, 5 s cadence)" if ambient else "off"
                ctx.say(f"idle: {100 * (last - start) / seconds:.2f} % of a core")
                return
        except Exception as exc:  # noqa: BLE001
            ctx.results.fail("idle.pct", err(exc))
            return
