"""No pause on the first message: a message typed at the very first frame, next to a
second one once everything has loaded. Recorded: Enter to the reply's marker on screen.
"""

from __future__ import annotations

import time
import uuid

from tests.support.loopback import Reply

from bench.context import Context, err

WARM_WAIT_SECS = 2.5


def _ask(ctx: Context, pane, text: str) -> float:
    marker = f"PONG{uuid.uuid4().hex[:8].upper()}"
    ctx.brain.expect(Reply(chunks=["Here ", "it ", "is: ", marker]))
    sent = pane.type_and_send(text)
    return pane.wait_for(marker, timeout=20) - sent


def once(ctx: Context) -> None:
    subject = ctx.keeltui("first_message", "keeltui, first message")
    with ctx.pane() as pane:
        pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=subject.timeout)
        ctx.results.add("first_message.cold", _ask(ctx, pane, "hello at the first frame"))
        time.sleep(WARM_WAIT_SECS)
        ctx.results.add("first_message.warm", _ask(ctx, pane, "hello once warm"))


def run(ctx: Context) -> None:
    for i in range(ctx.runs):
        try:
            once(ctx)
        except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
            ctx.results.fail("first_message.cold", err(exc))
            ctx.say(f"first message: run {i + 1} failed: {err(exc)}")
    cold, warm = ctx.results.get("first_message.cold"), ctx.results.get("first_message.warm")
    if cold.samples and warm.samples:
        ctx.say(f"first message: cold {cold.median:.3f}s, warm {warm.median:.3f}s (medians)")
