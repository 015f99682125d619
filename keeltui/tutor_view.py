"""The tutor pane (filled in by the tutor capability)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static


class TutorPane(Vertical):
    def __init__(self, *, id: str | None = None, **kwargs) -> None:
        super().__init__(id=id)

    def compose(self) -> ComposeResult:
        yield Static("The tutor arrives soon.", markup=False)
