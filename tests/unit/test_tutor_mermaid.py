"""The mermaid plan parser: every accepted form, every error with its line, and fuzzing."""

from __future__ import annotations

import pickle
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keeltui.tutor.mermaid import (
    Plan,
    PlanError,
    PlanNode,
    check_plan_command,
    is_slug,
    parse_plan,
    plan_summary,
    slugify,
)

MPS_PLAN = """graph TD
    mps_translation[MPS translation] --> net_balance[Net protein balance] --> per_meal[Protein per meal]
"""


def ids(plan: Plan) -> list[str]:
    return [node.id for node in plan.nodes]


def titles(plan: Plan) -> dict[str, str]:
    return {node.id: node.title for node in plan.nodes}


# --- accepted forms ---------------------------------------------------------------------


def test_the_muscle_protein_plan_with_underscores_parses() -> None:
    plan = parse_plan(MPS_PLAN)
    assert plan.nodes == (
        PlanNode("mps_translation", "MPS translation", 2),
        PlanNode("net_balance", "Net protein balance", 2),
        PlanNode("per_meal", "Protein per meal", 2),
    )
    assert plan.edges == (("mps_translation", "net_balance"), ("net_balance", "per_meal"))
    assert plan.topological_order() == ["mps_translation", "net_balance", "per_meal"]


TITLE_SHAPES = [
    ("a[Box]", "Box"),
    ("a(Rounded)", "Rounded"),
    ("a([Stadium])", "Stadium"),
    ("a[[Subroutine]]", "Subroutine"),
    ("a[(Cylinder)]", "Cylinder"),
    ("a((Circle))", "Circle"),
    ("a(((Double circle)))", "Double circle"),
    ("a{Rhombus}", "Rhombus"),
    ("a{{Hexagon}}", "Hexagon"),
    ("a>Flag]", "Flag"),
    ("a[/Parallelogram/]", "Parallelogram"),
    ("a[\\Parallelogram alt\\]", "Parallelogram alt"),
    ("a[/Trapezoid\\]", "Trapezoid"),
    ("a[\\Trapezoid alt/]", "Trapezoid alt"),
    ('a["Quoted title"]', "Quoted title"),
    ('a("Quoted round")', "Quoted round"),
    ('a["`Markdown string`"]', "Markdown string"),
    ('a["Has ] a bracket"]', "Has ] a bracket"),
    ('a[The "best" way]', 'The "best" way'),
    ('a["one" and "two"]', '"one" and "two"'),
    ("a[Protein (MPS) basics]", "Protein (MPS) basics"),
    ("a(Protein (MPS))", "Protein (MPS)"),
    ("a[/usr/bin]", "/usr/bin"),
    ("a[  padded  ]", "padded"),
    ("a [Space before shape]", "Space before shape"),
    ("a[Title]:::hot", "Title"),
    ("a[Step 1; then 2]", "Step 1; then 2"),
    ("a[Rate: 1.6 g/kg, per day]", "Rate: 1.6 g/kg, per day"),
    ("a[Ünïcödé títle ✓]", "Ünïcödé títle ✓"),
]


@pytest.mark.parametrize(("source", "title"), TITLE_SHAPES)
def test_every_common_shape_gives_its_title(source: str, title: str) -> None:
    plan = parse_plan(source)
    assert titles(plan) == {"a": title}


EDGE_FORMS = [
    "a[A] --> b[B]",
    "a[A]-->b[B]",
    "a[A] ---> b[B]",
    "a[A] ==> b[B]",
    "a[A] -.-> b[B]",
    "a[A] -..-> b[B]",
    "a[A] --- b[B]",
    "a[A] === b[B]",
    "a[A] -.- b[B]",
    "a[A] --o b[B]",
    "a[A] --x b[B]",
    "a[A] ~~~ b[B]",
    "a[A] -- needs --> b[B]",
    "a[A] -- needs this first ---> b[B]",
    "a[A] -->|needs| b[B]",
    "a[A] -->|needs| b[B]",
    "a[A] ==>|needs| b[B]",
    "a[A] == needs ==> b[B]",
    "a[A] -. maybe .-> b[B]",
    "a[A] -.->|maybe| b[B]",
    "a[A]\nb[B]\na --> b",
    "a --> b\na[A]\nb[B]",
]


