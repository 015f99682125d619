"""The footer, without Textual's leak of its keys.

Textual's ``Footer`` rebuilds its keys at every change of bindings (focus moves, a row
gains a Retry, a report lands), and binds each new key to its ``compact`` reactive.
That binding is a watcher stored on the footer, and Textual drops a watcher only when
the watched value next changes, which ``compact`` never does: every rebuild kept the
old keys alive, about ten widgets per rebuild, for as long as the app ran (most of
the growth of a pane left open for days). Here the watchers of keys no longer
mounted are dropped after each rebuild.
"""

from __future__ import annotations

from textual.widgets import Footer


class KeelFooter(Footer):
    async def recompose(self) -> None:
        await super().recompose()
        self._drop_gone_watchers()

    def _drop_gone_watchers(self) -> None:
        # Textual keeps watchers in a plain attribute named "__watchers" (textual/reactive.py).
        watchers = getattr(self, "__watchers", None)
        if not isinstance(watchers, dict):
            return
        for name, entries in watchers.items():
            entries[:] = [(node, callback) for node, callback in entries
                          if getattr(node, "is_attached", True) or node is self]
