"""The plan drawn as a graph: the map (where the learner stands) and the plan card.

Both draw what they are handed — a parsed plan and each node's mark — through the pure
layout in :mod:`keeltui.tutor.graph_layout` (layers, lanes, ``├─╮`` branches and
``├─╯`` joins). Marks come from :func:`keeltui.tutor.mastery.map_statuses`: ``▶`` the
current node, ``✓`` mastered (answered right), ``↻`` to review (answered wrong, or
due again), ``•`` visited, ``○`` not yet. The map scrolls, and follows the current node.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from functools import partial

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from keeltui.panes.common.theme_styles import themed
from keeltui.text.textsafe import clean_text
from keeltui.tutor.graph_layout import MapLine, map_lines
from keeltui.tutor.mermaid import Plan, PlanNode
from keeltui.tutor.session import PlanItem

MARKERS = {"current": "▶", "current-review": "▶", "mastered": "✓", "review": "↻", "visited": "•", "pending": "○"}
# Theme colours ($name: keeltui/panes/common/theme_styles.py). ▶ is drawn as a glyph in the primary
# colour, not as a reversed cell (which read as a block with a hole in it).
STYLES = {"current": "bold $text-primary", "current-review": "bold $text-warning", "mastered": "bold $text-success",
          "review": "bold $text-warning", "visited": "", "pending": "dim"}
LANES = "$text-secondary"
CURRENT = ("current", "current-review")  # the step the learner is on (↻ after it: also to review)
REVIEW_TAIL = " ↻"  # the current step keeps ▶; being due for review too is said after its title
LEGEND = ("▶ now", "✓ mastered", "↻ review", "• seen", "○ to do")
MIN_TITLE = 8  # the least room a title gets beside its lanes
ROOMY_TITLE = 16  # with less room than this, lanes drop their gaps (one cell each)


def _squeezed(lanes: str) -> str:
    """Lanes at one cell each: the glyphs without the gaps between them."""
    return lanes[::2]


def _as_is(spec: str) -> str:
    return spec


def wrapped(lines: list[MapLine], width: int, paint: Callable[[str], str] = _as_is) -> list[tuple[Text, str | None]]:
    """Screen rows for ``lines`` at ``width``: the mark on the lanes, the title beside them.

    A long title wraps; its continuation rows carry the lanes that run on below the node.
    Each row says which node it starts (None for continuations and connector rows).
    ``paint`` turns a style with theme variables into one Rich reads (themed, bound to the app).
    """
    lanes = paint(LANES)
    out: list[tuple[Text, str | None]] = []
    widest = max((max(len(line.lanes), len(line.below)) for line in lines), default=0)
    if width - widest - 1 < ROOMY_TITLE:  # a wide fan-out: keep room for the titles
        lines = [
            MapLine(_squeezed(line.lanes), line.node_id, line.title, line.status, _squeezed(line.below))
            for line in lines
        ]
    for line in lines:
        if line.node_id is None:
            out.append((Text(line.lanes, style=lanes), None))
            continue
        column = line.lanes.index("●")
        marker = MARKERS.get(line.status, MARKERS["pending"])
        gutter = max(len(line.lanes), len(line.below)) + 1
        room = max(MIN_TITLE, width - gutter)
        title = clean_text(line.title).replace("\n", " ") + (REVIEW_TAIL if line.status == "current-review" else "")
        pieces = textwrap.wrap(title, room, break_long_words=True) or [""]
        for number, piece in enumerate(pieces):
            row = Text(no_wrap=True, overflow="ellipsis")
            if number == 0:
                row.append(line.lanes[:column], style=lanes)
                row.append(marker, style=paint(STYLES.get(line.status, "")))
                row.append(line.lanes[column + 1 :], style=lanes)
                pad = gutter - len(line.lanes)
            else:
                row.append(line.below, style=lanes)
                pad = gutter - len(line.below)
            row.append(" " * pad)
            row.append(piece, style=paint(STYLES.get(line.status, "")) if line.status not in CURRENT else "bold")
            out.append((row, line.node_id if number == 0 else None))
    return out


def legend_rows(width: int) -> list[str]:
    """The legend's entries packed into rows of ``width``: an entry is never split."""
    rows: list[str] = []
    for entry in LEGEND:
        if rows and len(rows[-1]) + 2 + len(entry) <= width:
            rows[-1] += "  " + entry
        else:
            rows.append(entry)
    return rows


class PlanDrawing:
    """A Rich renderable: the plan's graph wrapped to whatever width it is given."""

    def __init__(self, lines: list[MapLine], legend: bool = True, paint: Callable[[str], str] = _as_is) -> None:
        self.lines = lines
        self.legend = legend
        self.paint = paint

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for row, _ in wrapped(self.lines, options.max_width, self.paint):
            yield row
        if self.legend:
            for entries in legend_rows(options.max_width):
                yield Text(entries, style="dim", no_wrap=True, overflow="ellipsis")


