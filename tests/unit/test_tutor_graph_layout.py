"""The plan drawn as a DAG: layers, lanes, joins and branches (table and hypothesis tests)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keeltui.tutor.graph_layout import LANE, drawing_order, layers, layout, map_lines, row_of
from keeltui.tutor.mermaid import Plan, PlanNode, parse_plan
import itertools

DIAMOND = """graph TD
a[Basics] --> b[Left] & c[Middle] & d[Right]
b --> e[Join]
d --> e
c --> f[Alone]
e --> g[End]
f --> g
a --> g
"""


def drawn(plan: Plan) -> list[str]:
    return [row.lanes + (f"  {row.node_id}" if row.node_id else "") for row in layout(plan)]


def test_a_chain_is_one_lane() -> None:
    plan = parse_plan("a[A] --> b[B] --> c[C]")
    assert drawn(plan) == ["●  a", "●  b", "●  c"]


def test_branches_and_joins_are_drawn_with_box_edges() -> None:
    assert drawn(parse_plan(DIAMOND)) == [
        "●  a",
        "├─┬─┬─╮",
        "● │ │ │  b",
        "│ ● │ │  c",
        "│ │ ● │  d",
        "├─┼─╯ │",      # d's lane joins e's, crossing c's lane on the way
        "● │   │  e",
        "│ ●   │  f",
        "├─┴───╯",      # g gathers e, f and the long edge from a
        "●  g",
    ]


def test_parallel_roots_sit_side_by_side() -> None:
    plan = parse_plan("a[A] --> c[C]\nb[B] --> c")
    assert drawn(plan) == ["●  a", "│ ●  b", "├─╯", "●  c"]


def test_layers_follow_the_longest_path() -> None:
    plan = parse_plan("a[A] --> b[B] --> c[C]\na --> c\nd[D]")
    assert layers(plan) == [["a", "d"], ["b"], ["c"]]


def test_within_a_layer_children_follow_their_parents() -> None:
    # x's child appears first in the source but y is drawn first under its parent's place.
    plan = parse_plan("q[Q] --> x2[X2]\np[P] --> y2[Y2]\nr[R]")
    assert layers(plan) == [["q", "p", "r"], ["x2", "y2"]]
    plan = parse_plan("p[P]\nq[Q]\nq --> x2[X2]\np --> y2[Y2]")
    assert layers(plan)[1] == ["y2", "x2"]


def test_the_below_prefix_carries_the_lanes_that_run_on() -> None:
    rows = [row for row in layout(parse_plan(DIAMOND)) if row.node_id]
    assert {row.node_id: row.below for row in rows} == {
        "a": "│", "b": "│ │ │ │", "c": "│ │ │ │", "d": "│ │ │ │",
        "e": "│ │   │", "f": "│ │   │", "g": "",
    }


def test_map_lines_carry_titles_and_statuses_and_row_of_finds_a_node() -> None:
    plan = parse_plan(DIAMOND)
    lines = map_lines(plan, {"e": "current", "a": "mastered"})
    nodes = [line for line in lines if line.node_id]
    assert [(line.title, line.status) for line in nodes][:2] == [("Basics", "mastered"), ("Left", "pending")]
    assert lines[row_of(lines, "e")].title == "Join"
    assert row_of(lines, "nope") is None and row_of(lines, None) is None


def test_a_30_node_plan_stays_narrow() -> None:
    source = "graph TD\n" + "\n".join(f"n{i}[Step {i}] --> n{i + 1}[Step {i + 1}]" for i in range(29))
    source += "\nn0 --> n10\nn5 --> n20\nn12 --> n29"
    rows = layout(parse_plan(source))
    assert sum(1 for row in rows if row.node_id) == 30
    assert max(len(row.lanes) for row in rows) <= 4 * LANE


# --- properties over random DAGs ------------------------------------------------------------

UP_DOWN = {
    "│": (True, True), "├": (True, True), "┼": (True, True),
    "┬": (False, True), "╮": (False, True), "┴": (True, False), "╯": (True, False),
    "─": (False, False), " ": (False, False),
}


@st.composite
def dags(draw) -> Plan:
    count = draw(st.integers(min_value=1, max_value=30))
    ids = [f"n{i}" for i in range(count)]
    pairs = [(i, j) for i in range(count) for j in range(i + 1, count)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=45)) if pairs else []
    shuffled = draw(st.permutations(ids))
    nodes = tuple(PlanNode(node_id, node_id.upper(), 1) for node_id in shuffled)
    return Plan(nodes=nodes, edges=tuple((ids[i], ids[j]) for i, j in chosen))


@given(dags())
@settings(max_examples=200, deadline=None)
def test_every_node_once_in_an_order_where_edges_run_down(plan: Plan) -> None:
    rows = layout(plan)
    order = [row.node_id for row in rows if row.node_id]
    assert sorted(order) == sorted(plan.ids)
    assert order == drawing_order(plan)
    where = {node_id: index for index, node_id in enumerate(order)}
    assert all(where[before] < where[after] for before, after in plan.edges)


@given(dags())
@settings(max_examples=200, deadline=None)
def test_every_stem_connects_to_the_row_above_and_below(plan: Plan) -> None:
    parents = {node_id: 0 for node_id in plan.ids}
    children = {node_id: 0 for node_id in plan.ids}
    for before, after in plan.edges:
        children[before] += 1
        parents[after] += 1
    stems: list[dict[int, tuple[bool, bool]]] = []
    for row in layout(plan):
        assert set(row.lanes) <= set(UP_DOWN) | {"●"}
        assert row.lanes.count("●") == (1 if row.node_id else 0)
        cells: dict[int, tuple[bool, bool]] = {}
        for column in range(0, len(row.lanes), LANE):
            glyph = row.lanes[column]
            if glyph == "●":
                cells[column] = (parents[row.node_id] > 0, children[row.node_id] > 0)
            else:
                cells[column] = UP_DOWN[glyph]
        for column in range(1, len(row.lanes), LANE):
            assert row.lanes[column] in " ─"
        stems.append(cells)
    for above, below in itertools.pairwise(stems):
        for column in set(above) | set(below):
            assert above.get(column, (False, False))[1] == below.get(column, (False, False))[0]
    assert not any(up for up, _ in stems[0].values())
    assert not any(down for _, down in stems[-1].values())


@given(dags())
@settings(max_examples=100, deadline=None)
def test_joins_and_branches_appear_exactly_where_the_graph_has_them(plan: Plan) -> None:
    parents = {node_id: 0 for node_id in plan.ids}
    children = {node_id: 0 for node_id in plan.ids}
    for before, after in plan.edges:
        children[before] += 1
        parents[after] += 1
    rows = layout(plan)
    for index, row in enumerate(rows):
        if row.node_id is None:
            continue
        before = rows[index - 1] if index else None
        after = rows[index + 1] if index + 1 < len(rows) else None
        joined = before is not None and before.node_id is None and "╯" in before.lanes
        assert joined == (parents[row.node_id] > 1)
        branched = after is not None and after.node_id is None and "╮" in after.lanes
        assert branched == (children[row.node_id] > 1)


@pytest.mark.parametrize("source", ["a[A]", "a[A]\nb[B]\nc[C]"])
def test_unconnected_nodes_each_get_a_row(source: str) -> None:
    assert [row.lanes for row in layout(parse_plan(source))] == ["●"] * len(parse_plan(source).nodes)
