"""A quiz card (multiple choice, answered from the keyboard) and an open-question card.

The cards draw what they are handed (a :class:`keeltui.tutor.session.QuizItem` or
``AskItem``); the pane decides whether a pick counts and stores it. A quiz is answered
with a number key, or by moving with the arrows and pressing Enter; the card then
shows the pick and the grade the pane hands back.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from keeltui.panes.common.bindings import bind
from keeltui.panes.common.theme_styles import themed
from keeltui.text.textsafe import clean_text
from keeltui.tutor.session import AskItem, QuizItem
from keeltui.tutor.transcript import DONT_KNOW

DONT_KNOW_TEXT = "I don't know"

MAX_CHOICES = 8


class QuizCard(Widget, can_focus=True):
    """One multiple-choice question; focusable only while it waits for a pick."""

    DEFAULT_CSS = """
    QuizCard {
        height: auto;
        margin: 1 1 0 1;
        padding: 0 1;
        border: round $accent 50%;
    }
    QuizCard.-active { border: round $accent; }
    QuizCard:focus { border: round $warning; background: $boost; }
    """

    BINDINGS = [
        Binding("up", "move(-1)", "Previous", show=False),
        Binding("down", "move(1)", "Next", show=False),
        bind("quiz_answer", "pick", "Answer"),
        bind("quiz_dont_know", "choose(0)", "I don't know", show=False),
        *(Binding(str(n), f"choose({n})", f"Choice {n}", show=False) for n in range(1, MAX_CHOICES + 1)),
    ]

    cursor: reactive[int] = reactive(0)

    class Answered(Message):
        """The learner picked ``choice`` (0-based, or ``DONT_KNOW``) on the quiz ``call_id``."""

        def __init__(self, card: QuizCard, call_id: str, choice: int) -> None:
            super().__init__()
            self.card = card
            self.call_id = call_id
            self.choice = choice

        @property
        def control(self) -> QuizCard:
            return self.card

    def __init__(self, item: QuizItem, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.item = item
        self._sync_classes()

    @property
    def call_id(self) -> str:
        return self.item.call_id

    @property
    def active(self) -> bool:
        return self.item.active and self.item.answer is None

    def show_item(self, item: QuizItem) -> None:
        """Redraw with new state (answered, active)."""
        if item != self.item:
            self.item = item
            self._sync_classes()
            self.refresh(layout=True)

    def _sync_classes(self) -> None:
        self.set_class(self.active, "-active")
        self.can_focus = self.active

    def render(self) -> Group:
        item = self.item
        head = Text("Quiz", style="bold")
        if item.node_id:
            # The learner knows the step by its title; the id is the model's handle.
            head.append(f"  · {clean_text(item.node_title or item.node_id)}", style="dim")
        lines = [head, Text(clean_text(item.question), style="bold")]
        for index, choice in enumerate(item.choices):
            lines.append(self._choice_line(index, choice))
        lines.append(self._dont_know_line())
        lines.append(self._footer())
        return Group(*lines)

    def _choice_line(self, index: int, choice: str) -> Text:
        item = self.item
        line = Text()
        if item.answer is None:
            pointer = "▸ " if self.active and index == self.cursor and self.has_focus else "  "
            line.append(pointer, style="bold")
            line.append(f"{index + 1}. {clean_text(choice)}")
            return line
        if index == item.answer:
            mark, style = ("✓ ", "bold $text-success") if item.graded else ("✗ ", "bold $text-error")
        elif index == item.correct and not item.graded:
            mark, style = ("→ ", "$text-success")
        else:
            mark, style = ("  ", "dim")
        line.append(mark + f"{index + 1}. {clean_text(choice)}", style=themed(self.app, style))
        return line

    def _dont_know_line(self) -> Text:
        """The way out on every quiz: not knowing is an answer, remembered for review."""
        item = self.item
        if item.answer is None:
            here = self.active and self.cursor == len(item.choices) and self.has_focus
            return Text(("▸ " if here else "  ") + f"0. {DONT_KNOW_TEXT}", style="italic")
        if item.answer == DONT_KNOW:
            return Text(f"✗ 0. {DONT_KNOW_TEXT}", style=themed(self.app, "bold $text-error"))
        return Text(f"  0. {DONT_KNOW_TEXT}", style="dim")

    def _footer(self) -> Text:
        item = self.item
        if item.answer is not None:
            if item.graded:
                return Text("Right.", style=themed(self.app, "$text-success"))
            right = f" — the answer was {item.correct + 1}" if item.correct is not None else ""
            head = "Not known" if item.answer == DONT_KNOW else "Not quite"
            return Text(f"{head}{right}. Kept in your mistakes (F4) for review.", style=themed(self.app, "$text-error"))
        if self.active:
            return Text(f"Press 1–{len(item.choices)} (0: I don't know), or ↑/↓ and Enter.", style="dim italic")
        return Text("Not answered.", style="dim")

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def watch_cursor(self) -> None:
        self.refresh()

    def action_move(self, step: int) -> None:
        if self.active and self.item.choices:
            # The choices, then "I don't know".
            self.cursor = (self.cursor + step) % (len(self.item.choices) + 1)

    def action_pick(self) -> None:
        self.action_choose(0 if self.cursor == len(self.item.choices) else self.cursor + 1)

    def action_choose(self, number: int) -> None:
        """Pick choice ``number`` (1-based); 0 is "I don't know"."""
        if not self.active:
            return
        if number == 0:
            self.cursor = len(self.item.choices)
            self.post_message(self.Answered(self, self.item.call_id, DONT_KNOW))
        elif 1 <= number <= len(self.item.choices):
            self.cursor = number - 1
            self.post_message(self.Answered(self, self.item.call_id, number - 1))


class AskCard(Static):
    """An open question; the answer is typed in the composer."""

    DEFAULT_CSS = """
    AskCard {
        height: auto;
        margin: 1 1 0 1;
        padding: 0 1;
        border-left: thick $accent;
    }
    """

    def __init__(self, item: AskItem, *, id: str | None = None) -> None:
        self.item = item
        super().__init__(self._renderable(), id=id)

    def _renderable(self) -> Group:
        lines = [Text("Question", style="bold"), Text(clean_text(self.item.question))]
        if self.item.active:
            lines.append(Text("Type your answer below and press Enter.", style="dim italic"))
        return Group(*lines)

    def show_item(self, item: AskItem) -> None:
        if item != self.item:
            self.item = item
            self.update(self._renderable())
