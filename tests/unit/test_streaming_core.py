"""The pure parts of a streamed reply: its blocks, its box, its wake-up."""

from keeltui.chief.streaming import StreamBuffer, body_blocks


def test_body_blocks_cut_where_a_restart_cuts():
    text = "one\nsoft\n\n```\na\n\nb\n```\n\nlast"
    assert body_blocks(text) == ["one\nsoft", "```\na\n\nb\n```", "last"]
    assert body_blocks("only a tail") == ["only a tail"]
    assert body_blocks("settled\n\n") == ["settled"]


def test_the_waker_fires_only_for_a_piece_after_a_pause():
    calls = []
    buffer = StreamBuffer()
    buffer.set_waker(lambda: calls.append(1))
    buffer.append("a")
    buffer.append("b")
    assert calls == [1]
    assert buffer.drain() == "ab"
    buffer.append("c")
    assert calls == [1, 1]
    buffer.set_waker(None)
    buffer.drain()
    buffer.append("d")
    assert calls == [1, 1]


# -- changed_span: the cells a flush repaints ----------------------------------------

from rich.segment import Segment  # noqa: E402
from rich.style import Style  # noqa: E402

from keeltui.chief.streaming import changed_span  # noqa: E402


def test_changed_span_is_the_new_words_only():
    assert changed_span([Segment("The tide ")], [Segment("The tide turns")]) == (9, 14)


def test_changed_span_none_when_equal_and_covers_a_shorter_line():
    assert changed_span([Segment("same")], [Segment("same")]) is None
    assert changed_span([Segment("a word")], [Segment("a")]) == (1, 6)  # the word moved to the next line


def test_changed_span_sees_a_style_change_and_counts_wide_cells():
    assert changed_span([Segment("ab")], [Segment("a"), Segment("b", Style(bold=True))]) == (1, 2)
    assert changed_span([Segment("界x")], [Segment("界y")]) == (2, 3)


def test_changed_span_never_cuts_a_wide_character():
    # One wide character for another: the second cells are both "" and compare equal.
    assert changed_span([Segment("ab界")], [Segment("ab好")]) == (2, 4)
    assert changed_span([Segment("ab界c")], [Segment("abx好")]) == (2, 5)  # a narrow cell over a wide one's first
    assert changed_span([Segment("a界")], [Segment("a"), Segment("界", Style(bold=True))]) == (1, 3)
