"""Paint only the cells a widget marked dirty, not the rest of its line.

Textual 8's partial update writes a dirty span from the start of the widget's slice
of the line (its ``ChopsUpdate.render_segments`` crops the end only; "TODO: crop to
x extents"). A streaming reply marks the few cells its new words fill; without the
start crop, every flush re-sent the whole last line (~300 bytes over SSH instead of
the words). The screen uses :class:`SpanCompositor`, whose updates crop both ends.

Its style codes: Textual writes each styled piece as set-style, text, reset. Here a
style is set once per change, and where only colours change (the bar, the padding and
the text of a row share one background) only those colours are sent.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.color import ColorSystem
from rich.control import Control
from rich.style import Style
from textual._compositor import ChopsUpdate, Compositor
from textual.strip import Strip


def clean_start(strip: Strip, offset: int) -> int:
    """``offset``, moved back to the start of a wide character it would cut in two."""
    seen = 0
    for char in strip.text:
        width = cell_len(char)
        if seen + width > offset:
            return seen
        seen += width
    return offset


def _attributes(style: Style) -> int:
    return style._attributes & style._set_attributes


def _change(current: Style, style: Style, color_system: ColorSystem) -> str | None:
    """The codes that turn ``current`` into ``style`` when only colours differ (else None)."""
    if _attributes(current) != _attributes(style):
        return None
    codes: list[str] = []
    if current._color != style._color:
        codes.extend(style._color.downgrade(color_system).get_ansi_codes() if style._color else ["39"])
    if current._bgcolor != style._bgcolor:
        codes.extend(style._bgcolor.downgrade(color_system).get_ansi_codes(False) if style._bgcolor else ["49"])
    return ";".join(codes)


def styled_runs(strip: Strip, color_system: ColorSystem, out: list[str],
                current: Style | None = None) -> Style | None:
    """Append ``strip``'s text and style codes to ``out``; returns the style left set.

    ``current`` is the style the terminal has now (None: reset). Each cell ends up with
    the same style as Textual's own rendering gives it: a change of colours only sends
    the colours that changed; any other change sets the whole style over a reset.
    """
    for text, style, _control in strip:
        if style is not None and style._link:  # a hyperlink: Textual's own rendering
            if current is not None:
                out.append("\x1b[0m")
                current = None
            out.append(Strip.render_style(style, text, color_system))
            continue
        ansi = "" if style is None else (style._ansi or Strip.render_ansi(style, color_system))
        if not ansi:
            if current is not None:
                out.append("\x1b[0m")
                current = None
        elif current is None:
            out.append(f"\x1b[{ansi}m")
            current = style
        elif style != current:
            change = _change(current, style, color_system) if style is not None else None
            if change is None:
                out.append(f"\x1b[0;{ansi}m")
            elif change:
                out.append(f"\x1b[{change}m")
            current = style
        out.append(text)
    return current


class SpanUpdate(ChopsUpdate):
    def render_segments(self, console: Console) -> str:
        sequences: list[str] = []
        append = sequences.append
        color_system = console._color_system or ColorSystem.TRUECOLOR
        move_to = Control.move_to
        last_y = self.spans[-1][0]
        # The style set carries over between pieces and lines (a cursor move keeps it);
        # the update ends with the terminal's style reset, as Textual's own does.
        current: Style | None = None
        for y, x1, x2 in self.spans:
            # A line's pieces (one per widget it crosses) are written as one run: no cursor
            # move where the last piece ended (known only after plain ASCII).
            cursor: int | None = None
            for end, (x, strip) in zip(self.chop_ends[y], self.chops[y].items()):
                if strip is None or x > x2 or end <= x1:
                    continue
                start = clean_start(strip, x1 - x) if x < x1 else 0
                piece = strip.crop(start, min(end, x2) - x)
                if cursor != x + start:
                    append(move_to(x + start, y).segment.text)
                current = styled_runs(piece, color_system, sequences, current)
                cursor = x + start + piece.cell_length if piece.text.isascii() else None
            if y != last_y:
                append("\n")
        if current is not None:
            append("\x1b[0m")
        return "".join(sequences)


class SpanCompositor(Compositor):
    def render_partial_update(self) -> ChopsUpdate | None:
        update = super().render_partial_update()
        if update is None:
            return None
        return SpanUpdate(update.chops, update.spans, update.chop_ends)