def test_a_bare_id_is_its_own_title() -> None:
    # What models write and mermaid draws: boxes labelled with their ids.
    plan = parse_plan("graph TD\n  n11 --> n12\n  n12 --> n13[Titled later]\n  n14\n")
    assert titles(plan) == {"n11": "n11", "n12": "n12", "n13": "Titled later", "n14": "n14"}
    assert plan.edges == (("n11", "n12"), ("n12", "n13"))
    assert parse_plan("a --> b\nb[Second]").node("b").title == "Second"  # titled on a later line


LABELLED = [
    ("a[A] -- needs --> b[B]", "needs"),
    ("a[A] -- needs this first ---> b[B]", "needs this first"),
    ("a[A] -->|needs| b[B]", "needs"),
    ("a[A] -->| needs | b[B]", "needs"),
    ('a[A] -->|"quoted"| b[B]', "quoted"),
    ("a[A] ==>|needs| b[B]", "needs"),
    ("a[A] == needs ==> b[B]", "needs"),
    ("a[A] -. maybe .-> b[B]", "maybe"),
    ("a[A] -.->|maybe| b[B]", "maybe"),
    ("a[A] --> b[B]", ""),
]


@pytest.mark.parametrize(("source", "label"), LABELLED)
def test_edge_labels_are_kept(source: str, label: str) -> None:
    plan = parse_plan(source)
    assert plan.label("a", "b") == label
    assert plan.labels == ((("a", "b", label),) if label else ())


def test_a_label_on_a_chain_or_group_belongs_to_its_own_arrow() -> None:
    plan = parse_plan("a[A] -- first --> b[B] --> c[C] -->|last| d[D] & e[E]")
    assert plan.labels == (("a", "b", "first"), ("c", "d", "last"), ("c", "e", "last"))


SHAPES = [
    ("a[Box]", ""), ("a(Round)", "()"), ("a([Stadium])", "([])"), ("a[[Sub]]", "[[]]"), ("a[(Store)]", "[()]"),
    ("a((Circle))", "(())"), ("a(((Double)))", "((()))"), ("a{Decide}", "{}"), ("a{{Hex}}", "{{}}"),
    ("a>Flag]", ">]"), ("a[/Lean/]", "[//]"), ("a[/Trap\\]", "[/\\]"), ("a", ""),
]


@pytest.mark.parametrize(("source", "shape"), SHAPES)
def test_node_shapes_are_kept(source: str, shape: str) -> None:
    assert parse_plan(source).node("a").shape == shape


@pytest.mark.parametrize("source", EDGE_FORMS)
def test_every_edge_form_means_before(source: str) -> None:
    plan = parse_plan(source)
    assert plan.edges == (("a", "b"),)
    assert titles(plan) == {"a": "A", "b": "B"}


HEADERS = [
    "",
    "graph\n",
    "graph TD\n",
    "graph TB\n",
    "graph LR\n",
    "graph RL\n",
    "graph BT\n",
    "flowchart TD\n",
    "flowchart LR;\n",
    "Graph td\n",
    "graph XY\n",  # an unknown direction is ignored: keeltui lays the plan out itself
    "%%{init: {'theme': 'dark'}}%%\ngraph TD\n",
    "```mermaid\ngraph TD\n",
    "---\ntitle: Protein\n---\nflowchart TD\n",
]


@pytest.mark.parametrize("header", HEADERS)
def test_any_header_or_none(header: str) -> None:
    plan = parse_plan(header + "a[A] --> b[B]\n")
    assert plan.edges == (("a", "b"),)


