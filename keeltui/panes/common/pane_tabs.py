"""The Chief/Tutor tabs, where a stale focus can never pull a tab back to the front.

Textual brings a tab forward when a widget inside it takes the focus. That news
travels as a message, so a focus taken just before Ctrl+T could arrive after it and
undo the switch (the tutor's list focusing itself, then Ctrl+T back to the Chief).
Only a focus that still stands inside the pane may bring it forward.
"""

from __future__ import annotations

from textual.widgets import TabbedContent, TabPane, Tabs


class PaneTabs(TabbedContent):
    def on_mount(self) -> None:
        # Tab never lands on the tab strip, where typed text was lost: Ctrl+T switches panes.
        self.query_one(Tabs).can_focus = False

    def on_tab_pane_focused(self, event: TabPane.Focused) -> None:
        # The public name of the handler: Textual runs this class's before the base class's,
        # which does not run once the default is prevented.
        focused = self.app.focused
        if focused is None or event.tab_pane not in focused.ancestors:
            event.stop()
            event.prevent_default()
