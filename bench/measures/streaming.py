"""Streaming 4 000 chunks (a) 5 ms apart and (b) as fast as the server can.

Per run: a fresh keeltui (empty store) in tmux, brain loaded, the pane's output piped
to a file. One message is sent; the loopback server streams the reply, whose last
chunk is a unique marker word. Recorded: the time from the last chunk sent to the
marker on screen, the app's CPU from the request's arrival to that moment, whether
the marker is still on screen 1 s after the end (pinned to the bottom), and the bytes
written to the terminal during the reply as a multiple of the reply's text size.
"""

from __future__ import annotations

import time
import uuid

from keeltui_dev.loopback import Reply

from bench.context import Context, err
from bench.loop import stream_chunks
from bench.procs import cpu_seconds

CHUNKS = 4_000
VARIANTS = {"paced": 0.005, "burst": 0.0}
SETTLE_SECS = 1.0
BRAIN_LOAD_SECS = 2.5


def stream_once(ctx: Context, variant: str, delay: float) -> None:
    marker = f"ENDMARK{uuid.uuid4().hex[:8].upper()}"
    chunks = stream_chunks(CHUNKS, marker)
    text_bytes = len("".join(chunks).encode())
    subject = ctx.keeltui(f"stream.{variant}", f"keeltui streaming ({variant})")
    pipe = ctx.workspace.fresh_dir(f"pipe-{variant}") / "terminal.bytes"
    pipe.touch()
    with ctx.pane() as pane:
        pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=subject.timeout)
        pid = pane.pane_pid()
        time.sleep(BRAIN_LOAD_SECS)  # the brain client loads after the first frame
        pane.pipe_to(str(pipe))
        time.sleep(0.2)

        def at_request():
            return cpu_seconds(pid), pipe.stat().st_size

        ctx.brain.expect(Reply(chunks=chunks, chunk_delay=delay), on_stream=at_request)
        pane.type_and_send(f"Stream {variant} please")
        expected = CHUNKS * delay * 1.3 + 10
        seen = pane.wait_for(marker, timeout=expected + 60, interval=0.02)
        cpu_end = cpu_seconds(pid)
        arrival = ctx.brain.first_arrival()
        if arrival is None:
            raise RuntimeError("the request never reached the loopback server")
        cpu_start, bytes_start = arrival.hook_value
        sent_last = ctx.brain.brain.last_chunk_sent_at
        if ctx.brain.brain.chunks_sent != CHUNKS:
            raise RuntimeError(f"marker seen after {ctx.brain.brain.chunks_sent} of {CHUNKS} chunks were sent")
        time.sleep(SETTLE_SECS)
        pinned = marker in pane.capture()
        pane.stop_pipe()
        time.sleep(0.1)
        written = pipe.stat().st_size - bytes_start
    wall = seen - arrival.at
    cpu = cpu_end - cpu_start
    r = ctx.results
    r.add(f"stream.{variant}.lag", seen - sent_last)
    r.add(f"stream.{variant}.cpu", cpu)
    r.add(f"stream.{variant}.cpu_pct", 100 * cpu / wall if wall > 0 else 0)
    r.add(f"stream.{variant}.wall", wall)
    r.add(f"stream.{variant}.pinned", 1.0 if pinned else 0.0)
    r.add(f"stream.{variant}.bytes_ratio", written / text_bytes)
    r.add(f"stream.{variant}.bytes", written)
    r.facts["stream.text_bytes"] = text_bytes
    ctx.say(
        f"stream {variant}: lag {seen - sent_last:.3f}s, cpu {cpu:.2f}s ({100 * cpu / wall:.0f}% of a core "
        f"over {wall:.1f}s), pinned {pinned}, {written / text_bytes:.1f}x text bytes"
    )


def run(ctx: Context) -> None:
    for variant, delay in VARIANTS.items():
        for i in range(ctx.runs):
            try:
                stream_once(ctx, variant, delay)
            except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
                ctx.results.fail(f"stream.{variant}.lag", err(exc))
                ctx.say(f"stream {variant}: run {i + 1} failed: {err(exc)}")
