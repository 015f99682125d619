"""What the keys on a focused row do with its text: copy a code block, read it in the pager.

They see a row only as its id and its text: the Chief room's log hands over its cursor
row's (``cursor_row_text``); a row widget elsewhere carries ``row_id`` and ``row_text``.
Never the drawing. Copies go out through OSC 52 (``App.copy_to_clipboard``, which
works over SSH and, with ``set -g set-clipboard on``, in tmux), visible text only.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import App
from textual.message import Message
from textual.widget import Widget

from keeltui.chief.code_blocks import code_blocks
from keeltui.text.textsafe import clean_text

WHOLE_REPLY_COPIED = "Copied the whole reply as Markdown."


@dataclass(frozen=True)
class RowText:
    row_id: int
    text: str


class PagerWanted(Message):
    """The owner wants to read a row in $PAGER: the app lends the terminal (it may refuse)."""

    def __init__(self, row: RowText) -> None:
        super().__init__()
        self.row = row


def focused_row(log: Widget) -> RowText | None:
    """The row that has the keys in ``log``, as its id and text (None: no row is focused).

    The Chief room's log draws its rows itself: its row is the one under its cursor
    (``cursor_row_text``). Elsewhere a focused row widget carries ``row_id`` and ``row_text``.
    """
    focused = log.screen.focused
    if focused is None or log not in focused.ancestors_with_self:
        return None
    cursor_row = getattr(focused, "cursor_row_text", None)
    if callable(cursor_row):
        row = cursor_row()
        return row if isinstance(row, RowText) else None
    row_id, text = getattr(focused, "row_id", None), getattr(focused, "row_text", None)
    if not isinstance(row_id, int) or not isinstance(text, str):
        return None
    return RowText(row_id, text)


def copy_visible(app: App, text: str, confirmation: str) -> None:
    """Copy ``text`` without the escape sequences a stored row may hide, and say what was copied."""
    app.copy_to_clipboard(clean_text(text))
    app.notify(confirmation, timeout=3, markup=False)  # a fence's language is the model's text


def copy_code(app: App, row: RowText) -> None:
    """Copy the row's code block; with several, ask which (or the whole reply as Markdown)."""
    from keeltui.panes.chief.code_chooser import WHOLE_REPLY, CodeChooser

    blocks = code_blocks(row.text)
    if not blocks:
        app.notify("No code block in this message (c copies all of it).", timeout=3)
        return
    if len(blocks) == 1:
        copy_visible(app, blocks[0].code, blocks[0].confirmation())
        return

    def chosen(index: int | None) -> None:
        if index is None:
            return
        if index == WHOLE_REPLY:
            copy_visible(app, row.text, WHOLE_REPLY_COPIED)
        else:
            copy_visible(app, blocks[index].code, blocks[index].confirmation())

    app.push_screen(CodeChooser(blocks), chosen)
