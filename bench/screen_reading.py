"""Pure parts of the paging and code-stream measures: what the screen says, and what each
key's answer time was. No tmux here (tests/unit/test_bench_parts.py checks them)."""

from __future__ import annotations

import re

# The seeded room's rows (bench/env.py::seed_room): "Turn 12: …", "Reply 13. …",
# "Nightly backup finished (49)." — each names its row number.
_ROW = re.compile(r"\b(?:Turn|Reply) (\d+)[:.]|\bfinished \((\d+)\)")
# The streamed code block's lines (bench/measures/code_stream.py): "line 01234 = …".
_CODE_LINE = re.compile(r"\bline (\d{5}) =")


def rows_on_screen(screen: str) -> list[int]:
    """The row numbers the screen shows, top to bottom."""
    return [int(a or b) for a, b in _ROW.findall(screen)]


def top_row(screen: str) -> int | None:
    """The oldest row number in view (None: no numbered row shows)."""
    rows = rows_on_screen(screen)
    return min(rows) if rows else None


def pages_moved(top_before: int, top_after: int, rows_per_page: float) -> float:
    """How many pages the view moved up, from the rows a single unhurried press moves."""
    if rows_per_page <= 0:
        raise ValueError("a page must move at least one row")
    return (top_before - top_after) / rows_per_page


def answer_times(presses: list[float], writes: list[float]) -> list[float | None]:
    """For each key press (the time it left tmux), how long until the app next wrote to the
    terminal; None when it never did. A press the app folded into the next one's frame is
    answered by that frame: that is what the person saw."""
    out: list[float | None] = []
    ordered = sorted(writes)
    i = 0
    for press in presses:
        while i < len(ordered) and ordered[i] < press:
            i += 1
        out.append(ordered[i] - press if i < len(ordered) else None)
    return out


def last_code_line(screen: str) -> int | None:
    """The highest code-block line number in view."""
    numbers = [int(n) for n in _CODE_LINE.findall(screen)]
    return max(numbers) if numbers else None


def gc_pauses(log_text: str) -> list[tuple[int, float, float | None]]:
    """Each collection as (generation, pause in ms, CPU ms or None), from keeltui/infra/
    gc_pauses.py's lines ("gen ms collected cpu_ms"; older ones lack the CPU time)."""
    out: list[tuple[int, float, float | None]] = []
    for line in log_text.splitlines():
        parts = line.split()
        if len(parts) in (3, 4):
            try:
                out.append((int(parts[0]), float(parts[1]), float(parts[3]) if len(parts) == 4 else None))
            except ValueError:
                continue  # a line cut short by a read while it was written
    return out


def gc_pauses_ms(log_text: str) -> list[float]:
    """Each collection's pause, in ms (see :func:`gc_pauses`)."""
    return [ms for _, ms, _ in gc_pauses(log_text)]


ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"          # CSI: cursor moves, colours, modes
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: title, clipboard, hyperlinks
    r"|\x1b[P^_].*?\x1b\\"              # DCS, PM, APC
    r"|\x1b[()][0-9A-Za-z]"             # character sets
    r"|\x1b[@-Z\\-_a-z=>78]",           # the two-byte ones
    re.DOTALL,
)
"""Escape sequences in a terminal stream; bench/frame_exit reads the same pattern (passed in
its environment, as it cannot import the bench)."""


def shown_text(data: bytes) -> str:
    """What a terminal stream writes as text, its escape sequences taken out (a screen's rows
    run together; a text drawn in one row, whatever its colours, reads whole)."""
    return ESCAPES.sub("", data.decode("utf-8", errors="replace"))


def written_at(data: bytes, times: str, *texts: str) -> float | None:
    """When the terminal stream ``data`` (pieces stamped in ``times``: "<monotonic> <length>"
    lines, bench/pipe_stamp.py) had written every one of ``texts``: the stamp of the piece
    that completed them; None if it never did."""
    end = 0
    for line in times.splitlines():
        try:
            stamp, length = line.split()
            at, end = float(stamp), end + int(length)
        except ValueError:
            continue  # a line cut short while it was written
        shown = shown_text(data[:end])
        if all(text in shown for text in texts):
            return at
    return None
