"""First chunk visible, for the peers: the same short reply and schedule as keeltui's
measure (bench/measures/first_chunk.py, three chunks 0.2 s apart, the first a unique
word), from the first chunk leaving the server (loopback or the Ollama shim) to that
word on screen, with the question on screen too.
"""

from __future__ import annotations

import time

from bench.context import Context, Subject, err, tag
from bench.measures.first_chunk import BRAIN_LOAD_SECS, watch_first_chunk



def once(ctx: Context, subject: Subject, run: int) -> None:
    question = f"short question {run}"
    with ctx.pane(subject) as pane:
        pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=subject.timeout)
        time.sleep(BRAIN_LOAD_SECS)
        if subject.open_chat is not None:
            subject.open_chat(pane)
        lag, screen = watch_first_chunk(ctx, pane, question, lambda text: pane.type_and_send(text, subject.send_key))
    together = question in screen
    ctx.results.add(tag("first_chunk.lag", subject.who), lag)
    ctx.results.add(tag("first_chunk.together", subject.who), 1.0 if together else 0.0)
    ctx.say(f"first chunk {subject.who}: on screen {lag:.3f}s after it was sent")


def run(ctx: Context) -> None:
    for i in range(min(ctx.runs, ctx.peer_runs)):
        for subject in ctx.chatters("first_chunk")[1:]:  # keeltui: bench/measures/first_chunk.py
            try:
                once(ctx, subject, i)
            except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
                ctx.results.fail(tag("first_chunk.lag", subject.who), err(exc))
                ctx.say(f"first chunk {subject.who}: run {i + 1} failed: {err(exc)}")
