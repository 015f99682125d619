"""The floor: the smallest Textual app worth measuring (header, one line, footer).

Started exactly like keeltui (its own Python process in a tmux pane); its first frame
is the time a bare Textual app needs on this machine.
"""

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static

READY = "keel bench floor ready"


class FloorApp(App):
    BINDINGS = [("ctrl+q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(READY)
        yield Footer()


if __name__ == "__main__":
    FloorApp().run()
