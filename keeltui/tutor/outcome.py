"""How a tutor turn ended: the value the turns service returns and the pane reads. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from keeltui.values import Usage


@dataclass(frozen=True)
class TurnOutcome:
    """How a run of agent turns ended (one learner action can run two: the wake)."""

    agent: str
    """The agent that answered last."""
    steps: int = 0
    """Model calls made."""
    woke_teacher: bool = False
    error: str | None = None
    """Why the turn was cut short (the pane shows it whole, on a card with Retry)."""
    warnings: tuple[str, ...] = ()
    """Context warnings raised (at most one per agent turn)."""
    usage: Usage | None = None
    """The last call's usage (its fraction is the live context percentage)."""
    stopped: bool = False
    """The learner stopped the turn (Escape); what had streamed is kept, marked."""

    @property
    def status_text(self) -> str | None:
        """What the status line should say about this run, if anything."""
        if self.error:
            return self.error
        return self.warnings[-1] if self.warnings else None


def failure_text(agent: str, reason: str, calls: int, refusal: str = "") -> str:
    """Why a turn failed, whole and on one line: the reason, the last refused call (the parser's
    line-precise refusal, the bad JSON) and the model calls the turn spent."""
    text = f"tutor ({agent}): {reason}"
    if refusal:
        text += f" · the last refused call: {refusal}"
    return text + f" · {calls} model call{'s' if calls != 1 else ''} spent in this turn · F5 tries again"
