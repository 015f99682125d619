"""A reply's Markdown as the room draws it: one look for every block, from the theme. Textual-free.

Rich's Markdown draws a numbered list as "1 first item" (no dot), a quote in magenta (read as
an error next to a failed reply), a code block without its language; and rendered block by
block it leaves a blank line at each block's end, so two blocks stood two lines apart. Here a
list keeps "1.", a quote is muted, a code block carries its language on a label line, and
:func:`trim_blank` cuts the blank lines around a block so the room joins blocks with one.
Every colour comes from the theme's colours, handed in as hex (markdown_look.py).
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import CodeBlock, Heading, ListElement, ListItem, Markdown
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from keeltui.text.markdown_look import CODE_LABEL
from keeltui.text.quick_syntax import QuickSyntax


class NumberedItem(ListItem):
    """A numbered list item that keeps its number as written: "1. first item"."""

    def render_number(self, console: Console, options: ConsoleOptions, number: int, last_number: int) -> RenderResult:
        width = len(str(last_number)) + 3
        lines = console.render_lines(self.elements, options.update(width=options.max_width - width), style=self.style)
        number_style = console.get_style("markdown.item.number", default="none")
        numeral = Segment(f"{number}.".rjust(width - 1) + " ", number_style)
        padding = Segment(" " * width)
        for index, line in enumerate(lines):
            yield numeral if index == 0 else padding
            yield from line
            yield Segment.line()


class ItemList(ListElement):
    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self.list_type == "bullet_list_open":
            yield from super().__rich_console__(console, options)
            return
        first = 1 if self.list_start is None else self.list_start
        last = first + len(self.items) - 1  # the widest number is the last one shown
        for index, item in enumerate(self.items):
            yield from item.render_number(console, options, first + index, last)


class LabelledCode(CodeBlock):
    """A code block with its language on the line above the code, on the block's background."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        block = console.get_style("markdown.code_block", default="none")
        background = block.bgcolor
        label = Style(bgcolor=background) + console.get_style(CODE_LABEL, default="none")
        # The label takes the place of Rich's top padding line: a block is still one line
        # above its code and one below (a streamed block is rendered in pieces by that shape).
        shown = self.lexer_name if self.lexer_name and self.lexer_name != "text" else ""
        yield _label_line(shown, label, options.max_width)
        # Syntax's cells, drawn straight from the tokens (a streaming block renders every line).
        yield QuickSyntax(str(self.text).rstrip(), self.lexer_name, theme=self.theme,
                          background_color=background.name if background is not None else None)
        yield _label_line("", label, options.max_width)


def _label_line(lexer: str, style: Style, width: int) -> Text:
    text = Text(f" {lexer}" if lexer else "", style=style, no_wrap=True, overflow="ellipsis")
    text.pad_right(max(0, width - text.cell_len))
    return text


class LeftHeading(Heading):
    """Every heading at the left edge, where the reader's eye is (Rich centres a level-one heading)."""

    LEVEL_ALIGN = {**Heading.LEVEL_ALIGN, "h1": "left"}


class ReplyMarkdown(Markdown):
    elements = {**Markdown.elements, "heading_open": LeftHeading, "fence": LabelledCode, "code_block": LabelledCode,
                "bullet_list_open": ItemList, "ordered_list_open": ItemList, "list_item_open": NumberedItem}
