"""The pure parts of a streamed reply: its blocks, its box, its wake-up."""

from keeltui.chief.streaming import KEEP_IN_VIEW, StreamBuffer, body_blocks, reserved_rows


def test_body_blocks_cut_where_a_restart_cuts():
    text = "one\nsoft\n\n```\na\n\nb\n```\n\nlast"
    assert body_blocks(text) == ["one\nsoft", "```\na\n\nb\n```", "last"]
    assert body_blocks("only a tail") == ["only a tail"]
    assert body_blocks("settled\n\n") == ["settled"]


def test_the_box_grows_in_steps_that_keep_context_on_screen():
    assert reserved_rows(0, 0, 30) == 0
    first = reserved_rows(1, 0, 30)
    assert first == 1 + 30 - KEEP_IN_VIEW
    assert reserved_rows(first, first, 30) == first  # text fills the box in place
    assert reserved_rows(first + 1, first, 30) == first + 1 + 30 - KEEP_IN_VIEW
    assert reserved_rows(5, 0, 4) == 7  # a tiny pane still grows


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
