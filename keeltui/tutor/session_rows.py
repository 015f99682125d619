"""A tutor session as the lists show it, and the date format they use.

Pure values, so the session-list widget can draw a row without importing the
service that reads the store (keeltui.services.tutor_records builds the rows).
"""

from __future__ import annotations

import time
from dataclasses import dataclass


def stamp(seconds: float) -> str:
    """A local date and time, as the lists show it."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


@dataclass(frozen=True)
class SessionRow:
    """One tutor session as a list shows it."""

    id: int
    title: str
    created_at: float
    updated_at: float
    phase: str
    progress: str
