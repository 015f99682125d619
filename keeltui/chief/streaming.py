"""Where a streamed reply can be cut into blocks that will not change. Pure.

A block is settled once a blank line follows it outside a code fence: later text
cannot change how it renders, so it is drawn once and only the tail is redrawn.
"""

from __future__ import annotations

import threading


class StreamBuffer:
    """Pieces of a reply in flight: the worker appends, the widget drains on its timer.

    A plain object, not a widget, so the worker never touches the UI; and no message
    per token, so a burst of thousands of pieces never floods the message queue.
    """

    def __init__(self) -> None:
        self._pieces: list[str] = []
        self._lock = threading.Lock()

    def append(self, text: str) -> None:
        with self._lock:
            self._pieces.append(text)

    def drain(self) -> str:
        with self._lock:
            text = "".join(self._pieces)
            self._pieces.clear()
        return text


def split_settled(text: str) -> tuple[list[str], str]:
    """The settled blocks of ``text`` (in order) and the unsettled tail."""
    blocks: list[str] = []
    current: list[str] = []
    in_fence = False
    lines = text.split("\n")
    # The last element is the line still being written: never settled on its own.
    for line in lines[:-1]:
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
        if not line.strip() and not in_fence:
            if current:
                blocks.append("\n".join(current))
                current = []
            continue
        current.append(line)
    current.append(lines[-1])
    tail = "\n".join(current)
    return blocks, tail.lstrip("\n")
