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

from time import monotonic
from typing import Any

from textual import events
from textual.app import App
from textual.message_pump import MessagePump
from textual.timer import Timer
from textual.widget import Widget
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


KEY_JOURNEY_CHECK_SECS = 1.0
"""How often a key's journey is looked at while keys wait behind it: it goes on while the
place it waits in is still running (a slow handler on a loaded machine is not cut short:
the keys behind it would overtake it); a place that closed under it ends it."""
KEY_JOURNEY_AT_MOST_SECS = 10.0  # a handler that never finishes: the keys behind it go on anyway
_REPORTS = (events.AppFocus, events.AppBlur)
"""The terminal's focus reports: they wait behind the keys it sent before them. Handed on
ahead of them, a key handed on next would tell Textual the owner is back (a key is a sign
of focus), and a long reply would land without its bell."""


class KeyHookApp(App):
    """Keys taken strictly in the order they came.

    The app hands a key to the focused widget's queue (``App.on_event``); that widget, then
    each parent in turn, handles it in its own queue, and the bindings of the focused place
    run when it reaches the app again. A priority binding runs at once, in the app's queue.
    So in one burst (a read over SSH, a fast typist) a priority key could act before the
    key ahead of it had finished: Ctrl+L then Down Enter on the tutor's list opened the
    session, then Ctrl+L's binding closed it again. While a key is on its way, the keys
    behind it wait here; the one in front is followed from queue to queue, and the next is
    taken when it and what its handlers posted up the same way have been handled.
    """

    _waiting: list[events.Event]  # keys, pastes and focus reports kept back, in order
    _hold: bool = False  # held until the place that takes them is there (hold_keys)
    _in_flight: events.Event | None = None  # the key handed on whose journey has not ended
    _in_flight_timer: Timer | None = None
    _in_flight_at: MessagePump | None = None  # the queue the key's next step waits in
    _in_flight_since = 0.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._waiting = []

    async def key_unbound(self, event: events.Key) -> None:
        """A key that reached the app and ran no binding."""

    def hold_keys(self) -> None:
        """Keep back the keys (and pastes) that come in from now on, in order, until
        :meth:`release_keys`: the place that should take them is not there yet. The app
        hands each key to the focused widget as it comes in (``App.on_event``), so one
        handed on before that place has the focus lands in the wrong one, or nowhere."""
        self._hold = True

    @property
    def holding_keys(self) -> bool:
        return self._hold

    async def release_keys(self) -> None:
        """Hand the kept keys on, in order, as if they came in now."""
        self._hold = False
        await self._take_waiting()

    async def _take_waiting(self) -> None:
        # One of them may start a new hold (Ctrl+T again) or be handed on: the rest wait,
        # ahead of newer keys.
        while self._waiting and not self._hold and self._in_flight is None:
            await self._take(self._waiting.pop(0))

    async def _take(self, event: events.Event) -> None:
        await super().on_event(event)
        if event.is_forwarded:  # (a focus report never is: the app handles it)  # no priority binding took it: a widget's queue has it now
            target = self.focused or self.screen
            self._in_flight = event
            self._in_flight_since = monotonic()
            self._follow(event, target, target, settling=False)

    def _follow(self, event: events.Event, widget: MessagePump, target: MessagePump, *, settling: bool) -> None:
        """Behind ``event`` in ``widget``'s queue: on up the way it went, then (settling)
        once more from ``target`` up to the app, behind what its handlers posted on the
        way (Escape in the search field: the room moves the focus when the bar's Closed
        message reaches it, and the key behind Escape must go to the composer)."""

        def after() -> None:
            if self._in_flight is not event:
                return
            self._in_flight_at = self  # the steps below call_later on the app, or _follow says
            parent = widget.parent if isinstance(widget, Widget) else None
            if parent is None or not widget.is_parent_active:
                self.call_later(self._journey_done, event)
            elif parent is self:
                # In the app's queue, behind the key (the screen always hands a key on:
                # Textual marks it stopped there after bubbling it, the app being its
                # sender) and behind what it posted to the app.
                if settling:
                    self.call_later(self._journey_done, event)
                else:
                    self.call_later(self._settle, event, target)
            elif settling or not was_stopped(event):
                self._follow(event, parent, target, settling=settling)
            else:
                self._settle(event, target)

        self._in_flight_at = widget
        if not widget.call_later(after):
            self.call_later(self._journey_done, event)

    def _settle(self, event: events.Event, target: MessagePump) -> None:
        if self._in_flight is event:
            self._follow(event, target, target, settling=True)

    async def _journey_done(self, event: events.Event) -> None:
        if self._in_flight is event:
            self._in_flight = None
            if self._in_flight_timer is not None:
                self._in_flight_timer.stop()
                self._in_flight_timer = None
            await self._take_waiting()

    def _journey_too_long(self) -> None:
        """Keys wait behind one whose journey has not ended: it goes on while the queue it
        waits in runs; a widget that went away (its queue will not run the next step) or a
        handler that never finishes lets the keys behind it go on."""
        self._in_flight_timer = None
        if self._in_flight is None:
            return
        at = self._in_flight_at
        alive = at is not None and at.is_running and (at is self or at.is_attached)
        if alive and monotonic() - self._in_flight_since < KEY_JOURNEY_AT_MOST_SECS:
            self._in_flight_timer = self.set_timer(KEY_JOURNEY_CHECK_SECS, self._journey_too_long)
            return
        self._in_flight = None
        self.call_later(self._take_waiting)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, _REPORTS) and self._waiting:
            self._waiting.append(event)  # after the keys the terminal sent before it
            return
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            if self._hold or self._in_flight is not None or self._waiting:
                self._waiting.append(event)
                if self._in_flight is not None and self._in_flight_timer is None:
                    self._in_flight_timer = self.set_timer(KEY_JOURNEY_CHECK_SECS, self._journey_too_long)
                return
            await self._take(event)
            return
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:
        # In place of Textual's own (the bindings; the app has no key_ methods). Textual
        # runs each class's handler: the default is prevented, or App's would run the
        # bindings a second time.
        event.prevent_default()
        if not self.screen_stack:  # the app is closing: a key kept back until now has no place
            return
        if not await run_app_bindings(self, event.key):
            await self.key_unbound(event)
