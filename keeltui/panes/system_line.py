"""A system line: a report, summary or notice in the room, drawn apart from the talk.

Not a message bubble: a teal band, a badge where the companion's name would stand,
tighter spacing, none of a turn's actions. A summary starts folded; Enter unfolds it.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from keeltui.chief.turn_kinds import SUMMARY, badge
from keeltui.panes.bindings import bind
from keeltui.panes.message import copy_row_text
from keeltui.textsafe import clean_text, looks_like_markdown


class SystemLine(Widget, can_focus=True):
    DEFAULT_CSS = """
    SystemLine {
        height: auto;
        margin: 1 1 0 1;
        padding: 0 1;
        background: #0e4f4f;
        color: #d8f3f0;
    }
    SystemLine.-folded {
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    SystemLine:focus {
        background: #147070;
    }
    """

    BINDINGS = [
        bind("fold_summary", "toggle_fold", "Fold/unfold"),
        bind("copy_message", "copy", "Copy"),
    ]

    folded: reactive[bool] = reactive(True)

    def __init__(self, row_id: int, turn_kind: str, content: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.row_id = row_id
        self.turn_kind = turn_kind
        self.row_text = content
        self.folded = turn_kind == SUMMARY
        self.set_class(self.folded, "-folded")

    @property
    def foldable(self) -> bool:
        return self.turn_kind == SUMMARY

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Only a summary folds: elsewhere Enter is not offered in the footer.
        return self.foldable if action == "toggle_fold" else True

    def action_toggle_fold(self) -> None:
        if self.foldable:
            self.folded = not self.folded

    def action_copy(self) -> None:
        copy_row_text(self, self.row_text)

    def watch_folded(self, folded: bool) -> None:
        self.set_class(folded and self.foldable, "-folded")
        self.refresh(layout=True)

    def render(self):
        label = Text(f" {badge(self.turn_kind)} ", style="bold #0e4f4f on #7fe0d6")
        body = clean_text(self.row_text)
        if self.foldable and self.folded:
            # Folded: one line, clipped to the width, with the way to unfold it.
            first = body.strip().splitlines()[0] if body.strip() else ""
            line = Text.assemble(label, (" ▸ ", "bold"), (first, "italic"), no_wrap=True, overflow="ellipsis")
            return line
        marker = (" ▾ ", "bold") if self.foldable else " "
        if looks_like_markdown(body):
            # Reports are often Markdown (a list, `code`, **bold**): drawn, not shown raw.
            from rich.console import Group
            from rich.markdown import Markdown

            return Group(Text.assemble(label, marker), Markdown(body))
        return Text.assemble(label, marker, body)
