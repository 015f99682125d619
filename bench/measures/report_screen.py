"""Report to screen: from `keeltui report` returning to its line visible in the open app."""

from __future__ import annotations

import random
import subprocess
import time
import uuid

from bench.context import Context, err
from bench.env import KEELTUI


def run(ctx: Context) -> None:
    subject = ctx.keeltui("report", "keeltui, report to screen")
    config = subject.argv[-1]
    try:
        with ctx.pane() as pane:
            pane.launch(subject.argv)
            pane.wait_for(*subject.ready, timeout=subject.timeout)
            time.sleep(1.5)
            for i in range(ctx.runs * 2):
                text = f"bench report {i} {uuid.uuid4().hex[:10]}"
                try:
                    t0 = time.monotonic()
                    proc = subprocess.run([KEELTUI, "--config", config, "report", "--source", "cron:bench", text],
                                          env=ctx.env, capture_output=True, text=True)
                    returned = time.monotonic()
                    if proc.returncode != 0:
                        raise RuntimeError(f"keeltui report exited {proc.returncode}: {proc.stderr.strip()[:200]}")
                    ctx.results.add("report.cli", returned - t0)
                    ctx.results.add("report.screen", pane.wait_for(text, timeout=10) - returned)
                except Exception as exc:  # noqa: BLE001
                    ctx.results.fail("report.screen", err(exc))
                time.sleep(random.uniform(0.1, 0.6))  # sample every phase of the 0.5 s poll
    except Exception as exc:  # noqa: BLE001
        ctx.results.fail("report.screen", err(exc))
    s = ctx.results.get("report.screen")
    if s.samples:
        ctx.say(f"report to screen: median {s.median:.3f}s, max {s.hi:.3f}s over {len(s.samples)}")
