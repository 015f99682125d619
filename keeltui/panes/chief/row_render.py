"""One room row -> the lines it is drawn as. The one place a row's look is decided.

A row is a box: a blank line above it (the gap between rows), then its lines. A turn
has a coloured bar on its left (the owner's or the companion's), the speaker's name,
then its body block by block; a system line (report, summary, notice) is a band in
the theme's panel colour with a badge (colours: keeltui/chief/row_colours.py). The
lines carry no background: the log lays the row's own (plain, focused, a search
match) under them when it draws, so moving the cursor never re-renders a row.

Other features render into a row here: a failed reply's words, a folded "thinking"
block above an answer, a code block's copy key. Keep them as functions of the row and
the :class:`RowLook`, returning Rich renderables or strips.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import ceil
from typing import Callable, Mapping

from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from keeltui.chief.context import Row
from keeltui.chief.row_colours import badge_component
from keeltui.chief.streaming import body_blocks, split_settled
from keeltui.chief.thinking import thinking_block
from keeltui.chief.turn_kinds import SUMMARY, badge
from keeltui.panes.message import block_renderable, speaker_header
from keeltui.panes.versions import folded_line
from keeltui.textsafe import clean_text, looks_like_markdown

BAR = "█"
MARGIN = 1
"""Columns left blank on either side of a row's box."""


@dataclass(frozen=True)
class RowLook:
    """The colours a row is drawn with (from the log's CSS, so they follow the theme)."""

    text: Style
    user_bar: Style
    assistant_bar: Style
    system_text: Style
    badges: Mapping[str, Style] = field(default_factory=dict)
    """Each badge's style by its component class (row_colours.badge_component)."""

    def badge(self, kind: str | None) -> Style:
        return self.badges.get(badge_component(kind), Style(bold=True, reverse=True))


DEFAULT_LOOK = RowLook(text=Style(), user_bar=Style(), assistant_bar=Style(), system_text=Style())
"""The look outside a running app (tests that render a row to text): no colours, the theme gives them."""


@dataclass(frozen=True)
class RowShape:
    """How the row is shown apart from its text: folded, and before Markdown is loaded."""

    folded: bool = False
    """A summary or an earlier version drawn as one line."""
    plain: bool = False
    """The text as written (the first frame: no Markdown parser yet)."""
    thinking_unfolded: bool = False
    """A reply's thinking drawn whole (``t`` on the row), not folded to "▸ thought for N s"."""


def is_system(row: Row) -> bool:
    return bool(row.turn_kind)


def folds(row: Row) -> bool:
    """Whether the row can fold to one line (a summary, an earlier version)."""
    return row.turn_kind == SUMMARY or (not row.turn_kind and row.status == "superseded")


def row_thinking(row: Row) -> tuple[str, float | None]:
    """A reply's stored thinking and how long it took (rows without it: nothing)."""
    return getattr(row, "thinking", "") or "", getattr(row, "thought_secs", None)


def has_thinking(row: Row) -> bool:
    return not is_system(row) and bool(clean_text(row_thinking(row)[0]).strip())


def inner_width(row: Row, width: int) -> int:
    """The columns the row's text may fill in a log ``width`` wide."""
    box = width - 2 * MARGIN
    return max(1, box - (3 if not is_system(row) else 2))


def estimate_height(row: Row, width: int, shape: RowShape) -> int:
    """The row's lines before it is rendered (wrapped plain text; Markdown may differ)."""
    if shape.folded:
        return 2
    cells = inner_width(row, width)
    body = clean_text(row.content)
    lines = 0 if is_system(row) else 1  # a turn's name has a line of its own
    if has_thinking(row):
        lines += 1 + (row_thinking(row)[0].count("\n") + 1 if shape.thinking_unfolded else 0)
    for line in body.split("\n"):
        lines += max(1, ceil(len(line) / cells))
    if is_system(row):
        lines = max(1, lines)
    return 1 + lines


# -- rendering -----------------------------------------------------------------------


def render_strips(console: Console, renderable: RenderableType, width: int, style: Style) -> list[Strip]:
    options = console.options.update(width=width, highlight=False, height=None)
    lines = console.render_lines(renderable, options, style=style, pad=True)
    return [Strip(line, width) for line in lines]


def turn_head(row: Row, speaker: str, shape: RowShape) -> list[RenderableType]:
    """The header (a failed reply's words may take several lines) and the thinking, folded
    unless the owner unfolded it (``t``)."""
    header = speaker_header(speaker, row.status, row.parts)
    thinking, secs = row_thinking(row)
    block = thinking_block(thinking, secs, live=False, unfolded=shape.thinking_unfolded)
    return [header] if block is None else [header, block]


def turn_renderables(row: Row, speaker: str, shape: RowShape) -> list[RenderableType]:
    head = turn_head(row, speaker, shape)
    body = clean_text(row.content)
    if shape.folded and body.strip():
        return [folded_line(speaker_header(speaker, row.status, row.parts), body)]
    if not body.strip():
        return head
    if shape.plain:
        return [*head, Text(body)]
    parts: list[RenderableType] = list(head)
    for i, block in enumerate(body_blocks(row.content)):
        if i:
            parts.append(Text(""))
        parts.append(block_renderable(block))
    return parts


