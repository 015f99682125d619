"""Put on PYTHONPATH by bench/measures/first_frame_work.py: the program exits the moment its
terminal output holds every text of KEEL_BENCH_FRAME_EXIT (separated by ``\\x1f``), so that
valgrind counts the instructions up to its first frame and no further.

Python imports ``sitecustomize`` at start-up; this one waits for Textual's Linux driver to be
imported and wraps its ``write``. Nothing else changes in the program. Self-contained (the
bench package is not on the subject's path).
"""

import os
import sys

_TEXTS = [t for t in os.environ.get("KEEL_BENCH_FRAME_EXIT", "").split("\x1f") if t]
_ESCAPES = os.environ.get("KEEL_BENCH_ESCAPES", "")
"""bench/screen_reading.ESCAPES's pattern (compiled with DOTALL), set by the measure: one rule
for what a terminal stream shows, though this file cannot import the bench."""
_DRIVER = "textual.drivers.linux_driver"


def shown(data: str) -> str:
    """``data`` without its escape sequences."""
    import re  # Textual has loaded it by the time anything is written

    return re.sub(_ESCAPES, "", data, flags=re.DOTALL)


def holds_all(written: list[str], texts: list[str]) -> bool:
    text = shown("".join(written))
    return all(t in text for t in texts)


class _WhenDriverLoads:
    """A meta-path finder that only watches for the driver's import, then steps aside."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != _DRIVER:
            return None
        sys.meta_path.remove(_FINDER)
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find else None
            if spec is not None:
                break
        else:
            return None
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            write = module.LinuxDriver.write
            written: list[str] = []

            def exiting_write(self, data):
                write(self, data)
                written.append(data)
                if holds_all(written, _TEXTS):
                    # The frame reaches the terminal first (Textual writes from a thread of
                    # its own), as the time measure sees it; then nothing more runs.
                    self._writer_thread.stop()
                    os._exit(0)

            module.LinuxDriver.write = exiting_write

        spec.loader.exec_module = exec_module
        return spec


_FINDER = _WhenDriverLoads()
if _TEXTS and not _ESCAPES:
    # Without the pattern no frame would ever match, and the program would run on unseen.
    sys.stderr.write("bench/frame_exit: KEEL_BENCH_ESCAPES is not set\n")
    os._exit(2)
if _TEXTS:
    sys.meta_path.insert(0, _FINDER)
