"""Where a streamed reply can be cut into blocks that will not change. Pure.

A block is settled once a blank line follows it outside a code fence: later text
cannot change how it renders, so it is drawn once and only the tail is redrawn.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style

from keeltui.chief.thinking import LiveThinking


class StreamBuffer:
    """Pieces of a reply in flight: the worker appends, the widget drains on its timer.

    A plain object, not a widget, so the worker never touches the UI; and no message
    per token, so a burst of thousands of pieces never floods the message queue.
    """

    def __init__(self) -> None:
        self._pieces: list[str] = []
        self._lock = threading.Lock()
        # Any return value is ignored (e.g. the loop's Handle from call_soon_threadsafe).
        self._waker: Callable[[], object] | None = None
        self.thinking = LiveThinking()
        """A reasoning model's thinking, drawn above the reply's text (see chief/thinking.py)."""

    def set_waker(self, waker: Callable[[], object] | None) -> None:
        """``waker`` is called when a piece lands in an empty buffer, so the first
        chunk after a pause is drawn at once instead of at the next timer tick."""
        self._waker = waker

    def append(self, text: str) -> None:
        with self._lock:
            was_empty = not self._pieces
            self._pieces.append(text)
        if was_empty and self._waker is not None:
            self._waker()

    def drain(self) -> str:
        with self._lock:
            text = "".join(self._pieces)
            self._pieces.clear()
        return text


class SettledSplit:
    """:func:`split_settled` for a text that grows at its end (a reply streaming): each call
    reads only the lines that came since the last, so a long reply costs the new lines."""

    def __init__(self) -> None:
        self._start()

    def _start(self) -> None:
        self._read = ""
        """The text up to the end of the last complete line read."""
        self._blocks: list[str] = []
        self._current: list[str] = []
        self._in_fence = False

    def split(self, text: str) -> tuple[list[str], str]:
        """The settled blocks of ``text`` (in order) and the unsettled tail."""
        if not text.startswith(self._read):  # not the text read so far, grown: read it anew
            self._start()
        end = text.rfind("\n") + 1
        if end > len(self._read):
            # The last element is the line still being written: never settled on its own.
            for line in text[len(self._read):end - 1].split("\n"):
                self._add(line)
            self._read = text[:end]
        tail = "\n".join([*self._current, text[end:]])
        return list(self._blocks), tail.lstrip("\n")

    def _add(self, line: str) -> None:
        if line.lstrip().startswith(("```", "~~~")):
            self._in_fence = not self._in_fence
        if not line.strip() and not self._in_fence:
            if self._current:
                self._blocks.append("\n".join(self._current))
                self._current = []
            return
        self._current.append(line)


def split_settled(text: str) -> tuple[list[str], str]:
    """The settled blocks of ``text`` (in order) and the unsettled tail."""
    return SettledSplit().split(text)


def body_blocks(text: str) -> list[str]:
    """All blocks of a reply's text, the tail included (empty blocks dropped).

    Streamed and stored replies are drawn block by block from this one cut, so a
    reply looks the same while it streams and after a restart.
    """
    blocks, tail = split_settled(text)
    return [*blocks, tail] if tail.strip() else blocks


def _cells(segments: Iterable[Segment]) -> list[tuple[str, Style | None]]:
    cells: list[tuple[str, Style | None]] = []
    for text, style, _control in segments:
        for char in text:
            cells.append((char, style))
            cells.extend([("", style)] * (cell_len(char) - 1))  # a wide character's second cell
    return cells


def changed_span(old: Iterable[Segment], new: Iterable[Segment]) -> tuple[int, int] | None:
    """The columns ``[start, end)`` where two renderings of a line differ (None: equal).

    Text that streams in mostly lengthens the last line: repainting only the cells
    that changed, not the line across the pane, keeps a flush to the new words' bytes.
    """
    before: list[tuple[str | None, Style | None]] = list(_cells(old))
    after: list[tuple[str | None, Style | None]] = list(_cells(new))
    width = max(len(before), len(after))
    before += [(None, None)] * (width - len(before))  # past the line's end (not a wide char's half)
    after += [(None, None)] * (width - len(after))
    differ = [x for x in range(width) if before[x] != after[x]]
    if not differ:
        return None
    start, end = differ[0], differ[-1] + 1
    # Never half a wide character: its second cell ("") may compare equal while its first
    # changed, and a crop through it paints a blank where the character should be.
    while start > 0 and (after[start][0] == "" or before[start][0] == ""):
        start -= 1
    while end < width and (after[end][0] == "" or before[end][0] == ""):
        end += 1
    return start, end
