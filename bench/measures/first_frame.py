"""Time to first frame and peak RSS: the floor, keeltui (empty, 100 000 and 1 000 000 rows), peers.

Subjects are interleaved run by run so that they share the machine's weather. Each
subject gets one unrecorded warm-up start (page cache, .pyc files, first-run files).
The next start waits until the last subject's process has exited (``Pane.close``), and then
until the machine has been quiet for a moment (``procs.wait_until_quiet``, at most
QUIET_AT_MOST_SECS), and a note counts the starts that began quiet. Why: in two full runs on
a noisy 2-core guest every subject's nine starts spread over 0.19-0.40 s and the floor's
median moved 203 -> 291 ms between runs, more than #19's lines between the rooms; this rules
out what a previous start left running. (In the first run with it all 42 starts began quiet
and the spread stayed: the host's own pace moved, 94-107 ms against ~60 ms on a good day.)

The first frame is when the subject's terminal stream held its ready texts: tmux pipes the
pane's bytes to bench/pipe_stamp.py, which stamps each piece as it arrives, and the piece
that completed the texts (escape sequences taken out) dates the frame. The screen is still
polled (every 20 ms) to know the frame is there; a poll alone dates it up to 20 ms late, and
#19's line between the rooms is 5 % of ~240 ms: 12 ms.

keeltui and the floor run at least MIN_ROUNDS rounds (the peers ``--runs``), each round in
another order (a subject is not always the one after the floor), and each round is kept
(``Results.add_round``): #19's lines are judged on the median of the rounds' own ratios
(bench/report.frame_ratio), the ratio of the medians shown beside it. Why: the same code's
starts spread over 0.22-0.39 s within one run on a 2-core guest whose pace moves by the
second, and a ratio of medians took the floor's slow starts and keeltui's from different
moments (1.21x-1.31x of the floor between runs with five starts a side, 1.22x-1.30x with
nine); two starts a few seconds apart share the machine's pace. The brain client's RSS
(3 s after each keeltui start) is read in the first BRAIN_RSS_ROUNDS rounds only, so that
more rounds fit the same minutes.
"""

from __future__ import annotations

import time

from bench.context import Context, Subject, err
from bench.env import LAST_ROW_MARK
from bench.procs import QUIET_BUSY_SECS, QUIET_WINDOW_SECS, peak_rss_mb, wait_until_quiet
from bench.screen_reading import written_at

BRAIN_SETTLE_SECS = 3.0
PIPE_READY_SECS = 0.3
"""The stamping pipe (a Python of its own, bench/pipe_stamp.py) starts this long before the
subject, so its own start-up does not share the subject's."""
MIN_ROUNDS = 15
BRAIN_RSS_ROUNDS = 5
QUIET_AT_MOST_SECS = 5.0
WARM_UP_SETTLE_SECS = 4.0


def start_once(ctx: Context, subject: Subject, record: bool = True, brain_rss: bool = True) -> float | None:
    """One start; with ``record``, its first frame (seconds from the launch) is added and returned."""
    where = ctx.workspace.fresh_dir(f"first-frame-{subject.key}")
    pipe = where / "terminal.bytes"
    pipe.touch()
    with ctx.pane(subject) as pane:
        pane.pipe_to(str(pipe), stamped=True)
        time.sleep(PIPE_READY_SECS)
        _, quiet = wait_until_quiet(QUIET_AT_MOST_SECS)
        if record:
            ctx.results.add("ttff.started_quiet", 1.0 if quiet else 0.0)
        t0 = pane.launch(subject.argv)
        seen = pane.wait_for(*subject.ready, timeout=subject.timeout)
        pid = pane.pane_pid()
        rss = peak_rss_mb(pid)
        frame = _written_at(pipe, subject.ready)
        if frame is None or frame <= t0:
            ctx.results.note("first_frame", f"{subject.label}: a start's first frame was not found in its terminal "
                                            "stream: the poll that saw it counts")
            frame = seen
        frame = min(frame, seen)  # tmux may hand the pipe its piece after answering the poll
        if not record:
            if subject.brain_wait:
                # What a first start writes for the next (the CSS it parsed, 3 s in; the
                # docless forms, at exit) is written before the recorded starts.
                time.sleep(WARM_UP_SETTLE_SECS)
            return None
        ctx.results.add(f"ttff.{subject.key}", frame - t0)
        ctx.results.add(f"rss.{subject.key}", rss)
        if subject.brain_wait and brain_rss:
            time.sleep(BRAIN_SETTLE_SECS)
            if pane.pane_dead():
                raise RuntimeError("the app exited after its first frame")
            ctx.results.add(f"rss_brain.{subject.key}", peak_rss_mb(pid))
        return frame - t0


