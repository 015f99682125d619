"""A small terminal for tests: a grid of cells fed the bytes an app writes (cursor moves,
SGR, erases, a scroll region, printed characters), so a test sees what a person would."""

from __future__ import annotations

import re

from rich.cells import cell_len

ESCAPE = re.compile(r"\x1b(?:\[([0-9;?]*)([A-Za-z])|\]8;[^\x1b\x07]*(?:\x07|\x1b\\)|[=>78])")
OFF = {22: (1, 2), 23: (3,), 24: (4, 21), 25: (5, 6), 27: (7,), 28: (8,), 29: (9,)}
SHOWN_ON_BLANK = {"attr4", "attr7", "attr9", "attr21", "attr53"}
"""The attributes whose mark a space shows."""


class Terminal:
    """Cells (character, SGR state) of a screen, from the bytes written to it. ``bce``: the
    erases (EL, ECH) paint in the current background, as tmux's and xterm's do; else in
    the default one."""

    def __init__(self, width: int, height: int, bce: bool = True) -> None:
        self.width, self.height, self.bce = width, height, bce
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
            elif final == "C":
                self.x = min(self.x + int(params or 1), self.width - 1)
            elif final == "K":
                assert params in ("", "0"), f"EL {params} is not modelled"
                self._erase(self.x, self.width)
            elif final == "X":
                self._erase(self.x, self.x + int(params or 1))
            elif final == "r":  # the scroll region (all of the screen without numbers)
                top, _, bottom = (params or "").partition(";")
                self.top, self.bottom = int(top or 1) - 1, int(bottom or self.height) - 1
                self.x = self.y = 0
        self._text(data[at:])

    def _erase(self, start: int, end: int) -> None:
        background = self.sgr.get("bg") if self.bce else None
        blank = (" ", (("bg", background),) if background else ())
        if 0 <= self.y < self.height:
            for x in range(start, min(end, self.width)):
                self.cells[self.y][x] = blank

    def look(self, y: int) -> list[tuple]:
        """Row ``y`` as a person sees it: a blank shows only its background, unless its
        style marks a space (underline, reverse, strike, overline)."""
        seen = []
        for char, style in self.cells[y]:
            attrs = dict(style)
            if char == " " and not SHOWN_ON_BLANK & attrs.keys():
                seen.append((" ", attrs.get("bg")))
            else:
                seen.append((char, style))
        return seen

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
