"""Messages that workers post to the app (workers never touch widgets)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from keeltui.chief.streaming import StreamBuffer

if TYPE_CHECKING:  # the row is handed down as a value; widgets never import the store
    from keeltui.store import Row


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
    """A one-line notice for the status line; with ``replaces``, only if the line says that
    (a room clearing its own line must not wipe a newer, unrelated one)."""

    def __init__(self, text: str, *, replaces: str | None = None) -> None:
        super().__init__()
        self.text = text
        self.replaces = replaces


class SendFailed(Message):
    """The owner's message could not be stored (``problem``), or None: a send worked again.
    The app holds the line until then (other lines give way to a database problem)."""

    def __init__(self, problem: str | None) -> None:
        super().__init__()
        self.problem = problem


class BrainAnswered(Message):
    """A Chief reply ended: ``problem`` when the brain is gone, None when it answered."""

    def __init__(self, problem: str | None) -> None:
        super().__init__()
        self.problem = problem


class ModelChanged(Message):
    """The owner chose another model: the status line names the Chief's."""


class ContextChanged(Message):
    """The tutor's open session has a new context percentage or warning ("" clears).

    Posted by the tutor pane (attributes down, messages up); the app decides where
    it shows: the status line only while the tutor is in view, the status file always.
    """

    def __init__(self, session_id: int | None, context_text: str, warning: str = "") -> None:
        super().__init__()
        self.session_id = session_id
        self.context_text = context_text
        self.warning = warning


class ChiefFirstChunk(Message):
    """The reply's first text arrived: the working indicator's job is done."""


class AmbientChanged(Message):
    """The ambient controller's state changed: the values the status line, the banner
    and the status file show (attributes down: the app copies them onto itself)."""

    def __init__(
        self, line: str, focus_text: str, judge: str, *,
        snoozed_until: float = 0.0, mode: str = "", away: bool = False, no_evidence: bool = False,
    ) -> None:
        super().__init__()
        self.line = line
        self.focus_text = focus_text
        self.judge = judge
        self.snoozed_until = snoozed_until
        self.mode = mode
        self.away = away
        self.no_evidence = no_evidence


class JudgeFailed(Message):
    """The drift judge could not reach the brain; the app treats the brain as offline
    (and re-probes it) until it answers again."""

    def __init__(self, problem: str) -> None:
        super().__init__()
        self.problem = problem
