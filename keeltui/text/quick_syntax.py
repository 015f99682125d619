"""A code block's lines, as Rich's ``Syntax`` draws them, at a fraction of the cost. Textual-free.

A reply streaming a long code block renders every code line once, and Rich's ``Syntax``
spends most of a line's time wrapping, justifying and cropping a ``Text`` that needs none
of it: a line narrower than the block goes through the whole machinery to come out as
its tokens, then spaces. Here such a block is drawn straight from Pygments' tokens, each
token in the style ``Syntax`` would give it (the same styles, combined in the same order,
cached per token type). A block with a line to wrap is handed to ``Syntax`` itself.
tests/unit/test_quick_syntax.py holds the two to the same cells, token by token.
"""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.syntax import Syntax, SyntaxTheme

TAB_SIZE = 4  # Syntax's default, which the reply's code blocks keep


@lru_cache(maxsize=8)
def _theme(name: str) -> SyntaxTheme:
    return Syntax.get_theme(name)  # a Pygments style is read once, not per block


@lru_cache(maxsize=64)
def _lexer(name: str):
    # As Syntax finds it (its options), or Pygments' plain text lexer as Syntax falls back to.
    probe = Syntax("", name, tab_size=TAB_SIZE)
    return probe.lexer or probe.default_lexer


class QuickSyntax:
    """``Syntax(code, lexer, theme=theme, word_wrap=True, padding=(0, 1),
    background_color=background)`` drawn to the same cells."""

    def __init__(self, code: str, lexer: str, *, theme: str, background_color: str | None) -> None:
        self.code = code
        self.lexer = lexer
        self.theme = theme
        self.background_color = background_color

    def syntax(self) -> Syntax:
        return Syntax(self.code, self.lexer, theme=self.theme, word_wrap=True, padding=(0, 1),
                      background_color=self.background_color, tab_size=TAB_SIZE)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = self._quick_lines(console, options.max_width)
        if lines is None:
            yield self.syntax()
            return
        yield from lines

    def _quick_lines(self, console: Console, width: int) -> list[Segment] | None:
        """The block's segments, or None where ``Syntax`` must draw it (a line to wrap)."""
        theme = _theme(self.theme)
        background = Style.parse(f"on {self.background_color}") if self.background_color is not None else Style()
        base = theme.get_background_style() + background  # Syntax's base style
        if base.transparent_background or width < 3:
            return None
        code_width = width - 2  # one cell of padding either side
        ends_on_newline = self.code.endswith("\n")
        code = self.code if ends_on_newline else self.code + "\n"
        code = code.expandtabs(TAB_SIZE)
        rows = code.split("\n")[:-1]
        if any(cell_len(row) > code_width for row in rows):
            return None
        # Syntax: the line's Text (base style) with a span per token and "on <background>"
        # over all; rendered with the background style laid under it, then padded in the
        # base style: each cell's style is that chain, left to right.
        under = base + background
        on_background = console.get_style(f"on {self.background_color}") if self.background_color is not None else None
        cell_style = _cell_styles(under, base, on_background, theme)
        blank = under + base  # the spaces that fill a line: in the Text's style, outside every span
        edge = Segment(" ", base)
        out: list[Segment] = []
        row: list[Segment] = [edge]
        used = 0
        for token_type, text in _lexer(self.lexer).get_tokens(code):
            style = cell_style(token_type)
            while text:
                piece, newline, text = text.partition("\n")
                if piece:
                    row.append(Segment(piece, style))
                    used += cell_len(piece)
                if newline:
                    if used < code_width:
                        row.append(Segment(" " * (code_width - used), blank))
                    row += [edge, Segment.line()]
                    out += row
                    row, used = [edge], 0
        if ends_on_newline:  # Syntax keeps the empty line after the last newline
            out += [edge, Segment(" " * code_width, blank), edge, Segment.line()]
        return out


def _cell_styles(under: Style, base: Style, on_background: Style | None, theme: SyntaxTheme):
    cache: dict[object, Style] = {}

    def cell_style(token_type) -> Style:
        style = cache.get(token_type)
        if style is None:
            token_style = theme.get_style_for_token(token_type) if token_type is not None else None
            chain = [base]
            if token_style:  # Text.append_tokens adds no span for a null style
                chain.append(token_style)
            if on_background is not None:
                chain.append(on_background)
            style = cache[token_type] = under + Style.combine(chain)
        return style

    return cell_style


__all__ = ["QuickSyntax"]
