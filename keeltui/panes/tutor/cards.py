"""Small tutor widgets: a failed turn's card with Retry, and the waiting indicator.

They draw what they are handed and post what the learner asks for; the tutor pane
decides what it means.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Collapsible, Static

from keeltui.panes.common.theme_styles import themed
from keeltui.text.textsafe import clean_text

if TYPE_CHECKING:
    from textual.timer import Timer

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
SPIN_SECS = 0.1


class TurnErrorCard(Vertical):
    """A turn that failed or was stopped: the whole reason, wrapped, and Retry."""

    DEFAULT_CSS = """
    TurnErrorCard { height: auto; margin: 1 1 0 1; padding: 0 1; border-left: thick $error; }
    TurnErrorCard #turn-error-text { height: auto; }
    TurnErrorCard #turn-retry { margin-top: 1; min-width: 14; }
    """

    class RetryRequested(Message):
        """The learner pressed Retry on the card."""

    def __init__(self, reason: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.reason = reason

    def compose(self) -> ComposeResult:
        yield Static(self._text(), id="turn-error-text")
        yield Button("Retry (F5)", id="turn-retry", variant="error", compact=True)

    def _text(self) -> Text:
        text = Text("The tutor did not answer", style=themed(self.app, "bold $text-error"))
        # The whole reason, wrapped: a status line would cut it (and the HTTP status with it).
        text.append("\n" + clean_text(self.reason))
        return text

    def show_reason(self, reason: str) -> None:
        if reason != self.reason:
            self.reason = reason
            self.query_one("#turn-error-text", Static).update(self._text())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.RetryRequested())


class ThinkingIndicator(Static):
    """An animated line near the composer from send to the first streamed text."""

    DEFAULT_CSS = """
    ThinkingIndicator { height: 1; padding: 0 2; color: $accent; display: none; }
    ThinkingIndicator.-on { display: block; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self._frame = 0
        self._label = ""
        self._timer: Timer | None = None

    def start(self, label: str) -> None:
        """Show ``label`` with a spinner (a no-op while it already shows it)."""
        self._label = label
        if self._timer is None:
            self._timer = self.set_interval(SPIN_SECS, self._spin)
        self.add_class("-on")
        self._draw()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.remove_class("-on")

    @property
    def running(self) -> bool:
        return self._timer is not None

    def _spin(self) -> None:
        self._frame = (self._frame + 1) % len(SPINNER)
        self._draw()

    def _draw(self) -> None:
        self.update(f"{SPINNER[self._frame]} {self._label}  ·  Esc stops")


class OneLine:
    """A head, a title and a tail on one line: a long title is cut with "…", never the
    head or the tail (a job's state)."""

    def __init__(self, head: Text, title: str, tail: Text) -> None:
        self.head, self.title, self.tail = head, title, tail

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        room = max(1, options.max_width - self.head.cell_len - self.tail.cell_len)
        title = Text(self.title)
        title.truncate(room, overflow="ellipsis")
        yield Text.assemble(self.head, title, self.tail, no_wrap=True, overflow="ellipsis")


class JobCard(Static):
    """A background job the teacher started: what it does and where it stands."""

    DEFAULT_CSS = """
    JobCard { height: auto; margin: 1 1 0 1; padding: 0 1; border-left: thick $secondary; color: $text-muted; }
    JobCard.-running { color: $text; }
    """

    MARKS = {"running": "⧗", "held": "⧗", "done": "✓", "failed": "✗", "aborted": "·", "interrupted": "·"}
    WORDS = {
        "running": "running · F9 aborts",
        "held": "landed — waits for the turn to end",
        "done": "done — the result is below",
        "failed": "failed — see below",
        "aborted": "aborted",
        "interrupted": "interrupted (keeltui stopped before it finished)",
    }

    def __init__(self, item, *, live: bool, held: str | None = None) -> None:
        self.item = item
        self.live = live
        self.held = held or ""  # the status of its outcome, held by the jobs service until the turn ends
        super().__init__(self._text(), markup=False)
        self.set_class(self._status() == "running", "-running")

    def _status(self) -> str:
        if self.item.status == "running" and self.held:
            return "aborted" if self.held == "aborted" else "held"
        if self.item.status == "running" and not self.live:
            return "interrupted"
        return self.item.status

    def _text(self) -> OneLine:
        status = self._status()
        return OneLine(Text(f"{self.MARKS.get(status, '·')} {self.item.kind.capitalize()} job: ", style="bold"),
                       clean_text(self.item.title).replace("\n", " "),
                       Text(f"  ·  {self.WORDS.get(status, status)}", style="dim"))

    def show_item(self, item, live: bool | None = None, held: str | None = None) -> None:
        self.item = item
        if live is not None:
            self.live = live
        if held is not None:
            self.held = held
        self.set_class(self._status() == "running", "-running")
        self.update(self._text())


def job_result_card(item) -> Widget:
    """A landed job: a collapsible card with its result; an abort is a quiet mark."""
    from rich.markdown import Markdown

    if item.status == "aborted":
        return AbortedJobMark(item)
    title = f"{item.kind.capitalize()}: {clean_text(item.title)} — {'result' if item.status == 'done' else 'failed'}"
    card = JobResult(Static(Markdown(clean_text(item.text))), title=title.replace("\n", " "),
                     collapsed=item.status == "done", classes="job-result")
    card.styles.margin = (1, 1, 0, 1)
    return card


class JobResult(Collapsible):
    """A landed job's result; a long title is cut with "…" on its one line."""

    DEFAULT_CSS = """
    JobResult > CollapsibleTitle { width: 1fr; text-wrap: nowrap; text-overflow: ellipsis; }
    """


class AbortedJobMark(Horizontal):
    """A job the learner aborted: a quiet mark, and a button that runs it again."""

    DEFAULT_CSS = """
    AbortedJobMark { height: auto; margin: 1 1 0 2; }
    AbortedJobMark > .job-aborted { width: auto; color: $text-muted; text-style: italic; }
    AbortedJobMark > Button { margin-left: 2; min-width: 12; }
    """

    class RerunRequested(Message):
        """The learner asked to run the aborted job again."""

        def __init__(self, kind: str, title: str) -> None:
            super().__init__()
            self.kind = kind
            self.title = title

    def __init__(self, item) -> None:
        super().__init__(classes="job-aborted-row")
        self.item = item

    def compose(self) -> ComposeResult:
        yield Static(f"· {self.item.kind} job aborted: {clean_text(self.item.title)}", classes="job-aborted",
                     markup=False)
        yield Button("Run again", id="job-rerun", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.RerunRequested(self.item.kind, self.item.title))
