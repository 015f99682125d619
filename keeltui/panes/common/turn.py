"""A conversation turn's pieces, drawn alike in both rooms.

The Chief room draws its rows through its own log (keeltui/panes/chief/), the tutor each
turn as a widget (keeltui/panes/tutor/chat_message.py); both take the speaker's line
(:func:`speaker_header`) and the body block by block (:func:`block_renderable`) from here,
so a reply looks the same in either room, while it streams and after a restart.
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from keeltui.chief.failure_words import failure_words
from keeltui.text.safe_markdown import safe_markdown
from keeltui.text.textsafe import clean_text, looks_like_markdown


def status_mark(status: str) -> Text:
    """The note after the speaker's name for a stopped reply or an earlier version."""
    if status == "stopped":
        return Text("  (stopped)", style="bold yellow")
    if status == "superseded":
        return Text("  (earlier version)", style="dim")
    return Text("")


def speaker_header(speaker: str, status: str, parts=None) -> Text:
    """The first line of a turn: who speaks, and whether the reply is still coming, or
    why it did not finish (the words stored with the row: chief/failure_words.py)."""
    header = Text(speaker, style="bold")
    if status == "streaming":
        header.append("  …", style="dim")
    elif status in ("partial", "error"):
        header.append(f"  ({clean_text(failure_words(status, parts))})", style="bold red")
    else:
        header.append_text(status_mark(status))
    return header


def folded_line(header: Text, body: str) -> Text:
    """An earlier version folded to one line: the header, then the start of its text."""
    first = body.strip().splitlines()[0] if body.strip() else ""
    return Text.assemble(header, ("  ▸ ", "bold"), (first, "dim italic"), no_wrap=True, overflow="ellipsis")


def block_renderable(block: str, dark: bool = True):
    """One block of a reply: Markdown if it uses any, else the text as written
    (plain prose needs no Markdown parser, and keeps its line breaks)."""
    body = clean_text(block)
    if not looks_like_markdown(body):
        return Text(body)
    from keeltui.text.markdown_look import code_theme
    from keeltui.text.reply_markdown import ReplyMarkdown

    # Links show their target and are http(s) only; lists keep "1.", code its language.
    return safe_markdown(body, ReplyMarkdown, code_theme(dark))


def copy_row_text(widget: Widget, text: str) -> None:
    """Copy a row through OSC 52, which works over SSH (tmux: `set -g set-clipboard on`).

    Only the visible text: hidden escape sequences in a stored row (CSI, OSC 52, a
    bracketed-paste end ``ESC[201~``) would otherwise replay wherever it is pasted.
    """
    widget.app.copy_to_clipboard(clean_text(text))
    widget.app.notify("Copied to the clipboard.", timeout=2)


__all__ = ["block_renderable", "copy_row_text", "folded_line", "speaker_header", "status_mark"]
