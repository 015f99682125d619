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
    drawn.start_paint(("width", 80), 3)
    line = (("text", None, None),)
    same_text = tuple([("text", None, None)])  # equal, but another line (a row drawn again)
    drawn.put(line, "plain", "strip")
    assert drawn.get(line, "plain") == "strip"
    assert drawn.get(same_text, "plain") is None
    assert drawn.get(line, "cursor") is None  # the cursor moved onto it: drawn again
    drawn.start_paint(("width", 80), 3)
    assert drawn.get(line, "plain") == "strip"
    drawn.start_paint(("width", 100), 3)  # the paint changed: nothing drawn before holds
    assert drawn.get(line, "plain") is None and len(drawn) == 0


def test_drawn_lines_keep_the_most_recently_drawn_within_their_bound():
    drawn = DrawnLines(2)
    lines = [((f"line {i}", None, None),) for i in range(3)]
    drawn.put(lines[0], None, 0)
    drawn.put(lines[1], None, 1)
    assert drawn.get(lines[0], None) == 0  # drawn again: the most recent now
    drawn.put(lines[2], None, 2)
    assert drawn.get(lines[1], None) is None and drawn.get(lines[0], None) == 0 and len(drawn) == 2


SEGMENTS = st.tuples(st.text(max_size=12), st.none() | st.sampled_from([BOLD, Style(color="red"), Style(italic=True)]),
                     st.none() | st.just(((1, 2),)))


@given(st.lists(st.lists(SEGMENTS, max_size=6), max_size=12))
def test_a_kept_line_gives_back_its_segments(rows):
    cache = RowCache(max_rows=10, max_bytes=10**9)
    kept = cache.put("row", [tuple(Segment(*segment) for segment in line) for line in rows])
    assert [tuple(cache.segments(line)) for line in kept] == [tuple(map(tuple, line)) for line in rows]


def test_kept_rows_are_no_work_for_the_collector():
    """Issue 19: a full collection while the owner paged walked every segment of the ~400 kept
    rows (each holds its style): ~8 000 objects of the ~29 000 a pass walked (20-26 ms pauses).
    Packed, a kept row is tuples of strings and numbers, which the collector stops tracking."""
    import gc

    cache = RowCache(max_rows=400, max_bytes=10**9)
    for key in range(400):
        cache.put(key, [[Segment(f"row {key} ", BOLD), Segment("text", Style(color="red")), Segment(" ")]] * 5)
    for _ in range(3):  # a pass lets go of one level: segments, lines, the row (young passes in the app)
        gc.collect()
    rows = [cache.get(key) or () for key in range(400)]
    tracked = [row for row in rows if gc.is_tracked(row) or any(
        gc.is_tracked(line) or any(gc.is_tracked(part) for part in line) for line in row)]
    assert tracked == []
    assert len(cache.styles) == 3  # one entry a style, however many segments use it


def test_lines_kept_as_they_are_are_the_very_lines_and_their_own_segments():
    cache = RowCache(max_rows=10, max_bytes=10**9)
    streamed = [(Segment("a reply", BOLD),), (Segment("streamed"),), (("a plain tuple", BOLD, None),)]
    kept = cache.put_as_is("reply", streamed)
    assert all(a is b for a, b in zip(kept, streamed, strict=True))
    assert [cache.segments(line) for line in kept] == streamed


def test_too_many_styles_start_the_cache_again(monkeypatch):
    import keeltui.chief.row_cache as row_cache

    monkeypatch.setattr(row_cache, "STYLES_MAX", 4)
    cache = RowCache(max_rows=100, max_bytes=10**9)
    for i in range(5):
        cache.put(i, [[Segment("x", Style(color=f"color({i})"))]])
    assert len(cache) == 5
    kept = cache.put("next", [[Segment("y", BOLD)]])
    assert len(cache) == 1 and cache.styles == [BOLD] and list(cache.segments(kept[0])) == [("y", BOLD, None)]
