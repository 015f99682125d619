"""The plan map (where the learner stands) and the plan as presented for the verdict.

Both draw what they are handed. The map takes a parsed plan and the statuses from
:func:`keeltui.tutor.plan_status.plan_statuses` — position, not completion: ``▶`` the
current node, ``✓`` visited ones, ``·`` the rest; a revisited node is current.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from keeltui.textsafe import clean_text
from keeltui.tutor.mermaid import Plan
from keeltui.tutor.session import PlanItem

MARKERS = {"current": "▶", "visited": "✓", "pending": "·"}
STYLES = {"current": "bold reverse", "visited": "green", "pending": "dim"}


def map_lines(plan: Plan, statuses: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """``(marker, title, status)`` per node in topological order."""
    lines = []
    for node_id in plan.topological_order():
        node = plan.node(node_id)
        status = statuses.get(node_id, "pending")
        lines.append((MARKERS.get(status, MARKERS["pending"]), node.title if node else node_id, status))
    return lines


class PlanMap(Static):
    """The plan's nodes in order, each marked current, visited or pending."""

    DEFAULT_CSS = """
    PlanMap {
        width: 32;
        height: auto;
        max-height: 100%;
        padding: 0 1;
        border: round $primary;
        border-title-align: left;
    }
    PlanMap.-empty { display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, classes="-empty")
        self.border_title = "Plan"
        self.lines: list[tuple[str, str, str]] = []

    def show_plan(self, plan: Plan | None, statuses: Mapping[str, str]) -> None:
        """Draw ``plan`` with ``statuses`` (node id → status); None hides the map."""
        lines = map_lines(plan, statuses) if plan is not None else []
        if lines == self.lines and self.has_class("-empty") == (plan is None):
            return
        self.lines = lines
        self.set_class(plan is None, "-empty")
        text = Text()
        for number, (marker, title, status) in enumerate(lines):
            if number:
                text.append("\n")
            text.append(f"{marker} ", style="bold" if status != "pending" else "dim")
            text.append(clean_text(title), style=STYLES.get(status, ""))
        self.update(text)


class PlanCard(Static):
    """A plan the teacher presented, in the transcript; the latest one waits for the verdict."""

    DEFAULT_CSS = """
    PlanCard {
        height: auto;
        margin: 1 1 0 1;
        padding: 0 1;
        border: round $primary;
    }
    PlanCard.-awaiting { border: round $success; }
    PlanCard.-superseded { color: $text-muted; }
    """

    def __init__(self, item: PlanItem, *, id: str | None = None) -> None:
        self.item = item
        super().__init__(self._renderable(), id=id)
        self._sync_classes()

    def _sync_classes(self) -> None:
        for status in ("awaiting", "current", "superseded"):
            self.set_class(self.item.status == status, f"-{status}")

    def _renderable(self) -> Group:
        item = self.item
        head = Text(f"Plan v{item.version}", style="bold")
        if item.status == "superseded":
            head.append("  (replaced)", style="dim")
        lines = [head]
        for number, (node_id, title) in enumerate(item.steps, start=1):
            line = Text(f"{number}. {clean_text(title)}")
            line.append(f"  {node_id}", style="dim")
            lines.append(line)
        if item.status == "awaiting":
            lines.append(
                Text(
                    "Accept with ctrl+o or decline with ctrl+r — type a note first if you "
                    "like. Enter sends a question and leaves the plan waiting.",
                    style="italic",
                )
            )
        return Group(*lines)

    def show_item(self, item: PlanItem) -> None:
        if item != self.item:
            self.item = item
            self._sync_classes()
            self.update(self._renderable())
