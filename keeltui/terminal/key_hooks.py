"""Keys seen before Textual's own handling: the one place keeltui overrides Textual's
private ``_on_key`` (of App, TextArea and Input), runs ``App._check_bindings`` and reads
``Key._stop_propagation``. tests/unit/test_textual_seam.py checks their shape.

Why: Textual has no public hook that runs before a widget's own key handling. The
composer must take Enter (send) and Alt+Enter (a new line) before the TextArea inserts
a line break, and run a key's binding at once (type-ahead over SSH would otherwise be
typed before it); the search field takes Enter; the app turns a typed character no
binding took into a line in the composer or a reason it was refused.
"""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.widgets import Input, TextArea


async def run_app_bindings(app: App, key: str) -> bool:
    """Run the app's bindings for ``key`` as Textual does for a key no widget took
    (``App._check_bindings``); True when one ran."""
    return await app._check_bindings(key)


def was_stopped(event: events.Event) -> bool:
    """Whether a handler stopped ``event`` (Textual keeps it private)."""
    return event._stop_propagation


class KeyHookTextArea(TextArea):
    async def key_first(self, event: events.Key) -> bool:
        """Before the TextArea's own handling; True: handled (it is not typed)."""
        return False

    async def key_after(self, event: events.Key) -> None:
        """After the TextArea's own handling (``was_stopped``: it took the key)."""

    async def _on_key(self, event: events.Key) -> None:
        if await self.key_first(event):
            # Textual runs each class's handler in turn: the TextArea's too, unless prevented.
            event.prevent_default()
            return
        await super()._on_key(event)
        await self.key_after(event)


class KeyHookInput(Input):
    async def key_first(self, event: events.Key) -> bool:
        """Before the Input's own handling; True: handled (it is not typed)."""
        return False

    async def _on_key(self, event: events.Key) -> None:
        if await self.key_first(event):
            event.prevent_default()  # as above: the Input's own handler must not type it
        else:
            await super()._on_key(event)


class KeyHookApp(App):
    _held: list[events.Event] | None = None  # keys and pastes kept back; None: none are

    async def key_unbound(self, event: events.Key) -> None:
        """A key that reached the app and ran no binding."""

    def hold_keys(self) -> None:
        """Keep back the keys (and pastes) that come in from now on, in order, until
        :meth:`release_keys`: the place that should take them is not there yet. The app
        hands each key to the focused widget as it comes in (``App.on_event``), so one
        handed on before that place has the focus lands in the wrong one, or nowhere."""
        if self._held is None:
            self._held = []

    @property
    def holding_keys(self) -> bool:
        return self._held is not None

    async def release_keys(self) -> None:
        """Hand the kept keys on, in order, as if they came in now."""
        held, self._held = self._held or [], None
        while held and self._held is None:
            await super().on_event(held.pop(0))
        if held and self._held is not None:
            # One of them (Ctrl+T again) started a new hold: the rest wait, ahead of newer keys.
            self._held[:0] = held

    async def on_event(self, event: events.Event) -> None:
        if (self._held is not None and isinstance(event, (events.Key, events.Paste))
                and not event.is_forwarded):
            self._held.append(event)
            return
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:
        # In place of Textual's own (the bindings; the app has no key_ methods). Textual
        # runs each class's handler: the default is prevented, or App's would run the
        # bindings a second time.
        event.prevent_default()
        if not await run_app_bindings(self, event.key):
            await self.key_unbound(event)
