"""A reasoning model's thinking, kept apart from its answer. Pure.

Models send their reasoning two ways: as ``reasoning_content`` (or ``reasoning``)
deltas beside the answer's ``content``, or inside the content itself as a leading
``<think>…</think>`` block (Ollama's and vLLM's reasoning models). The block's tags may
be cut anywhere by the stream's chunking: :class:`ThinkSplitter` holds back only the
few characters that could still become a tag, so the answer streams as it comes and
never shows a stray ``<thi``. The thinking is shown dim and folded above the answer
("thought for 12 s"), and it is never part of the reply's text or of the context sent
back.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from rich.text import Text

from keeltui.text.textsafe import clean_text

OPEN = "<think>"
CLOSE = "</think>"

THINKING = "thinking"
ANSWER = "answer"

LIVE_LINES = 3
"""Lines of the thinking shown under its label while it streams (the newest)."""


def split_think(text: str) -> tuple[str, str]:
    """``(thinking, answer)`` of a whole reply: the reference the streaming split agrees with.

    Only a leading block counts (whitespace before it allowed): ``<think>`` later in an
    answer is the answer's own text. An unclosed block is all thinking. The blank lines
    between the block and the answer are dropped.
    """
    stripped = text.lstrip()
    if not stripped.startswith(OPEN):
        return "", text
    rest = stripped[len(OPEN):]
    end = rest.find(CLOSE)
    if end < 0:
        return rest, ""
    return rest[:end], rest[end + len(CLOSE):].lstrip()


def _partial_suffix(text: str, tag: str) -> int:
    """Length of the longest end of ``text`` that is a start of ``tag`` (it may still become it)."""
    for size in range(min(len(text), len(tag) - 1), 0, -1):
        if tag.startswith(text[-size:]):
            return size
    return 0


class ThinkSplitter:
    """Splits streamed content into thinking and answer pieces, over any chunking.

    ``feed`` returns the ``(THINKING | ANSWER, text)`` pieces that are certain so far;
    ``finish`` returns what was held back at the end. Joined, the pieces of each kind
    equal :func:`split_think` of the whole text.
    """

    def __init__(self) -> None:
        self._state = "start"  # start → thinking → after (blank lines dropped) → answer
        self._held = ""

    def feed(self, piece: str) -> list[tuple[str, str]]:
        self._held += piece
        out: list[tuple[str, str]] = []
        while self._held:
            if self._state == "start":
                stripped = self._held.lstrip()
                if stripped.startswith(OPEN):
                    self._state = "thinking"
                    self._held = stripped[len(OPEN):]
                elif OPEN.startswith(stripped):
                    return out  # only whitespace or a tag's beginning so far: wait
                else:
                    self._state = ANSWER
            elif self._state == "thinking":
                end = self._held.find(CLOSE)
                if end >= 0:
                    if end:
                        out.append((THINKING, self._held[:end]))
                    self._held = self._held[end + len(CLOSE):]
                    self._state = "after"
                    continue
                keep = _partial_suffix(self._held, CLOSE)
                ready = self._held[: len(self._held) - keep]
                if ready:
                    out.append((THINKING, ready))
                self._held = self._held[len(ready):]
                return out
            elif self._state == "after":
                self._held = self._held.lstrip()
                if self._held:
                    self._state = ANSWER
            else:
                out.append((ANSWER, self._held))
                self._held = ""
        return out

    def finish(self) -> list[tuple[str, str]]:
        """What was held back once the stream ended (a tag's beginning that never became one)."""
        held, self._held = self._held, ""
        if not held:
            return []
        if self._state == "thinking":
            return [(THINKING, held)]
        if self._state == "after":
            return []  # only blank lines after the block
        return [(ANSWER, held)]


def thought_label(seconds: float | None) -> str:
    """"thought for 12 s" (or "2 min 5 s"); without a measured time, just "thought"."""
    if seconds is None:
        return "thought"
    whole = max(1, round(seconds))
    if whole < 60:
        return f"thought for {whole} s"
    minutes, secs = divmod(whole, 60)
    return f"thought for {minutes} min {secs} s" if secs else f"thought for {minutes} min"


def thinking_block(text: str, seconds: float | None, *, live: bool, unfolded: bool) -> Text | None:
    """The dim block drawn above a reply's answer; None when there was no thinking.

    Live (the model still thinks): its label with the seconds so far and the newest
    lines. Afterwards folded to one line, or the whole thinking. (The key that unfolds it
    is the footer's to name: it may be remapped.)
    """
    body = clean_text(text).strip("\n")
    if not body.strip():
        return None
    block = Text(style="dim")
    if live:
        shown = max(0, round(seconds or 0))
        block.append(f"▾ thinking… {shown} s", style="dim italic")
        for line in body.splitlines()[-LIVE_LINES:]:
            block.append("\n" + line)
        return block
    if not unfolded:
        block.append(f"▸ {thought_label(seconds)}", style="dim italic")
        return block
    block.append(f"▾ {thought_label(seconds)}", style="dim italic")
    block.append("\n" + body)
    return block


class LiveThinking:
    """The thinking of a reply in flight: the worker appends, the widget reads on its timer.

    It also times the thinking: from its first piece to the answer's first piece (or
    the stream's end), which is the "12 s" of "thought for 12 s".
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._pieces: list[str] = []
        self._joined = ""  # the pieces joined once per change, not at every read
        self._started: float | None = None
        self._ended: float | None = None
        self.version = 0
        """Bumped at every change: the widget redraws the block only when it moved."""

    def append(self, piece: str) -> None:
        with self._lock:
            if self._started is None:
                self._started = self._clock()
            self._pieces.append(piece)
            self.version += 1

    def end(self) -> None:
        """The answer began (or the stream ended): the thinking's time stops here."""
        with self._lock:
            if self._started is not None and self._ended is None:
                self._ended = self._clock()
                self.version += 1

    @property
    def text(self) -> str:
        with self._lock:
            if self._pieces:
                self._joined += "".join(self._pieces)
                self._pieces.clear()
            return self._joined

    @property
    def ended(self) -> bool:
        return self._ended is not None

    def seconds(self) -> float | None:
        """How long it thought (so far, while it still thinks); None before any thinking."""
        with self._lock:
            if self._started is None:
                return None
            return (self._ended if self._ended is not None else self._clock()) - self._started


__all__ = [
    "ANSWER",
    "CLOSE",
    "OPEN",
    "THINKING",
    "LiveThinking",
    "ThinkSplitter",
    "split_think",
    "thinking_block",
    "thought_label",
]
