"""A reply's Markdown styles from the theme, and the blank lines cut around a block. Textual-free.

Apart from reply_markdown.py so the room's first frame (which reads its colours) does not
import Rich's Markdown parser (~40 ms): that waits until Markdown is first drawn.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.segment import Segment
from rich.style import Style
from rich.theme import Theme

CODE_LABEL = "markdown.code_label"
"""The style of a code block's language line."""

THEME_COLOURS = ("foreground", "muted", "primary", "secondary", "accent", "code-background")
"""The colours :func:`markdown_theme` is handed (hex), resolved from the app's theme."""


def markdown_theme(colours: Mapping[str, str], dark: bool) -> Theme:
    """The Markdown styles of a reply in a theme with these ``colours`` (see THEME_COLOURS)."""
    muted, primary, accent = colours["muted"], colours["primary"], colours["accent"]
    code_bg = colours["code-background"]
    return Theme({
        "markdown.block_quote": Style(color=muted, italic=True),
        "markdown.code": Style(color=accent, bold=True),
        "markdown.code_block": Style(bgcolor=code_bg),
        CODE_LABEL: Style(color=muted, bgcolor=code_bg, italic=True),
        "markdown.item.bullet": Style(color=primary, bold=True),
        "markdown.item.number": Style(color=primary),
        "markdown.hr": Style(color=muted),
        "markdown.h1": Style(color=primary, bold=True, underline=True),
        "markdown.h1.border": Style(color=primary),
        "markdown.h2": Style(color=primary, bold=True, underline=True),
        "markdown.h3": Style(color=primary, bold=True),
        "markdown.h4": Style(color=primary, italic=True),
        "markdown.link": Style(color=colours["secondary"] if not dark else accent),
        "markdown.link_url": Style(color=primary, underline=True),
        "markdown.table.border": Style(color=muted),
        "markdown.table.header": Style(color=primary, bold=True),
        "markdown.kbd": Style(color=accent, bold=True),
    }, inherit=True)


def code_theme(dark: bool) -> str:
    """The Pygments style for code (its background is replaced by the theme's)."""
    return "monokai" if dark else "friendly"


def is_blank(line: list[Segment]) -> bool:
    """A line with no text and no background (a code block's padding has one: it stays)."""
    return all(not seg.text.strip() and (seg.style is None or seg.style.bgcolor is None) for seg in line)


def trim_blank(lines: list[list[Segment]]) -> list[list[Segment]]:
    """``lines`` without the blank lines at either end (the room puts one between blocks)."""
    start, end = 0, len(lines)
    while start < end and is_blank(lines[start]):
        start += 1
    while end > start and is_blank(lines[end - 1]):
        end -= 1
    return lines[start:end]
