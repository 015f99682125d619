"""The plan drawn as a DAG in text: layers, lanes and box-drawing edges.

Pure: a :class:`~keeltui.tutor.mermaid.Plan` in, rows of text out. The drawing is
vertical (one node per row, top to bottom) so it fits a narrow side pane and scrolls:

- nodes are *layered* — a node sits below every step it depends on (longest path from
  a root), and within a layer nodes follow the average position of their parents, so
  parallel steps sit next to each other;
- every edge runs in a *lane* (a column) from its node down to the node it leads to;
  a node with several children opens lanes to the right (``├─╮``, a branch) and a node
  with several parents gathers their lanes (``├─╯``, a join); a lane that passes a
  gathering edge crosses it (``┼``).

Each drawn row says which node it carries (or None for a connector row), so the widget
can scroll to a node and the tests can check the structure without reading glyphs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .mermaid import Plan

# Two cells per lane: the lane's glyph and the gap to its right.
LANE = 2


@dataclass(frozen=True)
class Row:
    """One drawn row: the lane glyphs, and the node it carries (None for a connector)."""

    lanes: str
    node_id: str | None = None
    below: str = ""
    """For a node row: the lanes that run on under it (a wrapped title's prefix)."""


def layers(plan: Plan) -> list[list[str]]:
    """Node ids by layer (longest path from a root), each layer ordered to keep edges short."""
    order = plan.topological_order()
    parents: dict[str, list[str]] = {node_id: [] for node_id in order}
    for before, after in plan.edges:
        parents[after].append(before)
    depth: dict[str, int] = {}
    for node_id in order:
        depth[node_id] = 1 + max((depth[p] for p in parents[node_id]), default=-1)
    grouped: list[list[str]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for node_id in order:
        grouped[depth[node_id]].append(node_id)
    # One downward sweep of the barycenter heuristic: a node follows its parents' places.
    place: dict[str, float] = {}
    for layer in grouped:
        appearance = {node_id: index for index, node_id in enumerate(layer)}

        def key(node_id: str, appearance: dict = appearance) -> tuple[float, int]:
            known = [place[p] for p in parents[node_id] if p in place]
            return (sum(known) / len(known) if known else float(appearance[node_id]), appearance[node_id])

        layer.sort(key=key)
        for index, node_id in enumerate(layer):
            place[node_id] = float(index)
    return grouped


def drawing_order(plan: Plan) -> list[str]:
    """The order nodes are drawn in, top to bottom: layer by layer."""
    return [node_id for layer in layers(plan) for node_id in layer]


def _cells(width: int) -> list[str]:
    return [" "] * (width * LANE)


def _text(cells: list[str]) -> str:
    return "".join(cells).rstrip()


def _vertical(cells: list[str], lanes: Sequence[str | None], skip: set[int]) -> None:
    for column, target in enumerate(lanes):
        if target is not None and column not in skip:
            cells[column * LANE] = "│"


def _span(cells: list[str], lanes: Sequence[str | None], left: int, right: int,
          joining: set[int], ends: str, middles: str) -> None:
    """A horizontal run from lane ``left`` to ``right``; ``joining`` lanes bend into it."""
    for column in range(left, right + 1):
        cell = column * LANE
        if column == left:
            cells[cell] = "├"
        elif column == right:
            cells[cell] = ends
        elif column in joining:
            cells[cell] = middles
        elif column < len(lanes) and lanes[column] is not None:
            cells[cell] = "┼"
        else:
            cells[cell] = "─"
        if column < right:
            cells[cell + 1] = "─"


def layout(plan: Plan) -> list[Row]:
    """The plan as rows: node rows and the join/branch connector rows between them."""
    children: dict[str, list[str]] = {node_id: [] for node_id in plan.ids}
    for before, after in plan.edges:
        children[before].append(after)
    order = drawing_order(plan)
    rank = {node_id: index for index, node_id in enumerate(order)}
    lanes: list[str | None] = []  # each lane: the node its edge runs down to
    rows: list[Row] = []
    for node_id in order:
        arriving = [column for column, target in enumerate(lanes) if target == node_id]
        if arriving:
            column = arriving[0]
        else:
            column = next((c for c, target in enumerate(lanes) if target is None), len(lanes))
            if column == len(lanes):
                lanes.append(None)
        if len(arriving) > 1:  # a join: the other parents' lanes bend into this one
            cells = _cells(len(lanes))
            _vertical(cells, lanes, set(arriving))
            cells[column * LANE] = "│"
            joining = set(arriving[1:])
            for other in arriving[1:]:
                lanes[other] = None
            _span(cells, lanes, column, arriving[-1], joining, "╯", "┴")
            rows.append(Row(_text(cells)))
        lanes[column] = node_id
        cells = _cells(len(lanes))
        _vertical(cells, lanes, {column})
        cells[column * LANE] = "●"  # the widget puts the node's mark here
        node_cells = cells
        kids = sorted(children[node_id], key=rank.__getitem__)
        lanes[column] = kids[0] if kids else None
        below = _cells(len(lanes))
        _vertical(below, lanes, set())
        rows.append(Row(_text(node_cells), node_id, _text(below)))
        if len(kids) > 1:  # a branch: each further child gets a lane to the right
            opened: list[int] = []
            for kid in kids[1:]:
                free = next((c for c in range(column + 1, len(lanes)) if lanes[c] is None), None)
                if free is None:
                    lanes.append(None)
                    free = len(lanes) - 1
                lanes[free] = kid
                opened.append(free)
            cells = _cells(len(lanes))
            _vertical(cells, lanes, set(opened))
            _span(cells, lanes, column, max(opened), set(opened), "╮", "┬")
            rows.append(Row(_text(cells)))
        while lanes and lanes[-1] is None:
            lanes.pop()
    return rows


@dataclass(frozen=True)
class MapLine:
    """A row ready to draw: lane glyphs before and after the mark, the mark's status."""

    lanes: str
    node_id: str | None = None
    title: str = ""
    status: str = ""
    below: str = ""


def map_lines(plan: Plan, statuses: Mapping[str, str]) -> list[MapLine]:
    """:func:`layout` with each node row's title and status (default ``pending``)."""
    titles = {node.id: node.title for node in plan.nodes}
    return [
        MapLine(row.lanes, row.node_id, titles.get(row.node_id, ""),
                statuses.get(row.node_id, "pending"), row.below)
        if row.node_id is not None
        else MapLine(row.lanes)
        for row in layout(plan)
    ]


def row_of(lines: Sequence[MapLine | Row], node_id: str | None) -> int | None:
    """The index of the row that carries ``node_id``, or None."""
    if node_id is None:
        return None
    for index, line in enumerate(lines):
        if line.node_id == node_id:
            return index
    return None
