"""Quiet Mode: a display state of the screen, not a fact about any row.

Two separate questions live here. *Who is viewing* — the screen, a doorway (``keeltui
chat``, ``log``, ``export``) — is refused while Quiet Mode is on. *Who owns a row* —
a report the owner's own jobs deliver — is never refused: it lands whatever the
screen shows and is there when Quiet Mode is turned off.
"""

from __future__ import annotations

from enum import Enum

QUIET_MODE_REFUSAL = "Quiet Mode is on: Master Chief stays hidden until it is turned off."
QUIET_STATE_KEY = "quiet_mode"


class Access(Enum):
    VIEWER = "viewer"
    """A display or doorway: what the people in front of the screen may see."""
    OWNER = "owner"
    """The owner's own background delivery (reports): never blocked by a display state."""


class QuietModeRefusal(Exception):
    def __init__(self) -> None:
        super().__init__(QUIET_MODE_REFUSAL)


def quiet_mode_on(store) -> bool:
    """The persisted Quiet Mode flag (every process reads the same store)."""
    return bool(store.get_state(QUIET_STATE_KEY, False))


def check_access(access: Access, quiet_on: bool) -> None:
    """Raise :class:`QuietModeRefusal` when a viewer asks for the room in Quiet Mode."""
    if access is Access.VIEWER and quiet_on:
        raise QuietModeRefusal()


def screen_safe(text: str, quiet_on: bool) -> str:
    """What a shared surface (status line, banner, toast) may show of ``text``."""
    return "" if quiet_on else text
