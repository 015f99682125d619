"""Streaming 2 000 chunks (a) 5 ms apart and (b) as fast as the server can.

Per run: a fresh keeltui (empty store), then each peer, in tmux, brain loaded, the pane's output piped
to a file. One message is sent; the loopback server streams the reply, whose last
chunk is a unique marker word. Recorded: the time from the last chunk sent to the
marker on screen, the app's CPU from the request's arrival to that moment, whether
the marker is still on screen 1 s after the end (pinned to the bottom), and the bytes
written to the terminal during the reply as a multiple of the reply's text size, and
the peak RSS (VmHWM) once the reply is on screen.
"""

from __future__ import annotations

import time
import uuid

from keeltui_dev.loopback import Reply

from bench import bytes_anatomy
from bench.context import Context, Subject, err, tag
from bench.loop import stream_chunks
from bench.procs import cpu_seconds, peak_rss_mb, rss_by_mapping

CHUNKS = 2_000
VARIANTS = {"paced": 0.005, "burst": 0.0}
SETTLE_SECS = 1.0
BRAIN_LOAD_SECS = 2.5


def start_chat(ctx: Context, pane, subject: Subject) -> int:
    """Launch ``subject``, wait for its first frame and brain, reach its chat input; returns the pid."""
    pane.launch(subject.argv)
    pane.wait_for(*subject.ready, timeout=subject.timeout)
    time.sleep(BRAIN_LOAD_SECS)  # keeltui loads its brain client after the first frame
    if subject.open_chat is not None:
        subject.open_chat(pane)
    return pane.pane_pid()


def stream_once(ctx: Context, subject: Subject, variant: str, delay: float) -> None:
    marker = f"ENDMARK{uuid.uuid4().hex[:8].upper()}"
    chunks = stream_chunks(CHUNKS, marker)
    text_bytes = len("".join(chunks).encode())
    pipe = ctx.workspace.fresh_dir(f"pipe-{variant}-{subject.who}") / "terminal.bytes"
    pipe.touch()
    with ctx.pane(subject) as pane:
        pid = start_chat(ctx, pane, subject)
        pane.pipe_to(str(pipe), stamped=True)
        time.sleep(0.2)

        def at_request():
            return cpu_seconds(pid), pipe.stat().st_size

        ctx.brain.expect(Reply(chunks=chunks, chunk_delay=delay), on_stream=at_request)
        pane.type_and_send(f"Stream {variant} please", subject.send_key)
        expected = CHUNKS * delay * 1.3 + 10
        seen = pane.wait_for(marker, timeout=expected + 90, interval=0.02)
        cpu_end = cpu_seconds(pid)
        rss_end = peak_rss_mb(pid)
        where = ", ".join(f"{k} {v:.1f}" for k, v in rss_by_mapping(pid))
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
    with open(pipe, "rb") as f:
        f.seek(bytes_start)
        data = f.read()
    pieces = _pieces_after(str(pipe) + ".times", bytes_start)
    anatomy = bytes_anatomy.anatomy(data, pieces)
    written_at = bytes_anatomy.arrival_of(data, pieces, marker.encode())
    wall = seen - arrival.at
    cpu = cpu_end - cpu_start
    r, who = ctx.results, subject.who
    r.add(tag(f"stream.{variant}.lag", who), seen - sent_last)
    r.add(tag(f"stream.{variant}.cpu", who), cpu)
    r.add(tag(f"stream.{variant}.cpu_pct", who), 100 * cpu / wall if wall > 0 else 0)
    r.add(tag(f"stream.{variant}.wall", who), wall)
    r.add(tag(f"stream.{variant}.pinned", who), 1.0 if pinned else 0.0)
    r.add(tag(f"stream.{variant}.bytes_ratio", who), written / text_bytes)
    r.add(tag(f"stream.{variant}.bytes", who), written)
    r.add(tag(f"stream.{variant}.rss", who), rss_end)
    if written_at is not None:  # the lag split: the app writing the last chunk, then tmux and the capture
        r.add(tag(f"stream.{variant}.write_lag", who), written_at - sent_last)
    r.facts["stream.text_bytes"] = text_bytes
    r.facts[tag(f"stream.{variant}.rss_where", who)] = where  # the last run's
    r.facts[tag(f"stream.{variant}.anatomy", who)] = bytes_anatomy.describe(anatomy, text_bytes)  # the last run's
    ctx.say(
        f"stream {variant} {who}: lag {seen - sent_last:.3f}s, cpu {cpu:.2f}s ({100 * cpu / wall:.0f}% of a core "
        f"over {wall:.1f}s), pinned {pinned}, {written / text_bytes:.1f}x text bytes, peak RSS {rss_end:.1f} MB "
        f"(resident now, MB: {where})"
    )


def _pieces_after(times: str, start: int) -> list[tuple[float, int]]:
    """(arrival, length) of the pieces written after the first ``start`` bytes (bench/pipe_stamp.py)."""
    out, seen = [], 0
    try:
        with open(times) as f:
            for line in f:
                at, length = line.split()
                if seen >= start:
                    out.append((float(at), int(length)))
                seen += int(length)
    except (OSError, ValueError):
        return []
    return out


def run(ctx: Context) -> None:
    for variant, delay in VARIANTS.items():
        for i in range(ctx.runs):
            # keeltui and the peers alternate run by run, so they share the machine's weather.
            for subject in ctx.chatters(f"stream.{variant}", with_peers=i < ctx.peer_runs):
                try:
                    stream_once(ctx, subject, variant, delay)
                except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
                    ctx.results.fail(tag(f"stream.{variant}.lag", subject.who), err(exc))
                    ctx.say(f"stream {variant} {subject.who}: run {i + 1} failed: {err(exc)}")


def run_room(ctx: Context) -> None:
    """The same 2 000-chunk reply (5 ms apart) in a 100 000-row room: peak RSS once it is on screen.
    Each run streams into its own copy of the room, so the seeded room stays as it was."""
    import shutil

    if ctx.room_db is None:
        ctx.results.fail("stream.room.lag", "no 100 000-row room (seeding failed)")
        return
    from bench.env import LAST_ROW_MARK

    for i in range(max(1, ctx.runs // 2)):
        try:
            db = ctx.workspace.fresh_dir("stream-room") / "room.db"
            shutil.copyfile(ctx.room_db, db)
            subject = ctx.keeltui("stream.room", "keeltui, 100 000-row room", db, ready_extra=(LAST_ROW_MARK,))
            stream_once(ctx, subject, "room", VARIANTS["paced"])
        except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
            ctx.results.fail("stream.room.lag", err(exc))
            ctx.say(f"stream in the 100 000-row room: run {i + 1} failed: {err(exc)}")
