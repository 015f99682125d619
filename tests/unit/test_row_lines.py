"""A row's box lines are the box's width exactly, whatever the text (issue 19: they are built
as segment tuples straight from Rich's padded lines and drawn as they are; nothing measures
or cuts them again, so a line one cell short or long would show as a torn row)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console

from keeltui.panes.chief.row_render import DEFAULT_LOOK, MARGIN, RowShape, row_lines
from keeltui.store import Row

CONSOLE = Console(width=200, force_terminal=True, color_system="truecolor")

_PIECES = ["word", " ", "\n", "\n\n", "**bold**", "`code`", "- item\n", "1. first\n", "# Head\n", "> quote\n",
           "```python\nx = 1\n```\n", "漢字", "😀", "\t", "é", "\u0301", "[link](https://example.com)", "| a | b |\n|---|---|\n| 1 | 2 |\n"]


@settings(max_examples=150, deadline=None)
@given(text=st.lists(st.sampled_from(_PIECES), max_size=25).map("".join), width=st.integers(12, 140),
       role=st.sampled_from(["user", "assistant"]), turn_kind=st.sampled_from([None, "report", "summary", "notice"]),
       folded=st.booleans(), plain=st.booleans())
def test_every_line_is_the_box_width(text, width, role, turn_kind, folded, plain):
    row = Row(id=1, conversation_id=1, role=role, content=text, turn_kind=turn_kind, created_at=1.7e9)
    lines = row_lines(row, "Chief", width, DEFAULT_LOOK, RowShape(folded=folded, plain=plain), CONSOLE)
    assert lines
    for line in lines:
        assert isinstance(line, tuple)
        assert sum(cell_len(segment.text) for segment in line) == width - 2 * MARGIN, line