def system_renderable(row: Row, look: RowLook, shape: RowShape) -> RenderableType:
    label = Text(f" {badge(row.turn_kind)} ", style=look.badge(row.turn_kind))
    body = clean_text(row.content)
    foldable = row.turn_kind == SUMMARY
    if foldable and shape.folded:
        first = body.strip().splitlines()[0] if body.strip() else ""
        return Text.assemble(label, (" ▸ ", "bold"), (first, "italic"), no_wrap=True, overflow="ellipsis")
    marker = (" ▾ ", "bold") if foldable else " "
    if looks_like_markdown(body) and not shape.plain:
        from rich.console import Group

        from keeltui.safe_markdown import safe_markdown

        return Group(Text.assemble(label, marker), safe_markdown(body))
    return Text.assemble(label, marker, body)


def row_renderables(row: Row, speaker: str, look: RowLook | None = None, shape: RowShape = RowShape()) -> list[RenderableType]:
    """What the row's box holds, as Rich renderables (one per part, drawn one below the other)."""
    if is_system(row):
        return [system_renderable(row, look or DEFAULT_LOOK, shape)]
    return turn_renderables(row, speaker, shape)


def box_line(row: Row, look: RowLook, inner: Strip) -> Strip:
    """A text line of the row's box: the bar (a turn) and the padding around ``inner``."""
    if is_system(row):
        return Strip.join([Strip([Segment(" ")], 1), inner, Strip([Segment(" ")], 1)])
    bar = look.user_bar if row.role == "user" else look.assistant_bar
    return Strip.join([Strip([Segment(BAR, bar), Segment(" ")], 2), inner, Strip([Segment(" ")], 1)])


def row_lines(row: Row, speaker: str, width: int, look: RowLook, shape: RowShape, console: Console) -> list[Strip]:
    """The row's box lines (no gap line, no background), ``width - 2 * MARGIN`` cells each."""
    cells = inner_width(row, width)
    style = look.system_text if is_system(row) else look.text
    inner = [line for part in row_renderables(row, speaker, look, shape) for line in render_strips(console, part, cells, style)]
    return [box_line(row, look, line) for line in inner]


FENCE_PIECE = 40
"""Lines of an open code block rendered together once they are complete: a long block
streams at the cost of its newest lines, not of all it holds so far."""


def _open_fence(tail: str) -> tuple[str, list[str]] | None:
    """The fence line and the code lines of ``tail`` if it is one code block still open."""
    lines = tail.split("\n")
    opener = lines[0].lstrip()
    if not opener.startswith(("```", "~~~")):
        return None
    mark = opener[:3]
    if any(line.strip().startswith(mark) for line in lines[1:]):
        return None  # closed: it settles at the next blank line, rendered whole
    return lines[0], lines[1:]


class StreamLines:
    """A streaming reply's body lines: settled blocks rendered once, the tail each time.

    ``render(text)`` is handed the block's text and returns its inner lines; a flush
    costs the tail's rendering, not the whole reply's. An open code block is the one
    tail that grows without bound: its complete lines are rendered in pieces of
    :data:`FENCE_PIECE` lines, once each (a code block rendered in pieces is the block
    rendered whole, less the padding between the pieces), so a flush renders only the
    newest piece.
    """

    def __init__(self, render: Callable[[str], list[Strip]], gap: Strip) -> None:
        self._render = render
        self._gap = gap
        """The blank line between two blocks."""
        self.settled: list[Strip] = []
        self._settled_blocks = 0
        self.tail: list[Strip] = []
        self._fence: tuple[int, str] | None = None
        """The open code block whose pieces are kept: (settled blocks before it, its fence line)."""
        self._fence_lines: list[Strip] = []
        self._fence_done = 0

    @property
    def settled_count(self) -> int:
        return len(self.settled)

    def update(self, text: str) -> None:
        blocks, tail = split_settled(text)
        for block in blocks[self._settled_blocks:]:
            lines = self._render(block) if clean_text(block).strip() else []
            if self.settled and lines:
                self.settled.append(self._gap)
            self.settled.extend(lines)
        self._settled_blocks = len(blocks)
        tail_lines = self._tail_lines(tail) if clean_text(tail).strip() else []
        if tail_lines and self.settled:
            tail_lines.insert(0, self._gap)
        self.tail = tail_lines

    def _tail_lines(self, tail: str) -> list[Strip]:
        fence = _open_fence(tail)
        if fence is None:
            self._fence = None
            return self._render(tail)
        opener, code = fence
        if self._fence != (self._settled_blocks, opener):
            self._fence, self._fence_lines, self._fence_done = (self._settled_blocks, opener), [], 0
        complete = len(code) - 1  # the last line is still being written
        while complete - self._fence_done >= FENCE_PIECE:
            piece = code[self._fence_done:self._fence_done + FENCE_PIECE]
            lines = self._render("\n".join([opener, *piece, opener.lstrip()[:3]]))
            lines = lines[:-1] if self._fence_done == 0 else lines[1:-1]  # no padding between pieces
            self._fence_lines.extend(lines)
            self._fence_done += FENCE_PIECE
        if not self._fence_done:
            return self._render(tail)
        rest = self._render("\n".join([opener, *code[self._fence_done:]]))
        return self._fence_lines + rest[1:]
