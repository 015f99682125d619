"""The room's rendered rows stay within both bounds, rows and bytes (issue 19), least
recently drawn out first; the row just put stays even when it alone passes the bytes bound."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style

from hypothesis import given
from hypothesis import strategies as st

from keeltui.chief.row_cache import DrawnLines, LINE_BYTES, SEGMENT_BYTES, RowCache, lines_bytes

BOLD = Style(bold=True)


def compact(lines) -> tuple:
    """Lines as the room keeps them: tuples of segments."""
    return tuple(tuple(line) for line in lines)


def line_bytes(line) -> int:
    """The estimate for one line, segment by segment (what ``lines_bytes`` counts in C)."""
    return LINE_BYTES + sum(SEGMENT_BYTES + len(segment[0]) for segment in line)


def lines(n: int, text: str = "x" * 60) -> tuple:
    return compact([[Segment(text, BOLD), Segment(" ")] for _ in range(n)])


def test_the_row_count_is_bounded_and_the_least_recently_drawn_goes_first():
    cache = RowCache(max_rows=3, max_bytes=10**9)
    for key in "abc":
        cache.put(key, lines(1))
    assert cache.get("a") is not None  # drawn again: now the most recent
    cache.put("d", lines(1))
    assert len(cache) == 3 and "b" not in cache and all(key in cache for key in "acd")


def test_the_bytes_are_bounded_and_counted_back_as_rows_go():
    row = lines(10)
    size = sum(line_bytes(line) for line in row)
    cache = RowCache(max_rows=100, max_bytes=3 * size)
    for key in range(10):
        cache.put(key, row)
        assert cache.bytes <= 3 * size
    assert len(cache) == 3 and cache.bytes == 3 * size
    cache.put(9, lines(1))  # the same key again: its old lines are no longer counted
    assert cache.bytes == 2 * size + sum(line_bytes(line) for line in lines(1))


def test_a_row_alone_over_the_bytes_bound_is_kept_while_it_is_drawn():
    cache = RowCache(max_rows=100, max_bytes=1_000)
    cache.put("small", lines(1))
    cache.put("huge", lines(500))  # a long code block on screen
    assert "huge" in cache and "small" not in cache and len(cache) == 1


def test_the_estimate_follows_the_text_held():
    short, long = compact([[Segment("a")]])[0], compact([[Segment("a" * 1_000)]])[0]
    assert line_bytes(long) - line_bytes(short) == 999


@given(st.lists(st.lists(st.tuples(st.text(max_size=30), st.none() | st.just(BOLD), st.none()), max_size=6), max_size=20))
def test_a_rows_bytes_counted_at_once_are_its_lines_bytes_summed(rows):
    kept = compact(rows)
    assert lines_bytes(kept) == sum(line_bytes(line) for line in kept)


def test_drawn_lines_are_found_by_the_line_itself_and_what_lies_under_it():
    drawn = DrawnLines(3)
    drawn.start_paint(("width", 80))
    line = (("text", None, None),)
    same_text = tuple([("text", None, None)])  # equal, but another line (a row drawn again)
    drawn.put(line, "plain", "strip")
    assert drawn.get(line, "plain") == "strip"
    assert drawn.get(same_text, "plain") is None
    assert drawn.get(line, "cursor") is None  # the cursor moved onto it: drawn again
    drawn.start_paint(("width", 80))
    assert drawn.get(line, "plain") == "strip"
    drawn.start_paint(("width", 100))  # the paint changed: nothing drawn before holds
    assert drawn.get(line, "plain") is None and len(drawn) == 0


def test_drawn_lines_keep_the_most_recently_drawn_within_their_bound():
    drawn = DrawnLines(2)
    lines = [((f"line {i}", None, None),) for i in range(3)]
    drawn.put(lines[0], None, 0)
    drawn.put(lines[1], None, 1)
    assert drawn.get(lines[0], None) == 0  # drawn again: the most recent now
    drawn.put(lines[2], None, 2)
    assert drawn.get(lines[1], None) is None and drawn.get(lines[0], None) == 0 and len(drawn) == 2
