"""Ctrl+F in the Chief room: a search field over the whole stored room.

The bar only asks: it posts what to find and in which direction; the app searches
the store (rows not mounted are paged in) and hands back the line to show.
Enter or ↑ finds the previous (older) match, ↓ the next (newer); Escape closes.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from keeltui.panes.common.bindings import bind
from keeltui.terminal.key_hooks import KeyHookInput


class SearchInput(KeyHookInput):
    """An Input whose ↑/↓/Escape steer the search instead of moving a cursor."""

    BINDINGS = [
        bind("search_older", "older", "Older match"),
        bind("search_newer", "newer", "Newer match"),
        bind("search_close", "close", "Close search"),
    ]

    def action_older(self) -> None:
        self.post_message(SearchBar.Find(self.value, older=True))

    def action_newer(self) -> None:
        self.post_message(SearchBar.Find(self.value, older=False))

    def action_close(self) -> None:
        self.post_message(SearchBar.Closed())

    async def key_first(self, event: events.Key) -> bool:
        if event.key != "enter":
            return False
        event.stop()
        event.prevent_default()
        self.action_older()
        return True


class SearchBar(Horizontal):
    DEFAULT_CSS = """
    SearchBar { height: 1; padding: 0 1; display: none; background: $boost; }
    SearchBar.-open { display: block; }
    SearchBar #search-label { width: auto; padding-right: 1; text-style: bold; }
    SearchBar SearchInput, SearchBar SearchInput:focus { width: 1fr; height: 1; border: none; padding: 0; }
    SearchBar #search-status { width: auto; padding-left: 1; color: $text-muted; }
    """

    status: reactive[str] = reactive("")

    class Find(Message):
        """Find ``needle``: the previous (older) match, or the next (newer) one."""

        def __init__(self, needle: str, *, older: bool) -> None:
            super().__init__()
            self.needle = needle
            self.older = older

    class Closed(Message):
        """The owner closed the search."""

    def compose(self) -> ComposeResult:
        yield Static("Find:", id="search-label")
        yield SearchInput(placeholder="text in the room (Enter/↑ older, ↓ newer, Esc closes)", id="search-input",
                          compact=True)
        yield Static("", id="search-status", markup=False)

    @property
    def input(self) -> SearchInput:
        return self.query_one(SearchInput)

    def open(self) -> None:
        self.add_class("-open")
        # At once (Widget.focus waits a turn of the app's queue, behind keys already in it).
        self.screen.set_focus(self.input)

    def close(self) -> None:
        self.remove_class("-open")
        self.status = ""

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    def watch_status(self, status: str) -> None:
        if self.is_mounted:
            self.query_one("#search-status", Static).update(status)
