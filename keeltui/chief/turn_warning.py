"""Context warnings for conversations that can end (tutor sessions), never the Chief.

A warning fires only when a conversation first crosses a level (warning, then
emergency), at most once per turn; dropping back below re-arms it. The level map
lives in memory: a restart costs at most one repeat.
"""

from __future__ import annotations

from dataclasses import dataclass, field

NONE, WARNING, EMERGENCY = 0, 1, 2


@dataclass(frozen=True)
class Levels:
    warning: float = 0.5
    emergency: float = 0.8


def level_of(fraction: float, levels: Levels) -> int:
    if fraction >= levels.emergency:
        return EMERGENCY
    if fraction >= levels.warning:
        return WARNING
    return NONE


def warning_text(level: int, fraction: float) -> str:
    percent = round(fraction * 100)
    if level == EMERGENCY:
        return f"CTX emergency: context {percent}% full — start a new session now."
    return f"CTX warning: context {percent}% full — consider a new session before long work."


@dataclass
class TurnWarner:
    """Holds the warned level per conversation; call :meth:`turn_warning` on every usage."""

    warned: dict[int, int] = field(default_factory=dict)

    def turn_warning(
        self,
        conversation_id: int,
        fraction: float,
        levels: Levels,
        turn_warnings: list[str],
        *,
        is_chief: bool = False,
    ) -> str | None:
        """The warning to show for this usage, or None.

        ``turn_warnings`` is the list of warnings already raised in the current turn;
        a returned warning is appended to it.
        """
        if is_chief:
            return None
        level = level_of(fraction, levels)
        if level == NONE:
            self.warned.pop(conversation_id, None)
            return None
        if level <= self.warned.get(conversation_id, NONE):
            return None
        if any(text.startswith("CTX ") for text in turn_warnings):
            return None
        text = warning_text(level, fraction)
        self.warned[conversation_id] = level
        turn_warnings.append(text)
        return text
