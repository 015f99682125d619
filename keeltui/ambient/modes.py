"""Ambient settings: the mode dial and the cadence. Config imports these."""

from __future__ import annotations

import math

AMBIENT_MODES = ("off", "status", "notify")
DEFAULT_CADENCE_SECS = 300


def parse_mode(value: object) -> str:
    """The normalised mode; ValueError naming the allowed values otherwise."""
    if isinstance(value, str):
        mode = value.strip().lower()
        if mode in AMBIENT_MODES:
            return mode
    raise ValueError(f"unknown ambient mode {value!r}: allowed values are {', '.join(AMBIENT_MODES)}")


def parse_cadence(value: object) -> int:
    """Whole seconds between evaluations; non-positive or garbage → the default.

    Fractions round up so that 0.5 means "as often as possible" (1 s), not 0.
    """
    if isinstance(value, bool):  # bool is an int subclass; True is not "1 second"
        return DEFAULT_CADENCE_SECS
    try:
        secs = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return DEFAULT_CADENCE_SECS
    if not math.isfinite(secs) or secs <= 0:
        return DEFAULT_CADENCE_SECS
    return max(1, math.ceil(secs))
