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
from rich.measure import Measurement
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
        lines = self._quick_lines(options.max_width)
        if lines is None:
            yield self.syntax()
            return
        yield from lines

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.syntax())  # a container sizing it measures Syntax

    def _quick_lines(self, width: int) -> list[Segment] | None:
        """The block's segments, or None where ``Syntax`` must draw it (a line to wrap, a
        character of no width)."""
        look = _look(self.theme, self.background_color)
        if look is None or width < 3:
            return None
        code_width = width - 2  # one cell of padding either side
        ends_on_newline = self.code.endswith("\n")
        code = self.code if ends_on_newline else self.code + "\n"
        code = code.expandtabs(TAB_SIZE)
        if any(cell_len(row) > code_width for row in code.split("\n")):
            return None
        if any(cell_len(ch) == 0 for ch in set(code) if ch != "\n"):
            return None  # a combining mark or a zero-width space: Syntax's wrapping counts them its own way
        edge = Segment(" ", look.base)
        out: list[Segment] = []
        row: list[Segment] = [edge]
        used = 0
        for token_type, text in _lexer(self.lexer).get_tokens(code):
            style = look.cell(token_type)
            while text:
                piece, newline, text = text.partition("\n")
                if piece:
                    row.append(Segment(piece, style))
                    used += cell_len(piece)
                if newline:
                    if used < code_width:
                        row.append(Segment(" " * (code_width - used), look.blank))
                    row += [edge, Segment.line()]
                    out += row
                    row, used = [edge], 0
        if ends_on_newline:  # Syntax keeps the empty line after the last newline
            out += [edge, Segment(" " * code_width, look.blank), edge, Segment.line()]
        return out


class _Look:
    """The styles of a block's cells for one theme and background, as ``Syntax`` chains them:
    the line's Text (base style) with a span per token and "on <background>" over all,
    rendered with the background style laid under it, then padded in the base style."""

    def __init__(self, theme: SyntaxTheme, base: Style, background: Style | None) -> None:
        self._theme = theme
        self.base = base
        self._background = background
        self._under = base + (background or Style())
        self.blank = self._under + base
        """The spaces that fill a line: in the Text's style, outside every span."""
        self._cells: dict[object, Style] = {}

    def cell(self, token_type) -> Style:
        style = self._cells.get(token_type)
        if style is None:
            token_style = self._theme.get_style_for_token(token_type)
            chain = [self.base]
            if token_style:  # Text.append_tokens adds no span for a null style
                chain.append(token_style)
            if self._background is not None:
                chain.append(self._background)
            style = self._cells[token_type] = self._under + Style.combine(chain)
        return style


@lru_cache(maxsize=16)
def _look(theme_name: str, background_color: str | None) -> _Look | None:
    """None where Syntax draws a transparent background (its own path, left to it)."""
    theme = _theme(theme_name)
    background = Style.parse(f"on {background_color}") if background_color is not None else None
    base = theme.get_background_style() + (background or Style())  # Syntax's base style
    return None if base.transparent_background else _Look(theme, base, background)


__all__ = ["QuickSyntax"]
