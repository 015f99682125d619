"""The map's screen rows: marks on the lanes, titles beside them, wrapping and wide fan-outs."""

from __future__ import annotations

from keeltui.panes.tutor.plan_map import wrapped
from keeltui.tutor.graph_layout import map_lines
from keeltui.tutor.mermaid import parse_plan


def plain(source: str, width: int, statuses: dict[str, str] | None = None) -> list[str]:
    return [row.plain for row, _ in wrapped(map_lines(parse_plan(source), statuses or {}), width)]


def test_marks_replace_the_node_dot_and_titles_sit_beside_the_lanes() -> None:
    source = "a[Alpha] --> b[Bee] & c[Cee]\nb --> d[Dee]\nc --> d"
    assert plain(source, 30, {"a": "mastered", "b": "review", "c": "current", "d": "visited"}) == [
        "✓ Alpha", "├─╮", "↻ │ Bee", "│ ▶ Cee", "├─╯", "• Dee",
    ]


def test_a_long_title_wraps_under_itself_with_the_lanes_running_on() -> None:
    source = "a[A rather long title for a narrow map] --> b[B]"
    assert plain(source, 20) == ["○ A rather long", "│ title for a narrow", "│ map", "○ B"]


def test_a_wide_fan_out_squeezes_the_lanes_so_titles_keep_their_room() -> None:
    children = " & ".join(f"c{i}[Child topic {i}]" for i in range(12))
    source = f"r[Root] --> {children}\n" + " & ".join(f"c{i}" for i in range(12)) + " --> z[Wrap up]"
    rows = plain(source, 30)
    assert rows[1] == "├┬┬┬┬┬┬┬┬┬┬╮"
    assert rows[2] == "○│││││││││││ Child topic 0"
    assert rows[-2:] == ["├┴┴┴┴┴┴┴┴┴┴╯", "○ Wrap up"]
    assert all(len(row) <= 30 for row in rows)


def test_each_node_row_says_which_node_it_starts() -> None:
    rows = wrapped(map_lines(parse_plan("a[A long title here] --> b[B]"), {}), 12)
    assert [node for _, node in rows] == ["a", None, "b"]


def test_the_legend_never_splits_an_entry_at_the_maps_width() -> None:
    # At 120x40 the map's body is 30 cells: the legend wrapped as "… ↻ review  •" / "seen  ○ to do".
    from rich.console import Console

    from keeltui.panes.tutor.plan_map import LEGEND, PlanDrawing

    console = Console(width=30, record=True)
    console.print(PlanDrawing(map_lines(parse_plan("a[Alpha] --> b[Bee]"), {})))
    rows = console.export_text().splitlines()[-2:]
    assert rows == ["▶ now  ✓ mastered  ↻ review", "• seen  ○ to do"]
    wide = Console(width=60, record=True)
    wide.print(PlanDrawing(map_lines(parse_plan("a[Alpha] --> b[Bee]"), {})))
    assert wide.export_text().splitlines()[-1] == "  ".join(LEGEND)


def test_the_current_step_answered_wrong_keeps_the_current_mark_and_says_review() -> None:
    assert plain("a[Alpha] --> b[Bee]", 30, {"a": "mastered", "b": "current-review"}) == ["✓ Alpha", "▶ Bee ↻"]


def test_the_current_step_is_a_glyph_in_a_theme_colour_not_a_reversed_cell():
    # Issue 21: "bold reverse" drew ▶ as a block with a hole in it; colours come from the theme.
    painted: list[str] = []

    def paint(spec: str) -> str:
        painted.append(spec)
        return spec.replace("$text-primary", "#123456")

    rows = wrapped(map_lines(parse_plan("a[Alpha] --> b[Bee]"), {"a": "current"}), 30, paint)
    first = rows[0][0]
    marker = next(span for span in first.spans if first.plain[span.start:span.end] == "▶")
    assert "reverse" not in str(marker.style)
    assert "#123456" in str(marker.style)
    named = [spec for spec in painted for word in spec.split() if word in ("blue", "green", "yellow", "red")]
    assert not named, named  # every colour is a theme variable