def test_header_and_statement_on_one_line() -> None:
    assert parse_plan("graph TD a[A] --> b[B]").edges == (("a", "b"),)
    assert parse_plan("graph a[A] --> b[B]").edges == (("a", "b"),)


def test_comments_blank_lines_fences_and_separators() -> None:
    source = """```mermaid
%% a whole-line comment
graph LR

  a[First] --> b[Second]   %% a trailing comment
  b --> c[Third; with a semicolon]; c --> d[Fourth]
```
"""
    plan = parse_plan(source)
    assert ids(plan) == ["a", "b", "c", "d"]
    assert plan.edges == (("a", "b"), ("b", "c"), ("c", "d"))
    assert titles(plan)["c"] == "Third; with a semicolon"


def test_percent_signs_inside_a_quoted_title_are_not_a_comment() -> None:
    assert titles(parse_plan('a["50%% off"]')) == {"a": "50%% off"}


def test_chains_expand_to_pairs_and_duplicates_collapse() -> None:
    plan = parse_plan("a[A] --> b[B] --> c[C] --> d[D]\na --> b\nb --> c")
    assert plan.edges == (("a", "b"), ("b", "c"), ("c", "d"))


def test_ampersand_groups_fan_in_and_out() -> None:
    plan = parse_plan("a[A] & b[B] --> c[C] --> d[D] & e[E]")
    assert plan.edges == (("a", "c"), ("b", "c"), ("c", "d"), ("c", "e"))


def test_styling_and_subgraph_lines_are_ignored_but_subgraph_contents_count() -> None:
    source = """flowchart TD
    subgraph basics [The basics]
        direction LR
        a[A] --> b[B]
    end
    subgraph Advanced topics
        c[C]
    end
    b --> c
    classDef hot fill:#f96,stroke:#333
    class a,b hot
    style c fill:#bbf,stroke-width:4px
    linkStyle 0 stroke:#ff3
    click a "https://example.com" "a tooltip"
    accTitle: The plan
    accDescr: Three steps
"""
    plan = parse_plan(source)
    assert ids(plan) == ["a", "b", "c"]
    assert plan.edges == (("a", "b"), ("b", "c"))


def test_a_keyword_named_node_used_in_an_edge_is_a_node() -> None:
    plan = parse_plan("style[Writing style] --> class[Class design]")
    assert plan.edges == (("style", "class"),)


def test_slug_ids_may_use_digits_dashes_and_underscores() -> None:
    plan = parse_plan("step-1[One] --> step_2[Two] --> 3rd[Three] --> -x-[Odd] --> a--b[Dashes]")
    assert ids(plan) == ["step-1", "step_2", "3rd", "-x-", "a--b"]


def test_edges_need_no_spaces() -> None:
    plan = parse_plan("a[A]---b[B]-->c[C]==>d[D]-.->e[E]")
    assert plan.edges == (("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"))


def test_same_title_twice_is_fine() -> None:
    plan = parse_plan("a[A] --> b[B]\na[A] --> c[C]")
    assert titles(plan) == {"a": "A", "b": "B", "c": "C"}


def test_a_lone_titled_node_is_a_plan() -> None:
    plan = parse_plan("graph TD\n  only[The only step]")
    assert plan.nodes == (PlanNode("only", "The only step", 2),)
    assert plan.edges == ()


def test_node_lines_are_where_the_title_is() -> None:
    plan = parse_plan("graph TD\na --> b\na[A]\n\nb[B]")
    assert [(node.id, node.line) for node in plan.nodes] == [("a", 3), ("b", 5)]


def test_crlf_and_cr_line_endings() -> None:
    with pytest.raises(PlanError) as err:
        parse_plan("graph TD\r\na[A]\rB[B]")
    assert err.value.line == 3


def test_topological_order_is_stable_by_first_appearance() -> None:
    # d and b are both ready after a; b appeared first, so it comes first.
    plan = parse_plan("a[A]\nb[B]\nc[C]\nd[D]\na --> d\nc --> b\nd --> c")
    assert plan.topological_order() == ["a", "d", "c", "b"]
    plan = parse_plan("z[Z]\ny[Y]\nx[X]")
    assert plan.topological_order() == ["z", "y", "x"]


