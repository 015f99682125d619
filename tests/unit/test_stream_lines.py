"""A streaming reply's lines (keeltui/panes/chief/row_render.py StreamLines): the open tail is the
only part re-rendered, and a long code block is rendered in pieces once each, drawing exactly what
the whole block draws (issue 19: a 5 000-line block must not make every flush slower)."""

from __future__ import annotations

from rich.console import Console
from textual.strip import Strip

from keeltui.panes.chief.row_render import FENCE_PIECE, StreamLines, render_strips
from keeltui.panes.message import block_renderable
from rich.style import Style

CONSOLE = Console(width=80, force_terminal=True, color_system="truecolor")


def lines_of(text: str) -> list[Strip]:
    return render_strips(CONSOLE, block_renderable(text), 60, Style())


def streamed(text: str, step: int) -> tuple[StreamLines, list[int]]:
    """``text`` streamed ``step`` characters a flush; the lines each flush rendered."""
    rendered: list[int] = []

    def render(block: str) -> list[Strip]:
        lines = lines_of(block)
        rendered[-1] += len(lines)
        return lines

    stream = StreamLines(render, Strip.blank(60))
    for end in range(step, len(text) + step, step):
        rendered.append(0)
        stream.update(text[:end])
    return stream, rendered


def as_text(lines: list[Strip]) -> list[tuple[str, list]]:
    return [(line.text, [segment.style for segment in line]) for line in lines]


def test_an_open_code_block_streamed_in_pieces_draws_what_the_whole_block_draws():
    code = "\n".join(f"total_{i} = add({i}, 'x')  # line {i}" for i in range(3 * FENCE_PIECE + 7))
    text = "Here it is:\n\n```python\n" + code + "\n"
    stream, _ = streamed(text, 97)
    whole = StreamLines(lines_of, Strip.blank(60))
    whole.update(text)
    assert as_text(stream.settled + stream.tail) == as_text(whole.settled + whole.tail)
    assert as_text(stream.tail[1:]) == as_text(lines_of("```python\n" + code + "\n"))  # below the gap


def test_each_flush_renders_the_newest_lines_not_the_whole_block():
    code = "\n".join(f"value_{i} = {i}" for i in range(1_000))
    _, rendered = streamed("```python\n" + code, 400)  # ~30 lines a flush
    assert max(rendered[-20:]) < 3 * FENCE_PIECE, rendered[-20:]  # bounded, however long the block grew
