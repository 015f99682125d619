"""Durations as people type them: 90s, 45m, 1h, 1h30m, 2d. Pure."""

from __future__ import annotations

import re

_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([smhd])")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> float:
    """Seconds in ``text``; a bare number means minutes. ValueError when unreadable."""
    cleaned = text.strip().lower().replace(" ", "")
    if not cleaned:
        raise ValueError("empty duration")
    if re.fullmatch(r"\d+(?:\.\d+)?", cleaned):
        seconds = float(cleaned) * 60
    else:
        position = 0
        seconds = 0.0
        for match in _PART.finditer(cleaned):
            if match.start() != position:
                break
            seconds += float(match.group(1)) * _UNITS[match.group(2)]
            position = match.end()
        if position != len(cleaned) or position == 0:
            raise ValueError(f"cannot read duration {text!r} (try 30m, 1h, 1h30m, 2d)")
    if seconds <= 0:
        raise ValueError(f"duration {text!r} must be positive")
    return seconds


def format_duration(seconds: float) -> str:
    """The one way a length of time is written (the room, the day, the CLI): 1h05m, 3m47s, 42s.

    Under an hour the seconds are kept, so the same 227 s reads "3m47s" everywhere;
    from an hour on, whole minutes (rounded down, like a clock).
    """
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m" if minutes else f"{hours}h"
    if minutes:
        return f"{minutes}m{secs:02d}s" if secs else f"{minutes}m"
    return f"{secs}s"
