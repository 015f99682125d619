"""The footer: the keys of the focused place that fit, F1 help always, none twice.

Textual's ``Footer`` shows every binding in declaration order and lets the ones past the
edge fall off; here keeltui/keys/footer_keys.py chooses (pure), and the footer is rebuilt when
its width changes as well as when the bindings do.

It also drops Textual's leak of its keys: ``Footer`` binds each new key to its ``compact``
reactive, a watcher stored on the footer that Textual drops only when ``compact`` next
changes, which it never does: every rebuild kept the old keys alive, about ten widgets
per rebuild, for as long as the app ran. The watchers of keys no longer mounted are
dropped after each rebuild.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.events import Resize
from textual.widgets import Footer

from keeltui.keys.footer_keys import FooterKey, choose
from keeltui.terminal.textual_seam import FooterKey as TextualFooterKey
from keeltui.terminal.textual_seam import footer_bindings_ready

PALETTE_ID = "command_palette"
KEY_PADDING = 3
"""A key's cells beyond its text: one before the key, one after it, one after the words."""
PALETTE_EXTRA = 2
"""The palette key's border on its left and the padding on its right."""


class KeelFooter(Footer):
    def __init__(self) -> None:
        super().__init__()
        self._drawn_width = 0

    def compose(self) -> ComposeResult:
        if not footer_bindings_ready(self):
            return
        self._drawn_width = self.size.width
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
                if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
                    continue
                binding_id = PALETTE_ID
            depth = chain.index(namespace) if namespace in chain else len(chain)
            cells = Text(shown_key + binding.description).cell_len + KEY_PADDING + (PALETTE_EXTRA if is_palette else 0)
            action = binding.action.removeprefix("app.").removeprefix("screen.")
            candidates.append(FooterKey(binding_id, action, binding.description, depth, cells))
            offered[binding_id] = (binding, shown_key, enabled, tooltip)
        for choice in choose(candidates, self.size.width or self.app.size.width):
            binding, shown_key, enabled, tooltip = offered[choice.binding_id]
            palette = choice.binding_id == PALETTE_ID
            yield TextualFooterKey(
                binding.key, shown_key, binding.description, binding.action,
                disabled=not enabled, tooltip=tooltip or binding.tooltip,
                classes="-command-palette" if palette else "",
            ).data_bind(compact=Footer.compact)

    def on_resize(self, event: Resize) -> None:
        if footer_bindings_ready(self) and event.size.width != self._drawn_width:
            self.call_after_refresh(self.recompose)

    async def recompose(self) -> None:
        await super().recompose()
        self._drop_gone_watchers()

    def _drop_gone_watchers(self) -> None:
        # Textual keeps watchers in a plain attribute named "__watchers" (textual/reactive.py).
        watchers = getattr(self, "__watchers", None)
        if not isinstance(watchers, dict):
            return
        for _name, entries in watchers.items():
            entries[:] = [(node, callback) for node, callback in entries
                          if getattr(node, "is_attached", True) or node is self]
