"""Markdown from the model, with links that cannot lie. Textual-free.

Rich turns a Markdown link into a terminal hyperlink (OSC 8) whose target is hidden
behind its text: ``[your bank](https://evil.example)`` or a ``file:``/``ssh:``/custom
scheme that some terminals open on a click. Here a link stays a hyperlink only for
http(s), and its target is always written out next to its text; any other link is plain
text followed by its target. Images never link.
"""

from __future__ import annotations

from copy import copy
from functools import cache, lru_cache
from urllib.parse import urlsplit

SAFE_SCHEMES = ("http", "https")


def link_allowed(href: str) -> bool:
    """Whether ``href`` may be a clickable hyperlink: http(s) with a host."""
    try:
        parts = urlsplit(href.strip())
        return parts.scheme.lower() in SAFE_SCHEMES and bool(parts.hostname)
    except ValueError:
        return False


def _text_token(template, content: str):
    token = template.__class__("text", "", 0)
    token.content = content
    return token


def _rewrite(children: list) -> list:
    """One inline token list with every link made honest."""
    out: list = []
    stack: list[tuple[str, bool, list]] = []  # (href, kept as a link, text seen inside)
    for token in children:
        if token.type == "link_open":
            href = str(token.attrs.get("href", ""))
            keep = link_allowed(href)
            stack.append((href, keep, []))
            if keep:
                out.append(token)
            continue
        if token.type == "link_close" and stack:
            href, keep, seen = stack.pop()
            if keep:
                out.append(token)
            if "".join(seen).strip() != href.strip():
                out.append(_text_token(token, f" ({href})"))
            continue
        if token.type in ("image",) or token.tag == "img":
            src = str(token.attrs.get("src", ""))
            token.attrs["src"] = ""  # an image's title is never a hyperlink
            out.append(token)
            if src:
                out.append(_text_token(token, f" ({src})"))
            continue
        if stack and token.type in ("text", "code_inline"):
            stack[-1][2].append(token.content)
        out.append(token)
    return out


def _walk(tokens: list) -> None:
    for token in tokens:
        if token.children:
            token.children = _rewrite(token.children)


@cache
def _parser():
    """One Markdown parser, configured as Rich's ``Markdown`` configures the one it builds for
    every document (building it was a fifth of rendering a reply's row: ~0.5 ms)."""
    from markdown_it import MarkdownIt

    return MarkdownIt().enable("strikethrough").enable("table")


@lru_cache(maxsize=16)
def _blank(markdown_class, code_theme: str):
    """An empty document of ``markdown_class``: a new one is a copy with its own text."""
    return markdown_class("", code_theme=code_theme)


def safe_markdown(text: str, markdown_class=None, code_theme: str = "monokai"):
    """A ``rich.markdown.Markdown`` (or ``markdown_class``) of ``text`` (already cleaned) with honest links."""
    from rich.markdown import Markdown

    markdown = copy(_blank(markdown_class or Markdown, code_theme))
    markdown.markup = text
    markdown.parsed = _parser().parse(text)
    _walk(markdown.parsed)
    return markdown