def _written_at(pipe, texts: tuple[str, ...]) -> float | None:
    """When the subject's terminal stream held its ready texts (the pipe's stamps)."""
    times = pipe.with_name(pipe.name + ".times")
    for _ in range(20):  # the pipe writes what tmux hands it a moment after the screen shows it
        try:
            found = written_at(pipe.read_bytes(), times.read_text(), *texts)
        except OSError:
            found = None
        if found is not None:
            return found
        time.sleep(0.05)
    return None


def subjects(ctx: Context) -> list[Subject]:
    chosen = [ctx.floor(), ctx.keeltui()]
    if ctx.room_db is not None:
        big = ctx.keeltui("keeltui.100k", "keeltui, 100 000-row room", ctx.room_db, ready_extra=(LAST_ROW_MARK,))
        chosen.append(big)
    if ctx.room_db_1m is not None:
        chosen.append(ctx.keeltui("keeltui.1m", "keeltui, 1 000 000-row room", ctx.room_db_1m, ready_extra=(LAST_ROW_MARK,)))
    return chosen + ctx.peers


def round_order(chosen: list, i: int) -> list:
    """Round ``i``'s order: the subjects rotated by ``i``, so that each one comes first as
    often (the first start of a round follows a quiet wait, the others a closed pane). The
    cyclic order stays: with the four first-frame subjects, the empty room starts right
    after the floor in three rounds of four (in the fourth, it opens the round the floor ends)."""
    k = i % len(chosen) if chosen else 0
    return chosen[k:] + chosen[:k]


def run(ctx: Context) -> None:
    chosen = subjects(ctx)
    for subject in chosen:
        try:
            start_once(ctx, subject, record=False)
        except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
            ctx.results.fail(f"ttff.{subject.key}", f"warm-up: {err(exc)}")
            ctx.say(f"first frame: {subject.label}: warm-up failed: {err(exc)}")
    rounds = ctx.runs if ctx.quick else max(ctx.runs, MIN_ROUNDS)
    for i in range(rounds):
        got: dict[str, float] = {}
        for subject in round_order(chosen, i):
            if i >= ctx.runs and subject in ctx.peers:
                continue  # the peers' figures are for comparison: --runs of them
            if ctx.results.get(f"ttff.{subject.key}").errors and not ctx.results.get(f"ttff.{subject.key}").samples and i > 0:
                continue  # failed every time so far: do not burn the budget
            try:
                frame = start_once(ctx, subject, brain_rss=i < BRAIN_RSS_ROUNDS)
            except Exception as exc:  # noqa: BLE001
                ctx.results.fail(f"ttff.{subject.key}", err(exc))
                ctx.say(f"first frame: {subject.label}: run {i + 1} failed: {err(exc)}")
            else:
                if frame is not None:
                    got[subject.key] = frame
        ctx.results.add_round("ttff", got)
        ctx.say(f"first frame run {i + 1}/{rounds}: " + ", ".join(f"{k} {v:.3f}s" for k, v in got.items()))
    starts = ctx.results.get("ttff.started_quiet").samples
    if starts:
        ctx.results.note("first_frame", f"{int(sum(starts))} of {len(starts)} recorded starts began with the machine "
                                        f"quiet (under {QUIET_BUSY_SECS:g} CPU s in {QUIET_WINDOW_SECS:g} s); the others "
                                        f"after waiting {QUIET_AT_MOST_SECS:g} s for it.")
