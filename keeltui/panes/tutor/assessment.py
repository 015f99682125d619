"""The prober's assessment, shown as a card when the probe concludes."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from keeltui.text.textsafe import clean_text
from keeltui.tutor.session import AssessmentItem


class AssessmentCard(Static):
    """What the learner holds (the strands) and where their understanding thins (the edge)."""

    DEFAULT_CSS = """
    AssessmentCard {
        height: auto;
        margin: 1 1 0 1;
        padding: 0 1;
        border: round $secondary;
        border-title-align: left;
    }
    """

    def __init__(self, item: AssessmentItem, *, id: str | None = None) -> None:
        self.item = item
        super().__init__(self._renderable(), id=id)
        self.border_title = "Assessment"

    def _renderable(self) -> Group:
        lines = [Text("What you hold", style="bold")]
        if self.item.strands:
            lines.extend(Text(f"• {clean_text(strand)}") for strand in self.item.strands)
        else:
            lines.append(Text("Nothing yet — we start from the ground up.", style="dim"))
        lines.append(Text("Where it thins out", style="bold"))
        lines.append(Text(clean_text(self.item.edge)))
        return Group(*lines)

    def show_item(self, item: AssessmentItem) -> None:
        if item != self.item:
            self.item = item
            self.update(self._renderable())
