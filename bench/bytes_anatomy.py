"""Where a terminal stream's bytes go: frames, full repaints, colour codes, cursor moves, text.

Pure: takes the bytes a program wrote to its terminal (``tmux pipe-pane``) and returns
counts. Frames: Textual wraps each frame in synchronized-output marks (``ESC[?2026h`` …
``ESC[?2026l``) where the terminal supports them; otherwise (tmux 3.3) the pieces' arrival
times (bench/pipe_stamp.py) split the stream: pieces less than FRAME_GAP apart are one frame.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass

FRAME_START = b"\x1b[?2026h"
FRAME_GAP = 0.004
FULL_FRAME_BYTES = 4000
"""A frame this large repaints (most of) the screen: at 120x40 a full frame is ~8–20 KB."""
SGR = re.compile(rb"\x1b\[[0-9;:]*m")
CURSOR = re.compile(rb"\x1b\[[0-9;]*[HfABCDG]")
OTHER_ESC = re.compile(rb"\x1b(\[[0-9;?:]*[A-Za-z]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-B]|[=>78])")


@dataclass
class Anatomy:
    total: int
    frames: int
    full_frames: int
    full_bytes: int
    small_frame_median: float
    sgr: int
    cursor: int
    other_escapes: int
    text: int

    def share(self, part: int) -> float:
        return 100 * part / self.total if self.total else 0.0


def frames_by_time(pieces: list[tuple[float, int]]) -> list[int]:
    """Sizes of the frames in (arrival time, length) pieces: a gap over FRAME_GAP starts a new frame."""
    sizes: list[int] = []
    last = None
    for at, length in pieces:
        if last is None or at - last > FRAME_GAP:
            sizes.append(0)
        sizes[-1] += length
        last = at
    return sizes


def anatomy(data: bytes, pieces: list[tuple[float, int]] | None = None) -> Anatomy:
    if FRAME_START in data or not pieces:
        sizes = [len(p) + len(FRAME_START) for p in data.split(FRAME_START) if p] or [len(data)]
    else:
        sizes = frames_by_time(pieces)
    full = [n for n in sizes if n >= FULL_FRAME_BYTES]
    small = [n for n in sizes if n < FULL_FRAME_BYTES]
    sgr = sum(len(m) for m in SGR.findall(data))
    cursor = sum(len(m.group(0)) for m in CURSOR.finditer(data))
    other = sum(len(m.group(0)) for m in OTHER_ESC.finditer(data)) - sgr - cursor
    return Anatomy(
        total=len(data), frames=len(sizes), full_frames=len(full), full_bytes=sum(full),
        small_frame_median=statistics.median(small) if small else 0.0,
        sgr=sgr, cursor=cursor, other_escapes=max(other, 0), text=max(len(data) - sgr - cursor - max(other, 0), 0),
    )


def arrival_of(data: bytes, pieces: list[tuple[float, int]], needle: bytes) -> float | None:
    """When the piece holding the first byte of ``needle``'s first occurrence reached tmux (None: not found)."""
    at = data.find(needle)
    if at < 0 or not pieces:
        return None
    seen = 0
    for arrived, length in pieces:
        seen += length
        if seen > at:
            return arrived
    return None


def describe(a: Anatomy, text_bytes: int) -> str:
    """One sentence for RESULTS.md."""
    return (
        f"{a.total / 1000:.0f} KB for {text_bytes / 1000:.1f} KB of text in {a.frames} frames: "
        f"{a.full_frames} full repaints (≥ {FULL_FRAME_BYTES // 1000} KB) carry {a.share(a.full_bytes):.0f} % of the "
        f"bytes, the other frames {a.small_frame_median:.0f} B each (median); by kind, colour/style codes (SGR) "
        f"{a.share(a.sgr):.0f} %, cursor moves {a.share(a.cursor):.0f} %, other escapes {a.share(a.other_escapes):.0f} %, "
        f"printed characters {a.share(a.text):.0f} %"
    )
