"""A reply's Markdown is parsed by one parser built once, configured as Rich's own (issue 19:
building a parser per block was a fifth of rendering a row while the room paged)."""

from __future__ import annotations

import markdown_it
from rich.console import Console
from rich.markdown import Markdown

from keeltui.text.reply_markdown import ReplyMarkdown
from keeltui.text.safe_markdown import safe_markdown

DOC = """# Plan

Some ~~old~~ **new** text and `code`.

| day | task |
| --- | ---- |
| Mon | notes |

1. first
2. second

```python
print("tide")
```
"""


def drawn(renderable) -> str:
    console = Console(width=60, record=True, color_system="truecolor", force_terminal=True)
    console.print(renderable)
    return console.export_text(styles=True)


def test_a_document_is_drawn_as_rich_draws_it():
    assert drawn(safe_markdown(DOC)) == drawn(Markdown(DOC))
    assert drawn(safe_markdown(DOC, ReplyMarkdown, "monokai")) == drawn(ReplyMarkdown(DOC, code_theme="monokai"))


def test_no_parser_is_built_per_document(monkeypatch):
    safe_markdown("warm *up*", ReplyMarkdown)
    built = []
    original = markdown_it.MarkdownIt.__init__

    def counting(self, *args, **kwargs):
        built.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(markdown_it.MarkdownIt, "__init__", counting)
    documents = [safe_markdown(f"Block {i}: *this*", ReplyMarkdown) for i in range(5)]
    assert built == []
    assert [d.markup for d in documents] == [f"Block {i}: *this*" for i in range(5)]  # each its own text
    assert len({id(d.parsed) for d in documents}) == 5
