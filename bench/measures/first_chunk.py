"""First chunk visible: from the first chunk of a short reply leaving the loopback server
to that chunk on screen, with the owner's message and the reply's header on screen too.

Per run: a fresh keeltui (empty store) in tmux, brain loaded; one message; the reply is
three short chunks 0.2 s apart (the first a unique word). The first chunk's send time is
read from the server's counter while the screen is polled every 20 ms.
"""

from __future__ import annotations

import time
import uuid

from keeltui_dev.loopback import Reply

from bench.context import Context, err

CHUNK_GAP_SECS = 0.2
BRAIN_LOAD_SECS = 2.5
POLL_SECS = 0.02


def watch_first_chunk(ctx: Context, pane, question: str, send) -> tuple[float, str]:
    """Queue the short reply, ``send`` the question, and poll the screen until the reply's
    first word shows: (seconds from that chunk leaving the server, the screen then)."""
    word = f"FIRST{uuid.uuid4().hex[:6].upper()}"
    brain = ctx.brain.brain
    ctx.brain.expect(Reply(chunks=[f"{word} ", "and a short ", "reply."], chunk_delay=CHUNK_GAP_SECS))
    send(question)
    sent_at = None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if sent_at is None and brain.chunks_sent >= 1:
            sent_at = brain.last_chunk_sent_at  # read well within the 0.2 s before the next chunk
        screen = pane.capture()
        seen = time.monotonic()
        if word in screen:
            if sent_at is None:
                sent_at = brain.last_chunk_sent_at - CHUNK_GAP_SECS * (brain.chunks_sent - 1)
            return seen - sent_at, screen
        time.sleep(POLL_SECS)
    raise RuntimeError("the first chunk never reached the screen")


def first_chunk_once(ctx: Context, run: int) -> None:
    question = f"short question {run}"
    subject = ctx.keeltui("first_chunk", "keeltui, first chunk visible")
    with ctx.pane() as pane:
        pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=subject.timeout)
        time.sleep(BRAIN_LOAD_SECS)  # the brain client loads after the first frame
        lag, screen = watch_first_chunk(ctx, pane, question, pane.type_and_send)
    together = question in screen and "Chief" in screen
    ctx.results.add("first_chunk.lag", lag)
    ctx.results.add("first_chunk.together", 1.0 if together else 0.0)
    ctx.say(f"first chunk: on screen {lag:.3f}s after it was sent; with question and header: {together}")


def run(ctx: Context) -> None:
    for i in range(ctx.runs):
        try:
            first_chunk_once(ctx, i)
        except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
            ctx.results.fail("first_chunk.lag", err(exc))
            ctx.say(f"first chunk: run {i + 1} failed: {err(exc)}")
