"""The footer: the keys of the focused place that fit, F1 help always, none twice.

Textual's ``Footer`` shows every binding in declaration order and lets the ones past the
edge fall off; here keeltui/keys/footer_keys.py chooses (pure).

It is one widget drawing one line, looking as Textual's footer does (the same CSS
variables, the same cells). Textual's is a container of a widget per key, rebuilt
whenever the bindings change: every focus change, a reply starting or stopping. Each
rebuild removed and mounted ten widgets and styled each anew, 15-40 ms of the loop's
time, twice when a reply stopped (the Escape that stopped it waited behind them). Here a
change of bindings chooses the keys again and repaints the line.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from keeltui.infra.records import record
from keeltui.keys.footer_keys import FooterKey, choose

PALETTE_ID = "command_palette"
KEY_PADDING = 3
"""A key's cells beyond its text: one before the key, one after it, one after the words."""
PALETTE_EXTRA = 2
"""The palette key's border on its left and the padding on its right."""
PALETTE_EDGE = "▏"  # Textual's "vkey" border, its left side


@record(frozen=True)  # a record: built before the first frame (keeltui/infra/records.py)
class Offered:
    """A key the footer shows."""

    key: str
    """The key a click presses (``App.simulate_key``)."""
    shown_key: str
    words: str
    enabled: bool
    tooltip: str
    palette: bool
    """The command palette's key: docked at the right edge, as Textual's footer docks it."""


class KeelFooter(Widget, can_focus=False):
    ALLOW_SELECT = False
    COMPONENT_CLASSES = {
        "footer-key--item", "footer-key--key", "footer-key--description", "footer-key--hover",
        "footer-key--palette-edge",
    }
    DEFAULT_CSS = """
    KeelFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        .footer-key--item { background: $footer-item-background; }
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer-key--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        .footer-key--palette-edge { color: $foreground 20%; }
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self._ready = False  # the screen's bindings have been heard (none to show before)
        self._keys: list[Offered] = []
        self._line = Strip.blank(0)
        self._spans: list[tuple[int, int, Offered]] = []
        """Where each key stands on the line: (first cell, cell after it, the key)."""
        self._hover: str | None = None  # the key under the mouse
        self._drawn_for: tuple | None = None
        self._stale = False  # the bindings changed since the keys were chosen

    def on_mount(self) -> None:
        # Immediate: heard inside the refresh_bindings() that changed the keys, so the frame
        # that draws the change repaints the footer too (a hop later it could miss it).
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed, immediate=True)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen) -> None:
        self._ready = True
        if self.is_attached and screen is self.screen:
            self._stale = True
            self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        if self._ready:
            self._stale = True  # the keys that fit change with the width

    def _choose(self) -> None:
        """The keys to show, from the screen's active bindings. Chosen as the line is drawn:
        the frame that shows a change (a plan waiting for its verdict, a reply streaming)
        shows its keys, and several changes before a frame are one choice. (Chosen a frame
        later, as Textual's footer rebuilt itself, the plan came with the old keys under it
        for 60-120 ms on a loaded machine.)"""
        self._stale = False
        active = self.screen.active_bindings
        focused = self.screen.focused
        chain = list(focused.ancestors_with_self) if focused is not None else []
        offered: dict[str, Offered] = {}
        candidates: list[FooterKey] = []
        for key, (namespace, binding, enabled, tooltip) in active.items():
            if not binding.show:
                continue
            shown_key = self.app.get_key_display(binding)
            binding_id = binding.id or key
            is_palette = key == self.app.COMMAND_PALETTE_BINDING
            if is_palette:
                if not self.app.ENABLE_COMMAND_PALETTE:
                    continue
                binding_id = PALETTE_ID
            depth = chain.index(namespace) if namespace in chain else len(chain)
            cells = Text(shown_key + binding.description).cell_len + KEY_PADDING + (PALETTE_EXTRA if is_palette else 0)
            action = binding.action.removeprefix("app.").removeprefix("screen.")
            candidates.append(FooterKey(binding_id, action, binding.description, depth, cells))
            offered[binding_id] = Offered(binding.key, shown_key, binding.description, enabled,
                                          tooltip or binding.tooltip, is_palette)
        keys = [offered[choice.binding_id] for choice in choose(candidates, self.size.width or self.app.size.width)]
        self._keys = keys

    # -- drawing: one line -----------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        if self._stale and self.is_attached:
            self._choose()
        width = self.size.width
        look = (width, self._hover, self.app.theme, self._keys)
        if self._drawn_for != look:
            self._line, self._spans = self._draw(width)
            self._drawn_for = look
        return self._line if y == 0 else Strip.blank(width, self.rich_style)

    def _draw(self, width: int) -> tuple[Strip, list[tuple[int, int, Offered]]]:
        base = self.rich_style
        item = base + self.get_component_rich_style("footer-key--item")
        styles = (self.get_component_rich_style("footer-key--key"),
                  self.get_component_rich_style("footer-key--description"), item)
        # A lit key: its parts as set (their own colours, if any) over the hover colours, as
        # Textual's footer key draws its parts over its own background when it is hovered.
        lit_styles = (self.get_component_rich_style("footer-key--key", partial=True),
                      self.get_component_rich_style("footer-key--description", partial=True),
                      item + self.get_component_rich_style("footer-key--hover"))

        def label(offered: Offered) -> Text:
            return self._label(offered, *(lit_styles if offered.key == self._hover else styles))

        segments: list[Segment] = []
        spans: list[tuple[int, int, Offered]] = []
        at = 0
        for offered in self._keys:
            if not offered.palette:
                text = label(offered)
                segments += text.render(self.app.console)
                spans.append((at, at + text.cell_len, offered))
                at += text.cell_len
        tail: list[Segment] = []
        palette = next((offered for offered in self._keys if offered.palette), None)
        if palette is not None:
            text = label(palette)
            text.append(" ", item)  # the palette key's padding on its right
            start = width - text.cell_len - 1
            if start >= at:
                edge = self.get_component_rich_style("footer-key--palette-edge")
                tail = [Segment(PALETTE_EDGE, item + edge), *text.render(self.app.console)]
                spans.append((start, width, palette))
        used = at + sum(segment.cell_length for segment in tail)
        # The rest of the line as Textual fills a container's blank cells: its background only.
        if width > used:
            segments.append(Segment(" " * (width - used), Style.from_color(bgcolor=base.bgcolor)))
        return Strip([*segments, *tail]).crop(0, width), spans

    @staticmethod
    def _label(offered: Offered, key_style: Style, words_style: Style, item: Style) -> Text:
        """One key as Textual's ``FooterKey`` draws it (not compact)."""
        label = (Text.assemble((f" {offered.shown_key} ", key_style), (f"{offered.words} ", words_style))
                 if offered.words else Text.assemble((offered.shown_key, key_style)))
        label.stylize_before(item if offered.enabled else item + Style(dim=True))
        return label

    # -- the mouse: a key is pressed by a click, as Textual's footer does ----------------

    def _at(self, x: int) -> Offered | None:
        return next((offered for start, end, offered in self._spans if start <= x < end), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        under = self._at(event.x)
        hover = under.key if under is not None else None
        if hover != self._hover:
            self._hover = hover
            self.tooltip = (under.tooltip or None) if under is not None else None
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.tooltip = None
            self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        offered = self._at(event.x)
        if offered is None:
            return
        if offered.enabled:
            self.app.simulate_key(offered.key)
        else:
            self.app.bell()
