"""The bench's first-frame work measure ends a program at its first frame
(bench/frame_exit/sitecustomize.py on PYTHONPATH): the real floor app in tmux, no valgrind
needed to show that the frame was drawn and the program ended there, and only there."""

from __future__ import annotations

import importlib.util
import shlex
import sys
import time
from pathlib import Path

from bench.screen_reading import ESCAPES

ROOT = Path(__file__).resolve().parents[2]
FLOOR = ROOT / "bench" / "floor_app.py"
HOOK = ROOT / "bench" / "frame_exit"
READY = "keel bench floor ready"


def _hook(monkeypatch):
    monkeypatch.setenv("KEEL_BENCH_ESCAPES", ESCAPES.pattern)
    spec = importlib.util.spec_from_file_location("frame_exit_hook", HOOK / "sitecustomize.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # KEEL_BENCH_FRAME_EXIT unset here: installs nothing
    return module


def test_the_ready_texts_are_read_through_escapes_and_across_writes(monkeypatch):
    hook = _hook(monkeypatch)
    assert hook.shown("\x1b[1;31mkeel\x1b[0m \x1b]8;;http://x\x1b\\bench\x1b]8;;\x07\x1b7 floor") == "keel bench floor"
    assert hook.holds_all(["\x1b[2Jkeel ben", "ch floor ready\x1b[?25l", "Write to"], [READY, "Write to"])
    assert not hook.holds_all(["keel bench floor"], [READY])
    assert not hook.holds_all(["keel bench floor ready"], [READY, "Write to the Chief"])


def _launch(tmux, texts: str) -> None:
    env = {"PYTHONPATH": str(HOOK), "KEEL_BENCH_FRAME_EXIT": texts, "KEEL_BENCH_ESCAPES": ESCAPES.pattern}
    tmux.start(f"{shlex.quote(sys.executable)} {shlex.quote(str(FLOOR))}", env)


def test_the_program_ends_at_the_frame_that_holds_its_texts(tmux):
    _launch(tmux, READY)
    screen = tmux.wait_text(READY)  # the frame reached the terminal
    deadline = time.monotonic() + 30
    while not tmux.pane_dead():
        assert time.monotonic() < deadline, "the program did not end at its first frame"
        time.sleep(0.05)
    assert tmux._tmux("display", "-p", "#{pane_dead_signal}").stdout.strip() == ""  # it ended itself
    assert READY in screen


def test_a_program_whose_texts_never_show_keeps_running(tmux):
    _launch(tmux, f"{READY}\x1fa text no frame holds")
    tmux.wait_text(READY)
    time.sleep(1.0)  # well past the first frame: a hook that ended it regardless would have
    assert not tmux.pane_dead()
