"""Where the owner writes. Enter sends; Alt+Enter or Ctrl+J starts a new line.

In verdict mode (a presented tutor plan awaiting the learner's verdict) the send
control becomes two: Accept plan (green) and Decline (neutral: declining is no error), each with a key. Typed
text rides the verdict as the learner's note; Enter still sends a plain message.
"""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Button

from keeltui.keys.keyspec import typed_character
from keeltui.panes.common.bindings import bind
from keeltui.terminal.key_hooks import KeyHookTextArea, run_app_bindings, was_stopped


class ComposerInput(KeyHookTextArea):
    """A TextArea whose Enter sends instead of breaking the line."""

    DEFAULT_CSS = """
    ComposerInput {
        height: auto;
        min-height: 3;
        max-height: 10;
        width: 1fr;
    }
    """

    class Send(Message):
        """Enter was pressed; ``text`` is what the field held at that key (it is cleared)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    sending_held = False
    """Set by the composer while a turn runs: Enter rings the bell and keeps the draft."""

    class EndWanted(Message):
        """End in an empty composer: the owner wants the end of the room."""

    def on_mount(self) -> None:
        # A blinking cursor repaints twice a second forever: idle CPU, and bytes over SSH.
        self.cursor_blink = False

    async def key_first(self, event: events.Key) -> bool:
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            if self.sending_held:
                self.app.bell()
                return True
            # Taken now, at the key: keys behind it in the queue (type-ahead in one read)
            # land in the cleared field, never in the message being sent.
            text = self.text
            self.clear()
            self.post_message(self.Send(text))
            return True
        if event.key in ("alt+enter", "ctrl+j"):
            event.stop()
            event.prevent_default()
            self.insert("\n")
            return True
        if not event.is_printable and typed_character(event.character):
            # A no-break or wide space: the TextArea types only what Python calls printable.
            event.stop()
            event.prevent_default()
            self.insert(event.character or "")
            return True
        if event.key == "end" and not self.text:
            # Nothing to move through: End means the room's end, as it does on a row.
            event.stop()
            event.prevent_default()
            self.post_message(self.EndWanted())
            return True
        return False

    async def key_after(self, event: events.Key) -> None:
        # Not typed text: a key bound here or above (Backspace, ←, Ctrl+↑, Escape).
        # Run its binding now, as the app would once the key had bubbled up to it:
        # by then the keys behind it in this field's queue (one read over SSH) would
        # already have been typed, and Backspace would eat the wrong letter.
        if not was_stopped(event) and await run_app_bindings(self.app, event.key):
                event.stop()
                event.prevent_default()


class Composer(Horizontal):
    DEFAULT_CSS = """
    Composer {
        height: auto;
        dock: bottom;
        padding: 0 1;
    }
    Composer #send { width: 10; min-width: 10; height: 3; }
    Composer #verdict { width: 18; height: auto; display: none; }
    Composer.-verdict #verdict { display: block; }
    Composer.-verdict #send { display: none; }
    Composer #accept { width: 18; height: 3; background: $success-darken-1; color: $text; }
    Composer #decline { width: 18; height: 3; background: $panel; color: $foreground; }
    """

    # Ctrl+O / Ctrl+R live on the tutor pane, so they work wherever focus is inside it.

    BINDINGS = [  # the README lists them; the footer stays as it was
        bind("editor", "open_editor", "Editor", show=False),
        bind("word_left", "word('left')", "Word back", show=False),
        bind("word_right", "word('right')", "Word on", show=False),
        bind("delete_word_right", "word('delete')", "Delete word", show=False),
    ]

    verdict_mode: reactive[bool] = reactive(False)
    busy: reactive[bool] = reactive(False)

    class Submitted(Message):
        """Plain text to send."""

        def __init__(self, composer: Composer, text: str) -> None:
            super().__init__()
            self.composer = composer
            self.text = text

        @property
        def control(self) -> Composer:
            return self.composer

    class VerdictChosen(Message):
        """The learner accepted or declined the presented plan; ``note`` may be empty."""

        def __init__(self, composer: Composer, accepted: bool, note: str) -> None:
            super().__init__()
            self.composer = composer
            self.accepted = accepted
            self.note = note

        @property
        def control(self) -> Composer:
            return self.composer

    class EditorWanted(Message):
        """The owner wants to write the draft in their own editor (the app lends it the terminal)."""

        def __init__(self, composer: Composer) -> None:
            super().__init__()
            self.composer = composer

        @property
        def control(self) -> Composer:
            return self.composer

    def __init__(self, placeholder: str = "Write to the Chief…", *, buttons: bool = True, id: str | None = None) -> None:
        """``buttons=False``: Enter alone sends (the room's composer, which never judges
        a plan, keeps its first frame free of buttons)."""
        super().__init__(id=id)
        self._placeholder = placeholder
        self._buttons = buttons

    def compose(self) -> ComposeResult:
        yield ComposerInput(id="composer-input", placeholder=self._placeholder, soft_wrap=True, show_line_numbers=False, compact=True)
        if self._buttons:
            yield Button("Send ⏎", id="send", variant="primary")
            with Vertical(id="verdict"):
                yield Button("Accept plan ^O", id="accept")
                yield Button("Decline ^R", id="decline")

    @property
    def input(self) -> ComposerInput:
        return self.query_one(ComposerInput)

    def focus_input(self) -> None:
        self.input.focus()

    def watch_busy(self, busy: bool) -> None:
        for field in self.query(ComposerInput):
            field.sending_held = busy
        # Send is visibly off while a turn runs (typing a draft stays possible).
        for button in self.query(Button):
            button.disabled = busy
        # ``query``, not ``query_one``: the watcher also runs as the composer mounts,
        # before its buttons exist (busy set before the pane composed, or a teardown).
        for send in self.query("#send").results(Button):
            send.label = "Wait…" if busy else "Send ⏎"

    def watch_verdict_mode(self, on: bool) -> None:
        self.set_class(on, "-verdict")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("accept", "decline"):
            return self.verdict_mode and self._buttons
        return True

    def _take_text(self) -> str:
        text = self.input.text.strip()
        self.input.clear()
        return text

    def action_word(self, move: str) -> None:
        """Alt+B, Alt+F, Alt+D: readline's word keys, carried out by the text field's own actions."""
        field = self.input
        {"left": field.action_cursor_word_left, "right": field.action_cursor_word_right,
         "delete": field.action_delete_word_right}[move]()

    def action_open_editor(self) -> None:
        self.post_message(self.EditorWanted(self))

    def on_composer_input_send(self, event: ComposerInput.Send) -> None:
        event.stop()
        text = event.text.strip()
        if text:
            self.post_message(self.Submitted(self, text))

    def _send(self) -> None:
        if self.busy:
            self.app.bell()
            return
        text = self._take_text()
        if text:
            self.post_message(self.Submitted(self, text))

    @on(Button.Pressed, "#send")
    def _send_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self._send()

    @on(Button.Pressed, "#accept")
    def _accept_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_accept()

    @on(Button.Pressed, "#decline")
    def _decline_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_decline()

    def action_accept(self) -> None:
        if self.verdict_mode and not self.busy:
            self.post_message(self.VerdictChosen(self, True, self._take_text()))

    def action_decline(self) -> None:
        if self.verdict_mode and not self.busy:
            self.post_message(self.VerdictChosen(self, False, self._take_text()))
