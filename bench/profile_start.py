"""Profile a program's start up to its first full frame (a development aid, not a measure).

    python -m bench.profile_start OUT.prof -- keeltui --config FILE
    python -m bench.profile_start OUT.prof -- floor

Runs in the terminal it is started from (run it in a tmux pane): cProfile starts before
the first import, and stops at the first large write to the terminal (the first full
frame), then the app keeps running. Read OUT.prof with pstats.
"""

from __future__ import annotations

import cProfile
import runpy
import sys

FRAME_BYTES = 2000


def main() -> None:
    out, sep, *rest = sys.argv[1:]
    assert sep == "--" and rest, __doc__
    profiler = cProfile.Profile()
    profiler.enable()
    from textual.drivers.linux_driver import LinuxDriver

    original = LinuxDriver.write
    state = {"done": False}

    def write(self, data: str) -> None:
        original(self, data)
        if not state["done"] and len(data) >= FRAME_BYTES:
            state["done"] = True
            profiler.disable()
            profiler.dump_stats(out)

    LinuxDriver.write = write
    if rest[0] == "floor":
        sys.argv = ["floor_app"]
        runpy.run_path(__file__.replace("profile_start.py", "floor_app.py"), run_name="__main__")
    else:
        sys.argv = rest
        from keeltui.cli import main as keeltui_main

        sys.exit(keeltui_main(rest[1:]))


if __name__ == "__main__":
    main()
