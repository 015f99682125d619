"""Which code block to copy, when a reply has several: a short list, Enter or a digit picks.

Dismissed with the index of the block chosen, ``WHOLE_REPLY`` for the whole reply as
Markdown, or None (Escape). The caller copies; this screen only asks.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from keeltui.chief.code_blocks import CodeBlock

WHOLE_REPLY = -1


class CodeChooser(ModalScreen[int | None]):
    DEFAULT_CSS = """
    CodeChooser { align: center middle; background: $background 60%; }
    CodeChooser > Vertical {
        width: 100%; max-width: 76; height: auto; padding: 0 1;
        border: round $accent; background: $panel;
    }
    CodeChooser .-title { text-style: bold; margin-bottom: 1; }
    CodeChooser OptionList { height: auto; max-height: 14; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 10)),
    ]

    def __init__(self, blocks: list[CodeBlock]) -> None:
        super().__init__()
        self._blocks = blocks

    def compose(self) -> ComposeResult:
        # Text, not markup: a code line such as "x[/]" is shown as it is, never parsed.
        options = [Option(Text(f"{n}  {block.label()}"), id=str(n - 1)) for n, block in enumerate(self._blocks, 1)]
        options.append(Option(Text("   the whole reply, as Markdown"), id=str(WHOLE_REPLY)))
        with Vertical():
            yield Static("Copy which code block? (Enter or its number; Escape: none)", classes="-title", markup=False)
            yield OptionList(*options, id="code-blocks")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected, "#code-blocks")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int(event.option.id or WHOLE_REPLY))

    def action_pick(self, index: int) -> None:
        if 0 <= index < len(self._blocks):
            self.dismiss(index)

    def action_cancel(self) -> None:
        self.dismiss(None)
