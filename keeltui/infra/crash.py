"""What the owner sees when something unexpected ends a command or the app: one line.

Never a traceback: a traceback with local variables prints the owner's message text
(and whatever else the frame held) to the terminal. The line names the exception and
the innermost keeltui file and line, which is enough to report it.
"""

from __future__ import annotations

import traceback

from keeltui.text.textsafe import one_line


def crash_line(exc: BaseException | None) -> str:
    if exc is None:
        return "keeltui stopped on an unexpected error"
    where = ""
    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
    ours = [f for f in frames if "/keeltui/" in f.filename.replace("\\", "/")]
    if ours or frames:
        frame = (ours or frames)[-1]
        where = f" (at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno})"
    return one_line(f"keeltui stopped on an unexpected error: {type(exc).__name__}: {exc}{where}", 300)
