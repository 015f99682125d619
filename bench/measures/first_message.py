"""No pause on the first message. Recorded: Enter to the reply's marker on screen, for
(cold) a message typed at the very first frame, while the brain client still loads in
the background; (after_load) the first message of a fresh app typed 2.5 s after its
first frame; (warm) a second message in the same app.
"""

from __future__ import annotations

import time
import uuid

from keeltui_dev.loopback import Reply

from bench.context import Context, err

WARM_WAIT_SECS = 2.5


OWNER = "Owner"  # the speaker's name over the owner's own turn (config default)


def _ask(ctx: Context, pane, text: str, key: str) -> None:
    """Send ``text``; record Enter → the owner's own turn on screen (echo) and → the reply."""
    marker = f"PONG{uuid.uuid4().hex[:8].upper()}"
    ctx.brain.expect(Reply(chunks=["Here ", "it ", "is: ", marker]))
    owners = pane.capture().count(OWNER)
    sent = pane.type_and_send(text)
    echo = None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        screen = pane.capture()
        now = time.monotonic()
        if echo is None and screen.count(OWNER) > owners:
            echo = now - sent
        if marker in screen:
            ctx.results.add(key, now - sent)
            ctx.results.add(f"{key}_echo", echo if echo is not None else now - sent)
            return
        time.sleep(0.02)
    pane.wait_for(marker, timeout=0.1)  # raises with the screen in the message


def once(ctx: Context) -> None:
    subject = ctx.keeltui("first_message", "keeltui, first message")
    with ctx.pane() as pane:
        pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=subject.timeout)
        _ask(ctx, pane, "hello at the first frame", "first_message.cold")
        time.sleep(WARM_WAIT_SECS)
        _ask(ctx, pane, "hello once warm", "first_message.warm")


def after_load(ctx: Context) -> None:
    subject = ctx.keeltui("first_message", "keeltui, first message after load")
    with ctx.pane() as pane:
        pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=subject.timeout)
        time.sleep(WARM_WAIT_SECS)
        _ask(ctx, pane, "hello after the load", "first_message.after_load")


def run(ctx: Context) -> None:
    for i in range(ctx.runs):
        for key, measure in (("first_message.cold", once), ("first_message.after_load", after_load)):
            try:
                measure(ctx)
            except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
                ctx.results.fail(key, err(exc))
                ctx.say(f"first message: {key} run {i + 1} failed: {err(exc)}")
    cold, warm = ctx.results.get("first_message.cold"), ctx.results.get("first_message.warm")
    if cold.samples and warm.samples:
        late = ctx.results.get("first_message.after_load")
        ctx.say(f"first message: at the first frame {cold.median:.3f}s, first after load "
                f"{late.median if late.samples else float('nan'):.3f}s, second {warm.median:.3f}s (medians)")