def test_topological_order_rejects_a_hand_built_cycle() -> None:
    plan = Plan(nodes=(PlanNode("a", "A", 1), PlanNode("b", "B", 1)), edges=(("a", "b"), ("b", "a")))
    with pytest.raises(ValueError, match="cycle"):
        plan.topological_order()


def test_plan_lookup_helpers() -> None:
    plan = parse_plan(MPS_PLAN)
    assert plan.ids == ("mps_translation", "net_balance", "per_meal")
    assert "net_balance" in plan and "nope" not in plan
    assert plan.node("per_meal") == PlanNode("per_meal", "Protein per meal", 2)
    assert plan.node("nope") is None


# --- errors -----------------------------------------------------------------------------

SLUG_HINT = 'use lowercase letters, digits, "-" or "_"'

ERRORS = [
    # (source, line, exact message)
    (
        "graph TD\na[A]\nMPS[Muscle protein synthesis] --> a",
        3,
        f'node id "MPS" is not a slug — {SLUG_HINT}, e.g. "mps"',
    ),
    ("a[A] --> NetBalance[B]", 1, f'node id "NetBalance" is not a slug — {SLUG_HINT}, e.g. "net_balance"'),
    ("a[A] --> MPSTranslation[B]", 1, f'node id "MPSTranslation" is not a slug — {SLUG_HINT}, e.g. "mps_translation"'),
    ("a.b[Dotted]", 1, f'node id "a.b" is not a slug — {SLUG_HINT}, e.g. "a_b"'),
    ("a[A] --> C++[C plus plus]", 1, f'node id "C++" is not a slug — {SLUG_HINT}, e.g. "c"'),
    ("café[Coffee]", 1, f'node id "café" is not a slug — {SLUG_HINT}, e.g. "cafe"'),
    ("a:b[Colon]", 1, f'node id "a:b" is not a slug — {SLUG_HINT}, e.g. "a_b"'),
    ("日本[Japan]", 1, f'node id "日本" is not a slug — {SLUG_HINT}'),
    ("Net balance[Two words]", 1, f'node id "Net balance" is not a slug — {SLUG_HINT}, e.g. "net_balance"'),
    ("graph TD\na[A] --> a", 2, 'node "a" has an edge to itself'),
    ("a[A] --> b[B]\nb --> a", 2, "the plan has a cycle: a → b → a — remove one of these edges"),
    (
        "a[A] --> b[B]\nb --> c[C]\nx[X]\nc --> a",
        4,
        "the plan has a cycle: a → b → c → a — remove one of these edges",
    ),
    ("", 1, "the plan is empty — write at least one node, e.g. a[First step]"),
    ("graph TD\n%% only a comment\n\n", 1, "the plan is empty — write at least one node, e.g. a[First step]"),
    ("a[X]\nb[B]\na[Y]", 3, 'node "a" is titled "Y" here but "X" on line 1 — title a node once, then refer to it by its bare id'),
    ("a[A] -> b[B]", 1, '"->" is not an edge — write -->'),
    ("a[A] → b[B]", 1, '"→" is not an edge — write -->'),
    ("a[A] => b[B]", 1, '"=>" is not an edge — write -->'),
    (
        "a[A] <--> b[B]",
        1,
        'edge "<-->" points backwards or both ways — a plan edge runs from the earlier step to the later one: a --> b',
    ),
    (
        "a[A] b[B]",
        1,
        'can\'t read "b[B]" — expected an edge such as -->, ==>, -.-> or -- label --> between two nodes',
    ),
    (
        "graph TD\n[Untitled id]",
        2,
        'expected a node id at the start of the statement, found "[Untitled id]" — write id[Title], e.g. a[First step]',
    ),
    ("a[A] --> ", 1, "expected a node id after the edge, but the statement ends there"),
    ("a[A] & --> b[B]", 1, 'expected a node id after "&", found "--> b[B]" — write id[Title], e.g. a[First step]'),
    (
        "a[Unclosed --> b[B]",
        1,
        'the title of node "a" opens with "[" but is never closed with "]" '
        '(brackets inside a title must balance, or wrap the title in quotes: a["…"])',
    ),
    (
        "a((Circle) --> b[B]",
        1,
        'the title of node "a" opens with "((" but is never closed with "))" '
        '(brackets inside a title must balance, or wrap the title in quotes: a["…"])',
    ),
    ('a["Unclosed quote]', 1, 'the title of node "a" has a quote that is never closed'),
    ("a[]", 1, 'node "a" has an empty title — write a[Title]'),
    ('a[""]', 1, 'node "a" has an empty title — write a[Title]'),
    ("a[A] -->|label b[B]", 1, 'an edge label opened with "|" is never closed with "|"'),
    ("---\ntitle: x\ngraph TD", 1, 'front matter opened with "---" is never closed'),
]


