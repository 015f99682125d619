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

from keeltui.infra.records import record
from contextlib import nullcontext
from math import ceil
from collections.abc import Mapping, Sequence

from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from rich.theme import Theme
from textual.color import Color

from keeltui.chief.context import Row
from keeltui.chief.row_cache import Line
from keeltui.chief.row_colours import badge_component
from keeltui.chief.row_time import clock, report_source
from keeltui.chief.streaming import body_blocks
from keeltui.chief.thinking import thinking_block
from keeltui.chief.turn_kinds import SUMMARY, badge
from keeltui.panes.common.turn import block_renderable, folded_line, speaker_header
from keeltui.text.markdown_look import markdown_theme, trim_blank
from keeltui.text.textsafe import clean_text, looks_like_markdown

BAR = "█"
MARGIN = 1
"""Columns left blank on either side of a row's box."""


@record(frozen=True)
class RowLook:
    """The colours a row is drawn with (from the log's CSS, so they follow the theme)."""

    text: Style
    user_bar: Style
    assistant_bar: Style
    system_text: Style
    markdown: Theme | None = None
    """A reply's Markdown styles in the app's theme (reply_markdown.markdown_theme)."""
    dark: bool = True
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


def inner_lines(console: Console, renderable: RenderableType, width: int, style: Style) -> list[list[Segment]]:
    """``renderable``'s lines, each exactly ``width`` cells (Rich pads and crops them)."""
    options = console.options.update(width=width, highlight=False, height=None)
    return console.render_lines(renderable, options, style=style, pad=True)


def turn_head(row: Row, speaker: str, shape: RowShape) -> list[RenderableType]:
    """The header (a failed reply's words may take several lines) and the thinking, folded
    unless the owner unfolded it (``t``)."""
    header = with_clock(speaker_header(speaker, row.status, row.parts), row)
    thinking, secs = row_thinking(row)
    block = thinking_block(thinking, secs, live=False, unfolded=shape.thinking_unfolded)
    return [header] if block is None else [header, block]


def with_clock(header: Text, row: Row) -> Text:
    """The header with the row's time, dim (a row without a time: as it is)."""
    when = clock(getattr(row, "created_at", 0.0) or 0.0)
    if when:
        header.append(f"  {when}", style="dim")
    return header


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
    source = report_source(row.turn_kind, getattr(row, "source", None))
    when = clock(getattr(row, "created_at", 0.0) or 0.0)
    if source or when:
        label.append_text(Text(" " + "  ".join(part for part in (source, when) if part), style="dim"))
    body = clean_text(row.content)
    foldable = row.turn_kind == SUMMARY
    if foldable and shape.folded:
        first = body.strip().splitlines()[0] if body.strip() else ""
        return Text.assemble(label, (" ▸ ", "bold"), (first, "italic"), no_wrap=True, overflow="ellipsis")
    marker = (" ▾ ", "bold") if foldable else " "
    if looks_like_markdown(body) and not shape.plain:
        from rich.console import Group

        from keeltui.text.safe_markdown import safe_markdown

        return Group(Text.assemble(label, marker), safe_markdown(body))
    return Text.assemble(label, marker, body)


def row_renderables(row: Row, speaker: str, look: RowLook | None = None, shape: RowShape = RowShape()) -> list[RenderableType]:
    """What the row's box holds, as Rich renderables (one per part, drawn one below the other)."""
    if is_system(row):
        return [system_renderable(row, look or DEFAULT_LOOK, shape)]
    return turn_renderables(row, speaker, shape)


def box_line(row: Row, look: RowLook, inner: list[Segment]) -> Line:
    """A text line of the row's box as the room keeps it: the bar (a turn) and the padding
    around ``inner``. ``inner`` is the text's width exactly (``inner_lines``), so the
    line is the box's: it is built once as a tuple of segments, no strip (row_cache.py
    says why), and nothing is measured or cut again when it is kept or drawn."""
    if is_system(row):
        return (_SPACE, *inner, _SPACE)
    return (Segment(BAR, look.user_bar if row.role == "user" else look.assistant_bar), _SPACE, *inner, _SPACE)


_SPACE = Segment(" ")


def blank_inner(cells: int) -> list[Segment]:
    """An empty text line ``cells`` wide (the gap between a reply's blocks)."""
    return [Segment(" " * cells)]


def themed(console: Console, look: RowLook):
    """The console drawing with the reply's Markdown styles of the app's theme."""
    return console.use_theme(look.markdown) if look.markdown is not None else nullcontext()


def block_lines(console: Console, block: str, width: int, look: RowLook) -> list[list[Segment]]:
    """One block of a reply's body, without the blank lines Rich leaves around it."""
    options = console.options.update(width=width, highlight=False, height=None)
    with themed(console, look):
        lines = console.render_lines(block_renderable(block, look.dark), options, style=look.text, pad=True)
    return trim_blank(lines)


def body_lines(console: Console, text: str, width: int, look: RowLook) -> list[list[Segment]]:
    """A reply's body as one document: its blocks one blank line apart (as while it streamed)."""
    out: list[list[Segment]] = []
    for block in body_blocks(text):
        lines = block_lines(console, block, width, look)
        if out and lines:
            out.append(blank_inner(width))
        out.extend(lines)
    return out


def row_lines(row: Row, speaker: str, width: int, look: RowLook, shape: RowShape, console: Console) -> list[Line]:
    """The row's box lines (no gap line, no background), ``width - 2 * MARGIN`` cells each."""
    cells = inner_width(row, width)
    style = look.system_text if is_system(row) else look.text
    with themed(console, look):
        if not is_system(row) and not shape.folded and not shape.plain and clean_text(row.content).strip():
            return (boxed(console, row, look, turn_head(row, speaker, shape), cells, style)
                    + [box_line(row, look, line) for line in body_lines(console, row.content, cells, look)])
        return boxed(console, row, look, row_renderables(row, speaker, look, shape), cells, style)


def boxed(console: Console, row: Row, look: RowLook, parts: Sequence[RenderableType], cells: int, style: Style) -> list[Line]:
    """``parts`` drawn one below the other, ``cells`` wide, each line in the row's box."""
    return [box_line(row, look, line) for part in parts for line in inner_lines(console, part, cells, style)]


def markdown_look(variables: Mapping[str, str], dark: bool) -> Theme:
    """The Markdown styles from the app's theme variables (``App.get_css_variables()``):
    colours with an alpha are laid over the background, as the screen shows them."""
    background = Color.parse(variables.get("background", "#000000"))

    def colour(*names: str) -> str:
        name = next((n for n in names if n in variables and not variables[n].startswith("auto")), "foreground")
        return (background + Color.parse(variables.get(name, "#808080"))).hex

    return markdown_theme({
        "foreground": colour("foreground"), "muted": colour("foreground-muted"),
        "primary": colour("text-primary", "primary"), "secondary": colour("text-secondary", "secondary"),
        "accent": colour("text-accent", "accent"), "code-background": colour("panel", "surface"),
    }, dark)
