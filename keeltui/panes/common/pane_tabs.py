"""The Chief/Tutor tabs: a two-line strip over the panes, one pane in front.

Two widgets, not Textual's TabbedContent (a tab strip of seven widgets, a content
switcher and an animated underline): the strip draws its labels and its bar itself
(the line API), so the first frame lays out and styles two small widgets where it took
ten, about 20 ms of keeltui's start. It draws what TabbedContent drew: the labels, the
active one bright, and a bar under them lit under the active label.

A focus never pulls a pane to the front: only the owner does (Ctrl+T, a click). Textual's
TabbedContent brought a tab forward when a widget inside it took the focus, and a focus
asked for just before Ctrl+T (the composer's, at start-up; a tutor list focusing itself)
lands after it and undid the switch. A focus that lands in a pane behind is reported
(``FocusedBehind``); the app hands the keys back to the pane in front.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.app import ComposeResult
from textual.containers import Container
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

LABEL_PADDING = 1
"""Blank cells either side of a label (Textual's tabs had ``padding: 0 1``)."""


class Pane(Container):
    """One pane of the tabs: its title is drawn on the strip."""

    DEFAULT_CSS = "Pane { height: 1fr; padding: 0; }"

    def __init__(self, title: str, *children: Widget, id: str) -> None:
        super().__init__(*children, id=id)
        self.pane_title = title


def label_spans(titles: list[str]) -> list[tuple[int, int]]:
    """Where each label's text starts and ends on the strip, padding either side."""
    spans, x = [], 0
    for title in titles:
        start = x + LABEL_PADDING
        spans.append((start, start + len(title)))
        x = start + len(title) + LABEL_PADDING
    return spans


class PaneStrip(Widget):
    """The labels (line 0) and the bar under them (line 1); a click on a label chooses it."""

    COMPONENT_CLASSES = {"pane-strip--active", "pane-strip--behind", "pane-strip--hover", "pane-strip--bar"}
    DEFAULT_CSS = """
    PaneStrip { height: 2; width: 1fr; }
    PaneStrip > .pane-strip--active { color: $foreground; }
    PaneStrip > .pane-strip--behind { color: $foreground 50%; }
    PaneStrip > .pane-strip--hover { color: $foreground; }
    PaneStrip > .pane-strip--bar { color: $block-cursor-background; background: $foreground 10%; }
    PaneStrip:ansi > .pane-strip--behind { text-style: dim; }
    PaneStrip:ansi > .pane-strip--active { text-style: not dim bold; }
    PaneStrip:ansi > .pane-strip--bar { color: $block-cursor-background; background: $border-blurred; }
    """
    ALLOW_SELECT = False

    active: reactive[int] = reactive(0)
    hovered: reactive[int | None] = reactive(None)
    """The label under the mouse (drawn bright, as the one in front is)."""

    class Chosen(Message):
        """A label was clicked: the pane at ``index`` should come to the front."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, titles: list[str], active: int = 0) -> None:
        super().__init__()
        self.titles = titles
        self.set_reactive(PaneStrip.active, active)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        spans = label_spans(self.titles)
        base = self.rich_style
        if y == 0:
            return Strip(list(self._labels(base))).extend_cell_length(width, base).crop(0, width)
        if y == 1:  # cropped: a strip narrower than its labels (a tiny terminal) cuts the bar too
            return Strip(list(self._bar(spans, width, base))).extend_cell_length(width, base).crop(0, width)
        return Strip.blank(width, base)

    def _labels(self, base: Style) -> Iterator[Segment]:
        pad = " " * LABEL_PADDING
        for index, title in enumerate(self.titles):
            look = ("pane-strip--active" if index == self.active
                    else "pane-strip--hover" if index == self.hovered else "pane-strip--behind")
            yield Segment(pad, base)
            yield Segment(title, base + self.get_component_rich_style(look))
            yield Segment(pad, base)

    def _bar(self, spans: list[tuple[int, int]], width: int, base: Style) -> Iterator[Segment]:
        bar = self.get_component_rich_style("pane-strip--bar")
        lit, unlit = base + Style(color=bar.color), base + Style(color=bar.bgcolor)
        start, end = spans[self.active] if 0 <= self.active < len(spans) else (0, 0)
        # The lit part ends in half cells, as Textual's underline did: ╸ before it, ╺ after.
        if start > 1:
            yield Segment("━" * (start - 1), unlit)
        if start > 0:
            yield Segment("╸", unlit)
        yield Segment("━" * (end - start), lit)
        if end < width:
            yield Segment("╺", unlit)
        if end + 1 < width:
            yield Segment("━" * (width - end - 1), unlit)

    def watch_active(self) -> None:
        self.refresh()

    def watch_hovered(self) -> None:
        self.refresh(Region(0, 0, self.size.width, 1))

    def label_at(self, x: int, y: int) -> int | None:
        """The label (with its padding) at cell ``x`` of line ``y``, if any (the bar under a
        label counts as the label, as Textual's underline did)."""
        if y not in (0, 1):
            return None
        for index, (start, end) in enumerate(label_spans(self.titles)):
            if start - LABEL_PADDING <= x < end + LABEL_PADDING:
                return index
        return None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = self.label_at(event.x, event.y)

    def on_leave(self, event: events.Leave) -> None:
        self.hovered = None

    def on_click(self, event: events.Click) -> None:
        index = self.label_at(event.x, event.y)
        if index is not None:
            self.post_message(self.Chosen(index))


class PaneNews(Message):
    """News of the tabs about one of their panes."""

    def __init__(self, tabs: PaneTabs, pane: Pane) -> None:
        super().__init__()
        self.tabs, self.pane = tabs, pane

    @property
    def control(self) -> PaneTabs:
        return self.tabs


class PaneTabs(Widget):
    """Panes (``Pane``) under a strip of their titles; ``active`` is the id of the one in front."""

    DEFAULT_CSS = "PaneTabs { height: 1fr; }"

    active: reactive[str] = reactive("", init=False)

    class Switched(PaneNews):
        """Another pane came to the front (not sent for the first one)."""

    class FocusedBehind(PaneNews):
        """A widget in a pane behind took the focus (a stale request): the keys belong in front,
        at ``resume`` if it can still take them (the place the front pane's keys were last in)."""

        def __init__(self, tabs: PaneTabs, pane: Pane, resume: Widget | None) -> None:
            super().__init__(tabs, pane)
            self.resume = resume

    def __init__(self, *, id: str, initial: str) -> None:
        super().__init__(id=id)
        self._panes: list[Pane] = []
        # Where each pane last had the keys (weakly: a removed widget is not kept alive).
        self._last_focus: dict[str, weakref.ref[Widget]] = {}
        self.set_reactive(PaneTabs.active, initial)

    def compose_add_child(self, widget: Widget) -> None:
        if not isinstance(widget, Pane):
            raise TypeError(f"PaneTabs holds panes, not {type(widget).__name__}")
        self._panes.append(widget)

    def compose(self) -> ComposeResult:
        ids = [pane.id for pane in self._panes]
        yield PaneStrip([pane.pane_title for pane in self._panes], ids.index(self.active) if self.active in ids else 0)
        for pane in self._panes:
            pane.display = pane.id == self.active
            yield pane

    def watch_active(self, active: str) -> None:
        pane = next((pane for pane in self._panes if pane.id == active), None)
        if pane is None:
            raise ValueError(f"no pane {active!r}")
        for other in self._panes:
            other.display = other is pane
        self.query_one(PaneStrip).active = self._panes.index(pane)
        self.post_message(self.Switched(self, pane))

    def on_pane_strip_chosen(self, message: PaneStrip.Chosen) -> None:
        message.stop()
        self.active = self._panes[message.index].id or ""

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        focused = self.app.focused
        if focused is None or focused is not event.widget:
            return  # it moved on since: nothing to hand back
        for pane in self._panes:
            if pane not in focused.ancestors:
                continue
            if pane.id == self.active:
                self._last_focus[pane.id or ""] = weakref.ref(focused)
            else:
                self.post_message(self.FocusedBehind(self, pane, self._last_focus_in(self.active)))
            return

    def _last_focus_in(self, pane_id: str) -> Widget | None:
        """The widget in pane ``pane_id`` that last had the keys while it was in front, if
        it is still there and can take them again."""
        ref = self._last_focus.get(pane_id)
        widget = ref() if ref is not None else None
        pane = next((pane for pane in self._panes if pane.id == pane_id), None)
        if widget is None or pane is None or not widget.is_attached or pane not in widget.ancestors:
            return None
        # Shown, too (Quiet Mode hides the room's composer; `focusable` does not look at display).
        shown = all(node.display for node in widget.ancestors_with_self if isinstance(node, Widget))
        return widget if shown and widget.focusable else None
