"""The plan parser's limits and words: caps, spaced ids, entities, other diagrams, control bytes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keeltui.tutor.mermaid import MAX_EDGES, MAX_NODES, MAX_PLAN_CHARS, PlanError, parse_plan
import itertools

SLUG_HINT = 'use lowercase letters, digits, "-" or "_"'


def error_of(source: str) -> PlanError:
    with pytest.raises(PlanError) as err:
        parse_plan(source)
    return err.value


def test_the_85_kb_cross_product_is_refused_at_once() -> None:
    # The input: 9 million edges, 45 s and 2 GB before the caps.
    left = " & ".join(f"a{i}" for i in range(3000))
    right = " & ".join(f"b{i}" for i in range(3000))
    err = error_of(f"graph TD\n{left} --> {right}\n")
    assert err.line == 1
    assert err.message.startswith("the plan is too long (")
    assert f"at most {MAX_PLAN_CHARS:,}" in err.message


def test_a_short_line_that_expands_past_the_edge_cap_names_the_count() -> None:
    left = " & ".join(f"a{i}[A]" for i in range(60))
    right = " & ".join(f"b{i}[B]" for i in range(60))
    source = f"graph TD\n{left} --> {right}"
    assert len(source) < MAX_PLAN_CHARS
    err = error_of(source)
    assert err.line == 2
    assert err.message == (
        f'the plan has more than {MAX_EDGES:,} edges once the "&" groups are expanded '
        "(this line alone makes 3,600) — a plan is a few dozen steps"
    )


def test_too_many_nodes_is_an_error_on_the_line_that_crosses_the_cap() -> None:
    source = "\n".join(f"n{i}[Step {i}]" for i in range(MAX_NODES + 1))
    err = error_of(source)
    assert (err.line, err.message) == (
        MAX_NODES + 1,
        f"the plan has more than {MAX_NODES} nodes — a plan is a few dozen steps",
    )


def test_a_plan_at_the_caps_still_parses() -> None:
    source = "\n".join(f"n{i}[Step {i}]" for i in range(MAX_NODES))
    assert len(parse_plan(source).nodes) == MAX_NODES


SPACED = [
    ("net balance[Net] --> b[B]", 'node id "net balance" is not a slug', "net_balance"),
    ("a[A] --> net balance[Net]", 'node id "net balance" is not a slug', "net_balance"),
    ("my node --> b[B]", 'node id "my node" is not a slug', "my_node"),
    ("a[A] --> protein per meal", 'node id "protein per meal" is not a slug', "protein_per_meal"),
    ("a[A] & two words[T]", 'node id "two words" is not a slug', "two_words"),
]


@pytest.mark.parametrize(("source", "head", "slug"), SPACED)
def test_an_id_with_a_space_gets_the_slug_message(source: str, head: str, slug: str) -> None:
    err = error_of(source)
    assert err.message == f'{head} — {SLUG_HINT}, e.g. "{slug}"'
    assert "expected an edge" not in err.message


ENTITIES = [
    ('a["Say #quot;hi#quot;"]', 'Say "hi"'),
    ("a[Salt #amp; pepper]", "Salt & pepper"),
    ("a[x #lt; y #gt; z]", "x < y > z"),
    ("a[I #9829; it]", "I ♥ it"),
    ("a[I #x2665; it]", "I ♥ it"),
    ("a[Issue #35;42]", "Issue #42"),
    ("a[Keep #nonsense; as written]", "Keep #nonsense; as written"),
]


@pytest.mark.parametrize(("source", "title"), ENTITIES)
def test_mermaid_entities_are_decoded_in_titles(source: str, title: str) -> None:
    assert parse_plan(source).nodes[0].title == title


OTHER = [
    ("sequenceDiagram\n  A->>B: hi", "sequenceDiagram", "a sequence diagram"),
    ("classDiagram\n  A <|-- B", "classDiagram", "a class diagram"),
    ("%% a comment\nstateDiagram-v2\n  [*] --> A", "stateDiagram-v2", "a state diagram"),
    ("```mermaid\ngantt\n  title x\n```", "gantt", "a Gantt chart"),
    ("pie title Pets", "pie", "a pie chart"),
    ("mindmap\n  root", "mindmap", "a mind map"),
    ("erDiagram\n  A ||--o{ B : has", "erDiagram", "an entity-relationship diagram"),
]


@pytest.mark.parametrize(("source", "word", "kind"), OTHER)
def test_other_diagram_types_are_named_as_unsupported(source: str, word: str, kind: str) -> None:
    err = error_of(source)
    assert err.message == (
        f'"{word}" starts {kind}, which keeltui cannot use — a plan is a flowchart: '
        'start with "graph TD" and write a[Step] --> b[Next]'
    )


def test_a_node_named_like_a_diagram_is_still_a_node() -> None:
    assert parse_plan("pie[Pie] --> gantt[Gantt]").ids == ("pie", "gantt")


CONTROL = [
    ("a\x1b[31m[B]", 'node id "a\\x1b" is not a slug'),
    ("a[A] --> b\x07c[C]", 'node id "b\\x07c" is not a slug'),
    ("a[A] \x1b]0;pwned\x07", "\\x1b"),
    ("a[A] --> X\u202eY[B]", 'node id "X\\u202eY" is not a slug'),
]


@pytest.mark.parametrize(("source", "shown"), CONTROL)
def test_control_bytes_are_escaped_in_error_messages(source: str, shown: str) -> None:
    err = error_of(source)
    assert shown in err.message
    assert not any(ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0 for char in str(err))
    assert "\u202e" not in str(err)


@given(st.text(max_size=300))
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_no_error_message_carries_a_control_byte(text: str) -> None:
    try:
        parse_plan(text)
    except PlanError as err:
        assert not any(ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0 for char in str(err))


@given(st.lists(st.integers(min_value=1, max_value=80), min_size=2, max_size=4))
@settings(max_examples=60, deadline=None)
def test_ampersand_groups_expand_or_are_capped(sizes: list[int]) -> None:
    groups = [
        " & ".join(f"g{group}n{index}[T]" for index in range(size)) for group, size in enumerate(sizes)
    ]
    source = " --> ".join(groups)
    expanded = sum(left * right for left, right in itertools.pairwise(sizes))
    try:
        plan = parse_plan(source)
    except PlanError as err:
        assert expanded > MAX_EDGES or len(source) > MAX_PLAN_CHARS or sum(sizes) > MAX_NODES
        assert "more than" in err.message or "too long" in err.message
    else:
        assert len(plan.edges) == expanded <= MAX_EDGES
