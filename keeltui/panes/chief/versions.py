"""How a stopped reply and an earlier version are marked in the room."""

from __future__ import annotations

from rich.text import Text


def status_mark(status: str) -> Text:
    """The note after the speaker's name for a stopped reply or an earlier version."""
    if status == "stopped":
        return Text("  (stopped)", style="bold yellow")
    if status == "superseded":
        return Text("  (earlier version)", style="dim")
    return Text("")


def folded_line(header: Text, body: str) -> Text:
    """An earlier version folded to one line: the header, then the start of its text."""
    first = body.strip().splitlines()[0] if body.strip() else ""
    return Text.assemble(header, ("  ▸ ", "bold"), (first, "dim italic"), no_wrap=True, overflow="ellipsis")
