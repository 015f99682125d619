"""The screen sends only the cells that differ from what the terminal shows (terminal/textual_seam.py).

A small terminal is fed every frame the app writes, another the same updates as Textual
itself writes them (every cell of each dirty span); after each frame both show the same
cells (character and style), through a streamed reply that scrolls the room, a dialog
above the screen, and a resize.
Real parts: the loopback OpenAI-compatible server, the real client, a real SQLite file.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from textual._compositor import ChopsUpdate

from keeltui_dev.loopback import Reply
from tests.pilot.test_room_controls import send
from tests.support.pilot import wait_for

ESCAPE = re.compile(r"\x1b(?:\[([0-9;?]*)([A-Za-z])|\]8;[^\x1b\x07]*(?:\x07|\x1b\\)|[=>78])")
OFF = {22: (1, 2), 23: (3,), 24: (4,), 25: (5,), 27: (7,), 28: (8,), 29: (9,)}


class Terminal:
    """Cells (character, SGR state) of a screen, from the bytes written to it."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = [[("?", ())] * width for _ in range(height)]
        self.x = self.y = 0
        self.sgr: dict[str, object] = {}
        self.top, self.bottom = 0, height - 1  # the scroll region
        self.scrolled = 0  # lines moved by a scroll region (not sent again)

    def feed(self, data: str) -> None:
        at = 0
        for match in ESCAPE.finditer(data):
            self._text(data[at:match.start()])
            at = match.end()
            params, final = match.group(1), match.group(2)
            if final == "H":
                row, _, col = (params or "1;1").partition(";")
                self.y, self.x = int(row or 1) - 1, int(col or 1) - 1
            elif final == "m":
                self._set_style(params)
            elif final == "r":  # the scroll region (all of the screen without numbers)
                top, _, bottom = (params or "").partition(";")
                self.top, self.bottom = int(top or 1) - 1, int(bottom or self.height) - 1
                self.x = self.y = 0
        self._text(data[at:])

    def _set_style(self, params: str) -> None:
        codes = [int(p or 0) for p in params.split(";")] if params else [0]
        i = 0
        while i < len(codes):
            code = codes[i]
            if code == 0:
                self.sgr = {}
            elif code in (38, 48):
                width = 5 if codes[i + 1] == 2 else 3
                self.sgr["fg" if code == 38 else "bg"] = tuple(codes[i:i + width])
                i += width - 1
            elif code == 39:
                self.sgr.pop("fg", None)
            elif code == 49:
                self.sgr.pop("bg", None)
            elif code in OFF:
                for attr in OFF[code]:
                    self.sgr.pop(f"attr{attr}", None)
            elif 30 <= code <= 37 or 90 <= code <= 97:
                self.sgr["fg"] = (code,)
            elif 40 <= code <= 47 or 100 <= code <= 107:
                self.sgr["bg"] = (code,)
            else:
                self.sgr[f"attr{code}"] = True
            i += 1

    def _text(self, text: str) -> None:
        for char in text:
            if char == "\n" and self.y == self.bottom:  # at the region's foot: the region scrolls
                # The rows that come in are blank in a style this test does not model: unknown.
                self.cells[self.top:self.bottom + 1] = [*self.cells[self.top + 1:self.bottom + 1],
                                                        [("?", ())] * self.width]
                self.scrolled += 1
            elif char == "\n":
                self.y, self.x = min(self.y + 1, self.height - 1), 0
            elif char == "\r":
                self.x = 0
            elif self.x < self.width and 0 <= self.y < self.height:
                style = tuple(sorted(self.sgr.items()))
                self.cells[self.y][self.x] = (char, style)
                for extra in range(1, cell_len(char)):
                    if self.x + extra < self.width:
                        self.cells[self.y][self.x + extra] = ("", style)
                self.x += cell_len(char)


def textual_bytes(update, console) -> str:
    """What Textual's own update writes: every cell of its dirty spans."""
    base = ChopsUpdate if isinstance(update, ChopsUpdate) else type(update)
    return base.render_segments(update, console)


def watch(app, mismatches: list[str]) -> Terminal:
    """Two terminals fed every frame from the first: one the app's bytes, one Textual's own
    rendering of the same updates. After each frame they must show the same cells."""
    ours, textuals = Terminal(0, 0), Terminal(0, 0)
    real = app._display

    def display(screen, renderable) -> None:
        if renderable is not None and hasattr(renderable, "render_segments"):
            if app.size != (ours.width, ours.height):
                ours.__init__(*app.size)
                textuals.__init__(*app.size)
            ours.feed(renderable.render_segments(app.console))
            textuals.feed(textual_bytes(renderable, app.console))
            for y, (seen, wanted) in enumerate(zip(ours.cells, textuals.cells, strict=False)):
                if seen != wanted and len(mismatches) < 5:
                    where = next(x for x, (a, b) in enumerate(zip(seen, wanted, strict=False)) if a != b)
                    mismatches.append(f"row {y} from column {where}: {''.join(c for c, _ in seen)!r} "
                                      f"where Textual paints {''.join(c for c, _ in wanted)!r}")
        real(screen, renderable)

    app._display = display
    return ours


async def test_the_terminal_shows_what_textual_paints_through_scrolls_a_dialog_and_a_resize(make_app, loopback):
    paragraphs = [f"Paragraph {p}: " + " ".join(f"word{p}x{i}" for i in range(40)) + "\n\n" for p in range(12)]
    chunks = [piece + " " for text in paragraphs for piece in text.split(" ")]
    loopback.queue(Reply(chunks=chunks, chunk_delay=0.004), Reply(text="Short and sweet."))
    app = make_app()
    mismatches: list[str] = []
    ours = watch(app, mismatches)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.3)
        await send(pilot, "a long one please")
        await wait_for(pilot, lambda: app.room.streaming_row_id is None and not app.room.composer.busy
                       and "word11x39" in app.room.log_view.row(app.room.mounted_ids[-1]).content,
                       timeout=30, what="the long reply, scrolled several times")
        assert ours.scrolled > 0  # the room followed the reply by moving what showed, not sending it again
        await pilot.press("ctrl+p")  # a dialog draws over the screen
        await pilot.pause(0.3)
        await pilot.press("escape")
        await pilot.pause(0.3)
        await send(pilot, "and a short one")
        await wait_for(pilot, lambda: not app.room.composer.busy and app.room.streaming_row_id is None,
                       timeout=20, what="the short reply")
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.3)
        await pilot.press("pageup", "pageup", "end")
        await pilot.pause(0.3)
    assert not mismatches, "\n".join(mismatches)
