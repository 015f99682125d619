"""The fenced code blocks of a message, as the owner would copy them. Pure.

A fence is a run of three or more backticks or tildes; it closes with a run of the
same character at least as long, alone on its line (CommonMark). A fence inside a
list item is indented: that indentation is taken off the block's lines. A reply cut
off inside a fence still has its block, up to where the text stops.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from keeltui.text.textsafe import clean_text, one_line

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


@dataclass(frozen=True)
class CodeBlock:
    language: str
    """The first word of the fence's info string ("" when there is none)."""
    code: str
    """The block's text, without its fences, as it shows on screen."""

    @property
    def line_count(self) -> int:
        return self.code.count("\n") + 1 if self.code else 0

    def label(self, width: int = 60) -> str:
        """One line for a chooser: the language, the first line that says something, the size."""
        first = next((line for line in self.code.splitlines() if line.strip()), "")
        lines = f"{self.line_count} line" + ("" if self.line_count == 1 else "s")
        return one_line(f"{self.language or 'code'} · {first.strip()}", width) + f"  ({lines})"

    def confirmation(self) -> str:
        """The one line that says what was copied."""
        lines = f"{self.line_count} line" + ("" if self.line_count == 1 else "s")
        what = f"the {self.language} code block" if self.language else "the code block"
        return f"Copied {what} ({lines})."


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def _dedent(line: str, indent: str) -> str:
    return line[len(indent):] if line.startswith(indent) else line.lstrip(" \t")


def code_blocks(text: str) -> list[CodeBlock]:
    """Every fenced code block in ``text``, in order (visible text only: no escapes)."""
    blocks: list[CodeBlock] = []
    lines = clean_text(text).split("\n")
    index = 0
    while index < len(lines):
        match = _OPEN.match(lines[index])
        index += 1
        if match is None:
            continue
        fence, info = match.group("fence"), match.group("info")
        if fence[0] == "`" and "`" in info:
            continue  # inline code such as ```x``` (a backtick fence's info has no backtick)
        body: list[str] = []
        while index < len(lines) and not _closes(lines[index], fence):
            body.append(_dedent(lines[index], match.group("indent")))
            index += 1
        index += 1  # past the closing fence (or the end of a cut-off reply)
        words = info.strip().split()
        # The language is only a label: one short word, whatever the info string holds.
        blocks.append(CodeBlock(one_line(words[0], 20) if words else "", "\n".join(body)))
    return blocks
