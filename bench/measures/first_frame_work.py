"""The work to the first frame: instructions counted by valgrind (callgrind), the floor and keeltui.

Why a second figure beside the time: on a shared 2-core guest the machine's pace moves by
the second (a fixed pure-Python loop took 290-490 ms of CPU, run after run), so one start
of the same code takes 0.22-0.39 s, and the time lines between the floor and keeltui (30 %)
and between the rooms (5 %) sit inside that spread. The count of instructions a program
executes up to its first frame does not depend on the pace: the same start counts the same
within ~0.3 %. It leaves out the kernel's part (page faults, reading files), which the time
includes, so it is the floor of what the time line can show, not the time line itself.

Each subject runs under ``valgrind --tool=callgrind`` in a tmux pane (it needs a terminal),
with bench/frame_exit/ on PYTHONPATH: its ``sitecustomize`` ends the program the moment its
terminal output holds the subject's ready texts. Each subject's first start is its
first-frame warm-up, run natively (bench/measures/first_frame.start_once): what a first start
writes for the next (the CSS it parsed, 3 s in; the docless forms, at exit) is never written
by a program ended at its first frame, and without it keeltui counted ~60 M more. Then RUNS
recorded starts under valgrind.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

from bench.context import Context, Subject, err
from bench.measures.first_frame import start_once
from bench.measures.first_frame import subjects as frame_subjects
from bench.screen_reading import ESCAPES
from bench.tmux import Pane

RUNS = 2
FRAME_EXIT = Path(__file__).resolve().parent.parent / "frame_exit"
SLOWER = 80
"""How much slower a program runs under callgrind, at most (~45x seen): its time-out grows by it."""
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def counted(log: str) -> int | None:
    """The instructions callgrind's log says it collected (the "Collected : N" line)."""
    found = _COLLECTED.search(log)
    return int(found.group(1)) if found else None


def count_once(ctx: Context, subject: Subject, where: Path) -> int:
    log = where / "valgrind.log"
    log.unlink(missing_ok=True)
    env = {**subject.env, "PYTHONPATH": str(FRAME_EXIT), "KEEL_BENCH_FRAME_EXIT": "\x1f".join(subject.ready),
           "KEEL_BENCH_ESCAPES": ESCAPES.pattern}
    argv = ["valgrind", "--tool=callgrind", f"--log-file={log}", f"--callgrind-out-file={where / 'callgrind.out'}",
            *subject.argv]
    with Pane(env) as pane:  # the pane's server, and so the program, gets the exit hook's variables
        pane.launch(argv)
        deadline = time.monotonic() + subject.timeout * SLOWER
        while not pane.pane_dead():
            if time.monotonic() > deadline:
                raise TimeoutError(f"no first frame under valgrind after {subject.timeout * SLOWER:.0f} s; "
                                   f"screen: {pane.capture()[-200:]!r}")
            time.sleep(0.2)
    n = counted(log.read_text(errors="replace")) if log.exists() else None
    if n is None:
        raise RuntimeError(f"valgrind said no count ({log})")
    return n


def run(ctx: Context) -> None:
    if shutil.which("valgrind") is None:
        ctx.results.note("first_frame_work", "not measured: valgrind is not installed (Debian: apt-get install valgrind)")
        return
    for subject in [s for s in frame_subjects(ctx) if s not in ctx.peers]:
        where = ctx.workspace.fresh_dir(f"first-frame-work-{subject.key}")
        try:
            start_once(ctx, subject, record=False)
            for _ in range(RUNS):
                n = count_once(ctx, subject, where)
                ctx.results.add(f"work.{subject.key}", n)
                ctx.say(f"first frame work: {subject.label}: {n / 1e6:.0f} M instructions")
        except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
            ctx.results.fail(f"work.{subject.key}", err(exc))
            ctx.say(f"first frame work: {subject.label}: {err(exc)}")
