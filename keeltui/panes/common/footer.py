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

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from keeltui.keys.footer_keys import FooterKey, choose

PALETTE_ID = "command_palette"
KEY_PADDING = 3
"""A key's cells beyond its text: one before the key, one after it, one after the words."""
PALETTE_EXTRA = 2
"""The palette key's border on its left and the padding on its right."""
PALETTE_EDGE = "▏"  # Textual's "vkey" border, its left side


@dataclass(frozen=True)
class Shown:
    """A key on the footer line: where it stands and what a click on it presses."""

    key: str
    """The key a click presses (``App.simulate_key``)."""
    start: int
    end: int
    enabled: bool
    tooltip: str


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
        self._keys: list[tuple[str, str, str, bool, str, bool]] = []
        """(key, shown key, words, enabled, tooltip, is the palette's) of the keys shown."""
        self._line = Strip.blank(0)
        self._shown: list[Shown] = []
        self._hover: int | None = None
        self._drawn_for: tuple | None = None
        self._choosing = False  # a choice is asked for after the next refresh

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen) -> None:
        self._ready = True
        if self.is_attached and screen is self.screen:
            self._choose_soon()

    def on_resize(self, event: events.Resize) -> None:
        if self._ready:
            self._choose_soon()

    def _choose_soon(self) -> None:
        # After the refresh, as Textual's footer rebuilt itself: the bindings are read from
        # every place in the focus chain, and one being mounted right now (the tutor pane
        # composing) cannot answer yet. Several changes in one go are one choice.
        if not self._choosing:
            self._choosing = True
            self.call_after_refresh(self._choose)

    def _choose(self) -> None:
        """The keys to show, from the screen's active bindings (repainted when they changed)."""
        self._choosing = False
        if not self.is_attached:
            return
        active = self.screen.active_bindings
        focused = self.screen.focused
        chain = list(focused.ancestors_with_self) if focused is not None else []
        offered: dict[str, tuple] = {}
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
            offered[binding_id] = (binding.key, shown_key, binding.description, enabled,
                                   tooltip or binding.tooltip, is_palette)
        keys = [offered[choice.binding_id] for choice in choose(candidates, self.size.width or self.app.size.width)]
        if keys != self._keys:
            self._keys = keys
            self._drawn_for = None
            self.refresh()

    # -- drawing: one line -----------------------------------------------------------

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        look = (width, self._hover, self.app.theme, self._keys)
        if self._drawn_for != look:
            self._line, self._shown = self._draw(width)
            self._drawn_for = look
        return self._line if y == 0 else Strip.blank(width, self.rich_style)

    def _draw(self, width: int) -> tuple[Strip, list[Shown]]:
        base = self.rich_style
        item = base + self.get_component_rich_style("footer-key--item")
        key_style = self.get_component_rich_style("footer-key--key")
        words_style = self.get_component_rich_style("footer-key--description")
        hover = self.get_component_rich_style("footer-key--hover")
        # A lit key: its parts as set (their own colours, if any) over the hover colours, as
        # Textual's footer key draws its parts over its own background when it is hovered.
        lit_key = self.get_component_rich_style("footer-key--key", partial=True)
        lit_words = self.get_component_rich_style("footer-key--description", partial=True)
        segments: list[Segment] = []
        shown: list[Shown] = []
        at = 0
        palette: tuple | None = None
        for index, entry in enumerate(self._keys):
            key, shown_key, words, enabled, tooltip, is_palette = entry
            if is_palette:
                palette = (index, entry)  # docked at the right edge, drawn last
                continue
            lit = index == self._hover
            label = self._label(shown_key, words, lit_key if lit else key_style, lit_words if lit else words_style,
                                item + hover if lit else item, enabled)
            segments += label.render(self.app.console)
            shown.append(Shown(key, at, at + label.cell_len, enabled, tooltip))
            at += label.cell_len
        tail: list[Segment] = []
        if palette is not None:
            index, (key, shown_key, words, enabled, tooltip, _) = palette
            edge = self.get_component_rich_style("footer-key--palette-edge")
            lit = index == self._hover
            label = self._label(shown_key, words, lit_key if lit else key_style, lit_words if lit else words_style,
                                item + hover if lit else item, enabled)
            label.append(" ", item)  # the palette key's padding on its right
            start = width - label.cell_len - 1
            if start >= at:
                tail = [Segment(PALETTE_EDGE, item + edge), *label.render(self.app.console)]
                shown.append(Shown(key, start, width, enabled, tooltip))
        used = at + sum(segment.cell_length for segment in tail)
        # The rest of the line as Textual fills a container's blank cells: its background only.
        if width > used:
            segments.append(Segment(" " * (width - used), Style.from_color(bgcolor=base.bgcolor)))
        return Strip([*segments, *tail]).crop(0, width), shown

    @staticmethod
    def _label(shown_key: str, words: str, key_style: Style, words_style: Style, item: Style, enabled: bool) -> Text:
        """One key as Textual's ``FooterKey`` draws it (not compact)."""
        label = (Text.assemble((f" {shown_key} ", key_style), (f"{words} ", words_style)) if words
                 else Text.assemble((shown_key, key_style)))
        label.stylize_before(item + Style(dim=True) if not enabled else item)
        return label

    # -- the mouse: a key is pressed by a click, as Textual's footer does ----------------

    def _at(self, x: int) -> int | None:
        for index, shown in enumerate(self._shown):
            if shown.start <= x < shown.end:
                return index
        return None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hover = self._at(event.x)
        hovered = self._keys_index(hover)
        if hovered != self._hover:
            self._hover = hovered
            self.tooltip = self._shown[hover].tooltip or None if hover is not None else None
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.tooltip = None
            self.refresh()

    def _keys_index(self, shown_index: int | None) -> int | None:
        """The entry in ``_keys`` a shown key came from (the palette's is drawn last)."""
        if shown_index is None:
            return None
        key = self._shown[shown_index].key
        return next((i for i, entry in enumerate(self._keys) if entry[0] == key), None)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        index = self._at(event.x)
        if index is None:
            return
        shown = self._shown[index]
        if shown.enabled:
            self.app.simulate_key(shown.key)
        else:
            self.app.bell()