class PlanMap(VerticalScroll):
    """The plan's graph with each node marked; scrolls to the current node."""

    DEFAULT_CSS = """
    PlanMap {
        width: 34;
        height: auto;
        max-height: 100%;
        padding: 0 1;
        border: round $primary;
        border-title-align: left;
        scrollbar-size-vertical: 1;
    }
    PlanMap > #plan-map-body { width: 1fr; height: auto; }
    PlanMap.-empty { display: none; }
    TutorPane.-narrow PlanMap { dock: top; width: 100%; max-height: 9; }
    TutorPane.-narrow.-short PlanMap { max-height: 5; }
    """
    SCOPED_CSS = False  # the narrow rule keys on the tutor pane, an ancestor

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-empty")
        self.border_title = "Plan"
        self.lines: list[tuple[str, str, str]] = []
        """``(marker, title, status)`` per node, top to bottom."""
        self._map: list[MapLine] = []
        self._current: str | None = None
        self._body = Static("", id="plan-map-body")

    def compose(self):
        yield self._body

    def show_plan(self, plan: Plan | None, statuses: Mapping[str, str]) -> None:
        """Draw ``plan`` with ``statuses`` (node id → status); None hides the map."""
        drawn = map_lines(plan, statuses) if plan is not None else []
        if drawn == self._map and self.has_class("-empty") == (plan is None):
            return
        self._map = drawn
        self.lines = [
            (MARKERS.get(line.status, MARKERS["pending"]),
             line.title + (REVIEW_TAIL if line.status == "current-review" else ""), line.status)
            for line in drawn
            if line.node_id is not None
        ]
        self.set_class(plan is None, "-empty")
        self._body.update(PlanDrawing(drawn, paint=partial(themed, self.app)))
        current = next((line.node_id for line in drawn if line.status in CURRENT), None)
        if current != self._current:
            self._current = current
            self.call_after_refresh(self.scroll_to_current)

    def current_row(self) -> int | None:
        """The screen row (within the drawing) of the current node, at the present width."""
        if self._current is None:
            return None
        width = self.scrollable_content_region.width or 30
        for index, (_, node_id) in enumerate(wrapped(self._map, width)):
            if node_id == self._current:
                return index
        return None

    def scroll_to_current(self) -> None:
        """Bring the current node to the middle of the map (or as near as it goes)."""
        row = self.current_row()
        if row is not None:
            height = self.scrollable_content_region.height
            self.scroll_to(y=max(0, row - height // 2), animate=False, immediate=True)

    def on_resize(self) -> None:
        self.call_after_refresh(self.scroll_to_current)


def plan_of(item: PlanItem) -> Plan:
    """The plan a card shows, rebuilt from the item's steps and edges."""
    shapes = dict(item.shapes)
    nodes = tuple(PlanNode(node_id, title, 0, shapes.get(node_id, "")) for node_id, title in item.steps)
    return Plan(nodes=nodes, edges=item.edges, labels=item.labels)


def card_plan(plan: Plan) -> Plan:
    """The plan as the card draws it: a title in the brackets of its shape (``{Enough?}``),
    followed by its labelled edges (``· no → Eat more``), as the teacher wrote them."""
    titles = {node.id: node.title for node in plan.nodes}
    nodes = []
    for node in plan.nodes:
        half = len(node.shape) // 2
        title = f"{node.shape[:half]}{node.title}{node.shape[half:]}"
        for before, after, label in plan.labels:
            if before == node.id:
                title += f"  · {label} → {titles.get(after, after)}"
        nodes.append(PlanNode(node.id, title, node.line, node.shape))
    return Plan(nodes=tuple(nodes), edges=plan.edges, labels=plan.labels)


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

    def _paint(self, spec: str) -> str:
        # Called when the card is drawn (it is built before it is mounted in an app).
        return themed(self.app, spec)

    def _sync_classes(self) -> None:
        for status in ("awaiting", "current", "superseded"):
            self.set_class(self.item.status == status, f"-{status}")

    def _renderable(self) -> Group:
        item = self.item
        head = Text(f"Plan v{item.version}", style="bold")
        steps = len(item.steps)
        head.append(f"  {steps} step{'s' if steps != 1 else ''}", style="dim")
        if item.status == "superseded":
            head.append("  (replaced)", style="dim")
        parts: list = [head]
        if item.status == "superseded":
            return Group(*parts)  # an old plan stays one line: the live one is below
        if item.changes:
            parts.append(Text(f"Changed since v{item.version - 1}: " + "; ".join(item.changes), style="italic"))
        elif item.version > 1:
            parts.append(Text(f"The same steps as v{item.version - 1}, in the same order.", style="italic"))
        parts.append(PlanDrawing(map_lines(card_plan(plan_of(item)), {}), legend=False, paint=self._paint))
        if item.status == "awaiting":
            parts.append(
                Text(
                    "Accept with ctrl+o or decline with ctrl+r — type a note first if you "
                    "like. Enter sends a question and leaves the plan waiting.",
                    style="italic",
                )
            )
        return Group(*parts)

    def show_item(self, item: PlanItem) -> None:
        if item != self.item:
            self.item = item
            self._sync_classes()
            self.update(self._renderable())
