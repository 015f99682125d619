"""A streaming reply's lines (keeltui/panes/chief/room_stream.py StreamLines): the open tail is the
only part re-rendered, and a long code block is rendered in pieces once each, drawing exactly what
the whole block draws (issue 19: a 5 000-line block must not make every flush slower)."""

from __future__ import annotations

from rich.console import Console
from rich.segment import Segment

from keeltui.panes.chief.room_stream import FENCE_PIECE, StreamLines
from keeltui.panes.chief.row_render import inner_lines
from keeltui.panes.common.turn import block_renderable
from rich.style import Style

CONSOLE = Console(width=80, force_terminal=True, color_system="truecolor")


def lines_of(text: str) -> list[list[Segment]]:
    return inner_lines(CONSOLE, block_renderable(text), 60, Style())


def streamed(text: str, step: int) -> tuple[StreamLines, list[int]]:
    """``text`` streamed ``step`` characters a flush; the lines each flush rendered."""
    rendered: list[int] = []

    def render(block: str) -> list[list[Segment]]:
        lines = lines_of(block)
        rendered[-1] += len(lines)
        return lines

    stream = StreamLines(render, [Segment(' ' * 60)])
    for end in range(step, len(text) + step, step):
        rendered.append(0)
        stream.update(text[:end])
    return stream, rendered


def as_text(lines: list[list[Segment]]) -> list[tuple[str, list]]:
    """Each line's text and each cell's style (how a line is cut into segments, and an empty
    style from none, are not seen)."""
    return [("".join(segment.text for segment in line), [segment.style or None for segment in line for _ in segment.text])
            for line in lines]


def test_an_open_code_block_streamed_in_pieces_draws_what_the_whole_block_draws():
    code = "\n".join(f"total_{i} = add({i}, 'x')  # line {i}" for i in range(3 * FENCE_PIECE + 7))
    text = "Here it is:\n\n```python\n" + code + "\n"
    stream, _ = streamed(text, 97)
    whole = StreamLines(lines_of, [Segment(' ' * 60)])
    whole.update(text)
    assert as_text(stream.settled + stream.tail) == as_text(whole.settled + whole.tail)
    assert as_text(stream.tail[1:]) == as_text(lines_of("```python\n" + code + "\n"))  # below the gap


def test_each_flush_renders_the_newest_lines_not_the_whole_block():
    code = "\n".join(f"value_{i} = {i}" for i in range(1_000))
    _, rendered = streamed("```python\n" + code, 400)  # ~30 lines a flush
    assert max(rendered[-20:]) < 3 * FENCE_PIECE, rendered[-20:]  # bounded, however long the block grew


def whole_lines(text: str) -> list[list[Segment]]:
    """What a stored row draws for ``text``: each block rendered whole, a blank line between."""
    from keeltui.chief.streaming import body_blocks

    out: list[list[Segment]] = []
    for block in body_blocks(text):
        if out:
            out.append([Segment(' ' * 60)])
        out.extend(lines_of(block))
    return out


def test_a_code_block_closed_with_text_after_it_in_the_same_block_draws_what_the_row_draws():
    code = "\n".join(f"x_{i} = {i}" + ("\n" if i % 17 == 0 else "") for i in range(2 * FENCE_PIECE + 11))
    text = "Here it is:\n```python\n" + code + "\n```\nDone, **all** of it."
    stream, rendered = streamed(text, 61)
    assert as_text(stream.settled + stream.tail) == as_text(whole_lines(text))
    # The last flush rendered the block's newest lines and the text after it, not the block again.
    assert rendered[-1] < FENCE_PIECE, rendered[-3:]


def test_blank_lines_at_a_piece_edge_stay_in_the_code():
    lines = [f"y_{i} = {i}" for i in range(FENCE_PIECE - 2)] + ["", "", "z = 1"] + [f"w_{i}" for i in range(FENCE_PIECE)]
    text = "```python\n" + "\n".join(lines) + "\n"
    for step in (7, 40, 333):
        stream, _ = streamed(text, step)
        assert as_text(stream.settled + stream.tail) == as_text(whole_lines(text)), step


def test_a_code_block_that_settles_keeps_its_pieces():
    code = "\n".join(f"v_{i} = {i}" for i in range(3 * FENCE_PIECE))
    text = "```python\n" + code + "\n```\n\nAfter the block."
    stream, rendered = streamed(text, 53)
    assert as_text(stream.settled + stream.tail) == as_text(whole_lines(text))
    assert max(rendered[-3:]) < 2 * FENCE_PIECE, rendered[-3:]  # settling did not render its 120 lines again


def test_each_piece_is_a_step_the_caller_may_stop_between():
    code = "\n".join(f"s_{i} = {i}" for i in range(5 * FENCE_PIECE))
    text = "```python\n" + code + "\n"
    stream = StreamLines(lines_of, [Segment(' ' * 60)])
    steps = stream.steps(text)
    next(steps)  # one piece rendered
    assert stream.tail == [] and stream.settled == []  # what is drawn changes at the end only
    steps.close()
    stream.update(text)  # taken up again from the pieces already rendered
    assert as_text(stream.tail) == as_text(whole_lines(text))


def test_a_growing_code_block_is_read_as_the_whole_block_is(monkeypatch):
    from keeltui.panes.chief import room_stream
    from keeltui.panes.chief.room_stream import FenceReader

    text = "Here:\n\n```python\nx = 1\n`` not yet\n  ```\nafter\n\n~~~\ny\n~~~"
    reader = FenceReader()
    for end in range(len(text) + 1):
        assert reader.parts(text[:end]) == FenceReader().parts(text[:end]), end
    searched: list[int] = []
    closed = room_stream._closed
    monkeypatch.setattr(room_stream, "_closed", lambda before, opener, code, start:
                        (searched.append(len(code) - start), closed(before, opener, code, start))[1])
    reader, block = FenceReader(), "```python\n"
    for i in range(500):
        block += f"value_{i} = {i}\n"
        reader.parts(block)
    # Each call looks for the closing line among the lines that came since, not the whole block.
    assert max(searched[1:]) == 2, max(searched)


def test_a_block_that_opens_with_a_fence_shows_without_cleaning_its_text(monkeypatch):
    from keeltui.panes.chief import room_stream

    monkeypatch.setattr(room_stream, "clean_text", lambda text: (_ for _ in ()).throw(AssertionError(text)))
    assert room_stream.shows_text("\n  ```python\n" + "x = 1\n" * 5_000)
    monkeypatch.undo()
    assert not room_stream.shows_text(" \x1b[31m \n")
    assert room_stream.shows_text("\x1b[31mred")


def test_a_long_code_block_is_rendered_a_few_lines_at_a_time():
    # The loop is let through between two renders: a key typed while a block streams
    # at 500 lines/s waits behind one small render (~0.4 ms a line), not behind 40 lines.
    sizes: list[int] = []

    def render(block: str) -> list[list[Segment]]:
        sizes.append(block.count("\n") + 1)
        return [[Segment(' ')]] * sizes[-1]

    StreamLines(render, [Segment(' ' * 60)]).update("```python\n" + "\n".join(f"value_{i} = {i}" for i in range(400)))
    assert len(sizes) > 10 and max(sizes) <= 22, sizes  # 20 code lines and the fence's two
