"""Messages that workers post to the app (workers never touch widgets)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from keeltui.chief.streaming import StreamBuffer

if TYPE_CHECKING:  # the row is handed down as a value; widgets never import the store
    from keeltui.store import Message as Row


class ChiefReplyStarted(Message):
    """The reply row exists; its text arrives through ``buffer``, drained by the widget."""

    def __init__(self, row: Row, buffer: StreamBuffer) -> None:
        super().__init__()
        self.row = row
        self.buffer = buffer


class ChiefReplyFinished(Message):
    def __init__(self, row: Row | None, error: str | None) -> None:
        super().__init__()
        self.row = row
        self.error = error


class StoreWritten(Message):
    """A worker wrote rows through the app's own connection (which data_version does not see)."""


class BrainChecked(Message):
    """The start-up reachability check finished; ``problem`` is None when the brain answers."""

    def __init__(self, problem: str | None) -> None:
        super().__init__()
        self.problem = problem


class StatusMessage(Message):
    """A one-line notice for the status line."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
