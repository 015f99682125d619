"""Where a program's start goes, up to its first full frame (a development aid, not a measure).

    python -m bench.profile_start OUT.prof -- keeltui --config FILE    # cProfile
    python -m bench.profile_start OUT.txt --phases -- keeltui --config FILE
    python -m bench.profile_start OUT.txt --phases -- floor

Run it in a tmux pane. cProfile (or the phase clock) starts before the app's imports
and stops at the first large write to the terminal (the first full frame); the app
keeps running. ``--phases`` writes "imports <s>" and "to_frame <s>" (after the imports).
"""

from __future__ import annotations

import cProfile
import runpy
import sys
import time
from pathlib import Path

FRAME_BYTES = 2000
FLOOR_APP = str(Path(__file__).with_name("floor_app.py"))


def main() -> None:
    args = sys.argv[1:]
    out = args.pop(0)
    phases = args[0] == "--phases"
    if phases:
        args.pop(0)
    assert args and args.pop(0) == "--" and args, __doc__
    t0 = time.perf_counter()
    profiler = None if phases else cProfile.Profile()
    if profiler is not None:
        profiler.enable()
    if args[0] == "floor":
        import textual.app  # noqa: F401 - the floor's own imports
        from textual.widgets import Footer, Header, Static  # noqa: F401
    else:
        import keeltui.app
        import keeltui.cli.commands  # noqa: F401
    t_imports = time.perf_counter()
    from textual.drivers.linux_driver import LinuxDriver

    original = LinuxDriver.write
    state = {"done": False}

    def write(self, data: str) -> None:
        original(self, data)
        if not state["done"] and len(data) >= FRAME_BYTES:
            state["done"] = True
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(out)
            else:
                now = time.perf_counter()
                Path(out).write_text(f"imports {t_imports - t0:.4f}\nto_frame {now - t_imports:.4f}\n")

    LinuxDriver.write = write
    if args[0] == "floor":
        sys.argv = ["floor_app"]
        runpy.run_path(FLOOR_APP, run_name="__main__")
    else:
        from keeltui.cli.commands import main as keeltui_main

        sys.exit(keeltui_main(args[1:]))


if __name__ == "__main__":
    main()
