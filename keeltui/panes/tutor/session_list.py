"""The learner's records in the tutor pane: the session list's rows and keys, and the
rename, delete and summary dialogs.

Widgets draw what they are handed and post what the learner asked for; the pane
decides (it owns the store). Single-letter keys live on the session list only, so they
never fire while the learner types.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static

from keeltui.panes.common.bindings import bind
from keeltui.panes.ambient.modals import _MODAL_CSS
from keeltui.text.textsafe import clean_text, one_line
from keeltui.tutor.phases import PHASE_WORDS
from keeltui.tutor.session_rows import SessionRow, stamp


def session_prompt(row: SessionRow) -> Text:
    """A session list row: topic, then last active date, phase and progress, dimmed."""
    prompt = Text(one_line(clean_text(row.title), 60))
    details = f"   {stamp(row.updated_at)} · {PHASE_WORDS.get(row.phase, row.phase)}"
    if row.progress:
        details += f" · {row.progress}"
    prompt.append(details, style="dim")
    return prompt


class SessionList(OptionList):
    """The tutor's session list; r renames and Delete deletes the highlighted session."""

    # The chosen row stands out whether the list has the focus or not (Textual's blurred
    # highlight is nearly the list's own background).
    DEFAULT_CSS = """
    SessionList > .option-list--option-highlighted { background: $primary-muted; color: $foreground; text-style: bold; }
    SessionList:focus > .option-list--option-highlighted { background: $primary; color: $text; text-style: bold; }
    """

    # The moves run as the app takes each key in (priority), like the pane's Enter
    # (TutorPane.action_choose_session): keys in one burst ("Down Enter" then a note) are
    # taken in the order they came, and those behind Enter go where it sends the keyboard.
    BINDINGS = [
        bind("tutor_rename_session", "rename", "Rename"),
        bind("tutor_delete_session", "delete", "Delete"),
        *(Binding(key, action, show=False, priority=True) for key, action in (
            ("down", "cursor_down"), ("up", "cursor_up"), ("home", "first"), ("end", "last"),
            ("pagedown", "page_down"), ("pageup", "page_up"))),
    ]

    class RenameRequested(Message):
        def __init__(self, session_id: int) -> None:
            super().__init__()
            self.session_id = session_id

    class DeleteRequested(Message):
        def __init__(self, session_id: int) -> None:
            super().__init__()
            self.session_id = session_id

    def _highlighted_session(self) -> int | None:
        option = self.highlighted_option
        option_id = option.id if option is not None else None
        if option_id is None or not option_id.startswith("session-"):
            return None
        return int(option_id.removeprefix("session-"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("rename", "delete"):
            return self._highlighted_session() is not None
        return True

    def action_rename(self) -> None:
        session_id = self._highlighted_session()
        if session_id is not None:
            self.post_message(self.RenameRequested(session_id))

    def action_delete(self) -> None:
        session_id = self._highlighted_session()
        if session_id is not None:
            self.post_message(self.DeleteRequested(session_id))

    def watch_highlighted(self, highlighted: int | None) -> None:
        super().watch_highlighted(highlighted)
        self.refresh_bindings()


class RenameSession(ModalScreen[str | None]):
    """A new title for a session; Enter renames, Escape keeps the old one."""

    DEFAULT_CSS = _MODAL_CSS.format(name="RenameSession")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str) -> None:
        super().__init__()
        self._title = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Rename the session", classes="-title")
            yield Input(self._title, id="rename-title")
            yield Static("", id="error", classes="-error", markup=False)
            yield Static("Enter renames · Escape cancels", classes="-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        title = " ".join(event.value.split())
        if not title:
            self.query_one("#error", Static).update("A session needs a title.")
            return
        self.dismiss(title)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmDelete(ModalScreen[bool]):
    """Delete a session? y or Enter deletes; n or Escape keeps it."""

    DEFAULT_CSS = _MODAL_CSS.format(name="ConfirmDelete")
    BINDINGS = [
        Binding("y,enter", "answer(True)", "Delete"),
        Binding("n,escape", "answer(False)", "Keep"),
    ]

    def __init__(self, title: str) -> None:
        super().__init__()
        self._title = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Delete “{one_line(clean_text(self._title), 50)}”?", classes="-title", markup=False)
            yield Static("Its transcript, plan and quiz record go too. This cannot be undone.")
            yield Static("y or Enter deletes · n or Escape keeps it", classes="-hint")

    def action_answer(self, delete: bool) -> None:
        self.dismiss(delete)


class SummaryScreen(ModalScreen[None]):
    """The session summary: quiz record and mastery. Escape or Enter closes."""

    DEFAULT_CSS = _MODAL_CSS.format(name="SummaryScreen") + """
    SummaryScreen > Vertical { width: 100%; max-width: 72; max-height: 100%; }
    SummaryScreen #summary-body { height: auto; max-height: 24; margin-top: 1; }
    SummaryScreen #summary-body > Static { height: auto; }
    """
    BINDINGS = [Binding("escape,enter,f4", "close", "Close")]

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        self._title = title
        self._lines = lines

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Summary — {one_line(clean_text(self._title), 50)}", classes="-title", markup=False)
            with VerticalScroll(id="summary-body"):
                yield Static("\n".join(clean_text(line) for line in self._lines), markup=False)
            yield Static("↑/↓ scroll · Escape closes", classes="-hint")

    def on_mount(self) -> None:
        self.query_one("#summary-body", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