@pytest.mark.parametrize(("source", "line", "message"), ERRORS)
def test_errors_name_the_line_and_the_problem(source: str, line: int, message: str) -> None:
    with pytest.raises(PlanError) as err:
        parse_plan(source)
    assert (err.value.line, err.value.message) == (line, message)
    assert str(err.value) == f"line {line}: {message}"


def test_the_first_problem_in_line_order_wins() -> None:
    with pytest.raises(PlanError) as err:
        parse_plan("a[A]\nb[B] --> Bad[X]\nc[C] --> c")
    assert err.value.line == 2


def test_plan_error_is_a_value_error_and_pickles() -> None:
    err = PlanError(4, "something")
    assert isinstance(err, ValueError)
    clone = pickle.loads(pickle.dumps(err))
    assert (clone.line, clone.message, str(clone)) == (4, "something", "line 4: something")


def test_non_text_input_is_a_plan_error() -> None:
    with pytest.raises(PlanError) as err:
        parse_plan(None)  # type: ignore[arg-type]
    assert err.value.line == 1


@pytest.mark.parametrize(
    ("text", "slug"),
    [("MPS", "mps"), ("netBalance", "net_balance"), ("C++", "c"), ("Crème brûlée", "creme_brulee"), ("!!!", "")],
)
def test_slugify(text: str, slug: str) -> None:
    assert slugify(text) == slug
    assert slug == "" or is_slug(slug)


# --- plan check output ------------------------------------------------------------------


def test_plan_summary_lists_nodes_in_order_and_edges() -> None:
    summary = plan_summary(parse_plan(MPS_PLAN))
    assert summary.splitlines() == [
        "plan ok: 3 nodes, 2 edges",
        "",
        "nodes (teaching order):",
        "   1. mps_translation  MPS translation",
        "   2. net_balance      Net protein balance",
        "   3. per_meal         Protein per meal",
        "",
        "edges (before → after):",
        "  mps_translation → net_balance",
        "  net_balance → per_meal",
    ]


def test_plan_summary_of_a_single_node() -> None:
    summary = plan_summary(parse_plan("a[Alone]"))
    assert summary.startswith("plan ok: 1 node, 0 edges")
    assert summary.endswith("edges (before → after):\n  (none)")


def test_check_plan_command() -> None:
    assert check_plan_command(MPS_PLAN) == (0, plan_summary(parse_plan(MPS_PLAN)))
    code, output = check_plan_command("graph TD\nMPS[x]")
    assert code == 1
    assert output.startswith('line 2: node id "MPS" is not a slug')


# --- properties -------------------------------------------------------------------------


def _line_count(text: str) -> int:
    return len(re.split(r"\r\n|\r|\n", text))


def _assert_only_plan_errors(text: str) -> None:
    try:
        plan = parse_plan(text)
    except PlanError as err:
        assert 1 <= err.line <= _line_count(text), (err.line, text)
        assert err.message and "internal parser error" not in err.message
        assert str(err).startswith(f"line {err.line}: ")
    else:
        assert plan.nodes
        assert all(is_slug(node.id) and node.title for node in plan.nodes)
        assert len(plan.topological_order()) == len(plan.nodes)


