"""First chunk visible, for the peers: the same short reply and schedule as keeltui's
measure (bench/measures/first_chunk.py, three chunks 0.2 s apart, the first a unique
word), from the first chunk leaving the server (loopback or the Ollama shim) to that
word on screen, with the question on screen too.
"""

from __future__ import annotations

import time
import uuid

from bench.context import Context, Subject, err, tag
from bench.loop import Reply
from bench.measures.first_chunk import BRAIN_LOAD_SECS, CHUNK_GAP_SECS, POLL_SECS



def once(ctx: Context, subject: Subject, run: int) -> None:
    word = f"FIRST{uuid.uuid4().hex[:6].upper()}"
    question = f"short question {run}"
    with ctx.pane(subject) as pane:
        pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=subject.timeout)
        time.sleep(BRAIN_LOAD_SECS)
        if subject.open_chat is not None:
            subject.open_chat(pane)
        brain = ctx.brain.brain
        ctx.brain.expect(Reply(chunks=[f"{word} ", "and a short ", "reply."], chunk_delay=CHUNK_GAP_SECS))
        pane.type_and_send(question, subject.send_key)
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
                together = question in screen
                break
            time.sleep(POLL_SECS)
        else:
            raise RuntimeError("the first chunk never reached the screen")
    ctx.results.add(tag("first_chunk.lag", subject.who), seen - sent_at)
    ctx.results.add(tag("first_chunk.together", subject.who), 1.0 if together else 0.0)
    ctx.say(f"first chunk {subject.who}: on screen {seen - sent_at:.3f}s after it was sent")


def run(ctx: Context) -> None:
    for i in range(min(ctx.runs, ctx.peer_runs)):
        for subject in ctx.chatters("first_chunk")[1:]:  # keeltui: bench/measures/first_chunk.py
            try:
                once(ctx, subject, i)
            except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
                ctx.results.fail(tag("first_chunk.lag", subject.who), err(exc))
                ctx.say(f"first chunk {subject.who}: run {i + 1} failed: {err(exc)}")
