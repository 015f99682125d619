"""Editing your last message: a visible state with a way out. Pure.

Ctrl+↑ puts the last user turn back in the composer. From then until Enter or Escape
the composer says so; Enter resends in its place (the old exchange stays, as an earlier
version), Escape puts back the draft the composer held before. Only a send made while
this state is shown is an edit: the state is the one thing that says so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    user_id: int
    """The user turn being edited."""
    sent_at: float
    """When that turn was sent (epoch seconds), for the note."""
    draft: str
    """What the composer held when the edit began: Escape puts it back."""

    def note(self) -> str:
        """The line the composer shows while the edit is open."""
        stamp = time.strftime("%H:%M", time.localtime(self.sent_at)) if self.sent_at else "earlier"
        return f"editing your message of {stamp} · Enter resends · Esc cancels"