@given(st.text())
@settings(max_examples=400)
def test_any_text_gives_a_plan_or_a_plan_error(text: str) -> None:
    _assert_only_plan_errors(text)


_FRAGMENTS = st.sampled_from(
    [
        "a", "b", "c", "net_balance", "step-2", "MPS", "C++", "a.b", "é", "x y", "",
        "[", "]", "(", ")", "{", "}", "[[", "]]", "((", "))", "([", "])", "{{", "}}",
        "[/", "/]", "[\\", "\\]", ">", "<", '"', "`", "|", "&", ";", ":::", "%%",
        "-->", "--->", "---", "==>", "===", "-.->", "-.-", "~~~", "--", "==", "-.", ".->",
        "->", "=>", "→", "<-->", "--o", "--x", "-- label -->", "-->|x|",
        "graph", "flowchart", "TD", "LR", "subgraph", "end", "classDef", "style", "click",
        "---\n", "```", "\n", "\r\n", " ", "\t", "Title", "Step 1",
    ]
)


@given(st.lists(_FRAGMENTS, max_size=40).map("".join))
@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
def test_near_mermaid_gives_a_plan_or_a_plan_error(text: str) -> None:
    _assert_only_plan_errors(text)


# No trailing "-": "a->Flag]" is read as the mistyped edge "->", a deliberate choice.
_SLUGS = st.from_regex(r"[a-z](?:[a-z0-9_-]{0,9}[a-z0-9_])?", fullmatch=True)
_TITLES = st.text(
    alphabet=st.characters(
        codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp"), exclude_characters='"[](){}<>|%;\\/`'
    ),
    min_size=1,
    max_size=20,
).filter(lambda title: title.strip() == title and title)
_OPEN_CLOSE = st.sampled_from(
    [("[", "]"), ("(", ")"), ("([", "])"), ("[[", "]]"), ("((", "))"), ("{", "}"), ("{{", "}}"),
     ('["', '"]'), (">", "]"), ("[/", "/]")]
)
_ARROWS = st.sampled_from(["-->", "==>", "-.->", "--->", "-- x -->", "-->|why|", " --> ", "---"])


@st.composite
def valid_plans(draw: st.DrawFn) -> tuple[str, list[tuple[str, str]], list[tuple[str, str]]]:
    """A random DAG rendered with random shapes, arrows, headers and comments."""
    node_ids = draw(st.lists(_SLUGS, min_size=1, max_size=8, unique=True))
    node_titles = [draw(_TITLES) for _ in node_ids]
    pairs = [(i, j) for i in range(len(node_ids)) for j in range(i + 1, len(node_ids))]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=10)) if pairs else []
    lines = [draw(st.sampled_from(["", "graph TD", "flowchart LR", "graph", "%% plan"]))]
    for node_id, title in zip(node_ids, node_titles, strict=False):
        opener, closer = draw(_OPEN_CLOSE)
        comment = draw(st.sampled_from(["", "  %% note", ";"]))
        lines.append(f"  {node_id}{opener}{title}{closer}{comment}")
    for i, j in chosen:
        lines.append(f"{node_ids[i]} {draw(_ARROWS)} {node_ids[j]}")
    expected_edges = [(node_ids[i], node_ids[j]) for i, j in chosen]
    return "\n".join(lines), list(zip(node_ids, node_titles, strict=False)), expected_edges


@given(valid_plans())
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_valid_plans_round_trip(case: tuple[str, list[tuple[str, str]], list[tuple[str, str]]]) -> None:
    source, nodes, edges = case
    plan = parse_plan(source)
    assert [(node.id, node.title) for node in plan.nodes] == nodes
    assert list(plan.edges) == edges
    order = plan.topological_order()
    assert all(order.index(before) < order.index(after) for before, after in plan.edges)
