"""The app's global keys: moving between panes and places, the ambient's chords, help,
and the command palette's list. A part of KeelApp (its base); the keys are bound in
KeelApp.BINDINGS from the key registry (keeltui/keys/keymap.py).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING
from collections.abc import Iterable

from textual import events
from textual.app import SystemCommand
from textual.screen import Screen
from textual.timer import Timer

from keeltui.keys.hold import SAY_AFTER_SECS, WAITING_LINE, hold_left
from keeltui.panes.common import focus_places
from keeltui.panes.ambient.banner import DriftBanner
from keeltui.panes.common.events import StatusMessage
from keeltui.panes.common.bindings import bind
from keeltui.panes.common.composer import Composer
from keeltui.panes.common.pane_tabs import PaneTabs
from keeltui.terminal.key_hooks import KeyHookApp

if TYPE_CHECKING:
    from keeltui.chief_view import ChiefRoom
    from keeltui.config import Config
    from keeltui.shell.main_screen import MainScreen
    from keeltui.panes.ambient.controller import AmbientController
    from keeltui.panes.common.landed_signal import TurnLanded  # loaded with the first long reply
    from keeltui.panes.chief.row_text import PagerWanted  # loaded with the room's row keys
    from keeltui.panes.common.status_line import StatusLine
    from keeltui.tutor_view import TutorPane


class GlobalKeys(KeyHookApp):
    BINDINGS = [
        bind("quit", "quit", "Quit", priority=True),
        bind("quiet", "toggle_quiet", "Quiet", priority=True),
        bind("switch_pane", "switch_pane", "Chief/Tutor", priority=True),
        bind("leave_composer", "leave_composer", "Leave input"),
        # F-keys work while typing (priority: the TextArea has its own F6/F7); the
        # single letters z/f/F/i live on the room's log (panes/chief/row_keys.py).
        bind("snooze", "snooze", "Snooze 1h", priority=True),
        bind("focus", "start_focus", "Focus", priority=True),
        bind("stop_focus", "stop_focus", "Stop focus", priority=True, show=False),
        bind("settings", "settings", "Settings"),
        # The drift banner's keys: chords that work while typing, so acting on a drift
        # never means leaving the composer first (or typing a letter into it).
        bind("day", "day", "Your day", priority=True),
        bind("that_was_work", "that_was_work", "That was work", priority=True, show=False),
        bind("help", "help", "Help", priority=True),
    ]

    _hold_timer: Timer | None = None
    _say_timer: Timer | None = None
    _held_since = 0.0

    if TYPE_CHECKING:  # what KeelApp provides
        config: Config
        quiet: bool
        ambient: AmbientController | None
        tutor: TutorPane | None
        database_problem: str

        @property
        def status_line(self) -> StatusLine: ...

        @property
        def main_screen(self) -> MainScreen: ...

        @property
        def room(self) -> ChiefRoom: ...

        def action_toggle_quiet(self) -> None: ...

        def _show_tutor_context(self) -> None: ...

    # -- panes and places --------------------------------------------------------------

    def action_switch_pane(self) -> None:
        panes = self.main_screen.panes
        panes.active = "tutor-tab" if panes.active == "chief-tab" else "chief-tab"
        self._keys_to_the_front()  # it clears the focus first

    def _keys_to_the_front(self) -> None:
        """The keys go where the pane in front takes them, now.

        The keys typed right behind a switch (one read over SSH) already wait in the app's
        queue, and the app hands each to whatever has the focus when it comes up: the place
        takes the focus at once (Screen.set_focus is immediate, Widget.focus a message later,
        and a deferred focus landing behind a key already handed on pulls the keys back).
        While the tutor is still on its way (a switch right after start-up), or reopens the
        session left open once it shows, the keys wait for it (TutorPane.Ready), in order."""
        self.set_focus(None)
        if self.holding_keys or self._focus_place_for_keys():
            return
        self.hold_keys()
        self._held_since = time.monotonic()
        self._arm_hold_check()
        self._say_timer = self.set_timer(SAY_AFTER_SECS, self._say_keys_wait)

    def _say_keys_wait(self) -> None:
        self._say_timer = None
        if self.holding_keys and not self.database_problem:  # a database problem keeps the line
            self.status_line.message = WAITING_LINE

    async def _hand_on_held_keys(self) -> None:
        """The held keys go where the focus is now; the line that said they wait goes."""
        if self._say_timer is not None:
            self._say_timer.stop()
            self._say_timer = None
        if self.status_line.message == WAITING_LINE:
            self.status_line.message = ""
        await self.release_keys()

    def _arm_hold_check(self) -> None:
        """Look again when the held keys may wait no longer (keeltui/keys/hold.py): never for ever."""
        if self._hold_timer is not None:
            self._hold_timer.stop()
        self._hold_timer = self.set_timer(max(0.0, self._hold_left()), self._hold_check)

    def _hold_left(self) -> float:
        tutor = self.tutor
        since = tutor.mounted_at if tutor is not None and tutor.is_mounted else None
        return hold_left(time.monotonic(), held_since=self._held_since, tutor_since=since)

    async def _hold_check(self) -> None:
        self._hold_timer = None
        if not self.holding_keys:
            return
        if self._hold_left() > 0:  # the tutor mounted meanwhile: its own wait
            self._arm_hold_check()
            return
        await self._hand_on_held_keys()  # they go where the focus is

    async def on_tutor_pane_ready(self, message: TutorPane.Ready) -> None:
        if not self.holding_keys:
            return
        if self._focus_place_for_keys():
            await self._hand_on_held_keys()
        else:
            self._arm_hold_check()  # mounted, its session still coming back: counted from now on

    def _focus_place_for_keys(self) -> bool:
        """Focus the place the pane in front takes typed keys in (none in Quiet Mode's
        hidden room, where a stray key says why); False while the tutor's is not there yet."""
        if self.main_screen.panes.active == "chief-tab":
            self.set_focus(None if self.quiet else self.room.composer.input, scroll_visible=False)
            return True
        place = self.tutor.coming_into_view() if self.tutor is not None and self.tutor.is_mounted else None
        if place is not None:
            self.set_focus(place, scroll_visible=False)
        return place is not None

    def on_pane_tabs_focused_behind(self, event: PaneTabs.FocusedBehind) -> None:
        # A focus asked for before a switch landed after it, in the pane now behind (where
        # typed keys would vanish). The keys go back where they were in front (a Tab had
        # taken them from the reopened quiz to the note box: not back to the quiz).
        focused = self.focused
        if focused is None or event.pane not in focused.ancestors:
            return
        if event.resume is not None and not self.holding_keys:
            self.set_focus(event.resume, scroll_visible=False)
            if self.focused is event.resume:
                return
            # It could no longer take them (disabled, hidden since the report): as below.
        self._keys_to_the_front()

    def on_pane_tabs_switched(self, event: PaneTabs.Switched) -> None:
        self._show_tutor_context()  # the tutor's context shows only while the tutor is in view
        # A click on a tab: the pane in front takes the keys, as after Ctrl+T (which placed
        # them already, or holds them for the tutor: nothing to do, and nothing deferred
        # that could land behind a key the release handed on).
        focused = self.focused
        if self.holding_keys or (focused is not None and event.pane in focused.ancestors):
            return
        self._keys_to_the_front()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave_composer":
            # Escape leaves a text field; the footer offers it only there.
            from textual.widgets import Input, TextArea

            return isinstance(self.focused, (TextArea, Input))
        return True

    def action_focus_next(self) -> None:
        focus_places.cycle(self, 1)  # type: ignore[arg-type]  # self is the KeelApp

    def action_focus_previous(self) -> None:
        focus_places.cycle(self, -1)  # type: ignore[arg-type]

    async def key_unbound(self, event: events.Key) -> None:
        # A typed character no binding took lands in the composer or is refused with a reason.
        focus_places.stray_key(self, event)  # type: ignore[arg-type]

    def action_leave_composer(self) -> None:
        """Escape: out of the composer, onto the newest row (so z, f, c act at once)."""
        if self.main_screen.panes.active == "chief-tab" and not self.quiet:
            self.room.focus_latest_row()  # an empty room: the log's keys still work
        else:
            self.set_focus(None)

    def action_compose(self) -> None:
        panes = self.main_screen.panes
        if panes.active == "chief-tab" and self.quiet:
            # Quiet Mode: the Chief tab shows only its sentence and takes no text; the
            # tutor's input must not get it either (it would pull the tutor tab forward).
            self.set_focus(None)
        elif panes.active == "chief-tab":
            self.room.composer.focus_input()
        elif self.tutor is not None:
            self.tutor.focus_input()

    def action_help(self) -> None:
        """F1: every key and every place, from the key registry (remaps applied)."""
        from keeltui.keys.help_text import help_sections
        from keeltui.panes.common.help_screen import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)  # F1 again closes it (this binding comes first)
        else:
            self.push_screen(HelpScreen(help_sections(self.config.keys)))

    # -- the ambient's chords (they work while typing) -----------------------------------

    def action_snooze(self) -> None:
        if self.ambient is not None:
            self.ambient.snooze_from_ui()

    def action_start_focus(self) -> None:
        if self.ambient is not None:
            self.ambient.start_focus_from_ui()

    def action_stop_focus(self) -> None:
        if self.ambient is not None:
            self.ambient.stop_focus_from_ui()

    def action_settings(self) -> None:
        if self.ambient is not None:
            self.ambient.open_settings()

    def action_day(self) -> None:
        """Your day: the timeline, per-hour bars, episodes, focus sessions, apps (live)."""
        from keeltui.panes.ambient.day_view import DayScreen

        if isinstance(self.screen, DayScreen):
            return
        if self.quiet:
            # Window titles are not screen-safe.
            self.notify("Quiet Mode is on: your day stays hidden until it is turned off.", timeout=3)
            return
        if self.ambient is not None:
            self.ambient.open_day()

    def action_that_was_work(self) -> None:
        if self.ambient is not None:
            self.ambient.that_was_work()

    def on_day_screen_corrected(self, message) -> None:
        """"That was work" on an episode in the day view (keeltui.panes.ambient.day_view)."""
        if self.ambient is not None:
            self.ambient.correct(message.episode)

    def on_drift_banner_snooze_requested(self, message: DriftBanner.SnoozeRequested) -> None:
        self.action_snooze()

    def on_drift_banner_focus_requested(self, message: DriftBanner.FocusRequested) -> None:
        self.action_start_focus()

    def on_drift_banner_work_requested(self, message: DriftBanner.WorkRequested) -> None:
        self.action_that_was_work()

    def on_settings_screen_open_wanted(self, message) -> None:
        """The settings dialog's Models… and Persona… buttons."""
        if message.what == "models":
            self.room.open_models()
        elif message.what == "persona":
            self.room.open_persona()

    # -- the owner's editor and pager (keeltui/panes/common/editor_bridge.py) --------------------

    def on_composer_editor_wanted(self, message: Composer.EditorWanted) -> None:
        """The owner's editor, on a composer's draft (keeltui/panes/common/editor_bridge.py)."""
        from keeltui.panes.common.editor_bridge import edit_draft

        message.stop()
        if self.quiet and message.composer.id == "chief-composer":
            self.bell()  # Quiet Mode: the room's draft is not screen-safe
            return
        self._terminal_back(edit_draft(self, message.composer.input))

    def on_pager_wanted(self, message: PagerWanted) -> None:
        from keeltui.panes.common.editor_bridge import page_text

        message.stop()
        if self.quiet:
            self.bell()  # Quiet Mode: no room text on screen
            return
        self._terminal_back(page_text(self, message.row.text, f"keeltui-row-{message.row.row_id}.md"))

    def _terminal_back(self, problem: str) -> None:
        """The editor or pager ended: its failure in one line, or an older one of its lines cleared."""
        if problem:
            self.status_line.message = problem
        elif self.status_line.message.startswith(("editor:", "pager:")):
            self.status_line.message = self.database_problem

    def on_turn_landed(self, message: TurnLanded) -> None:
        from keeltui.panes.common.landed_signal import signal_landed

        message.stop()
        signal_landed(self, self.config.ui, self.quiet, message.what, message.seconds)

    def _theme_chosen(self, theme) -> None:
        """The palette's theme picker chose ``theme``: kept in the config file ([ui] theme)."""
        from keeltui.services.theme_choice import save_theme

        problem = save_theme(self.config, theme.name)
        if problem:
            self.post_message(StatusMessage(problem))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        room = self.room
        yield SystemCommand("Stop the reply", "Stop the Chief's reply on its way (Escape); its text is kept", room.stop_reply)
        yield SystemCommand("Retry", "Ask the Chief again after a failed, cut or stopped reply (F5)", room.retry)
        yield SystemCommand("Regenerate", "Ask for the last reply again; the old one is kept, folded (Ctrl+R)", room.regenerate)
        yield SystemCommand("Edit last message", "Change and resend your last message (Ctrl+↑)", room.edit_last)
        yield SystemCommand("Search the room", "Find text anywhere in the Chief room (Ctrl+F)", room.open_search)
        yield SystemCommand("Quiet Mode", "Toggle Quiet Mode (hide the Chief room)", self.action_toggle_quiet)
        yield SystemCommand("Chief / Tutor", "Switch between the Chief room and the tutor", self.action_switch_pane)
        yield SystemCommand("Snooze drift coaching", "Snooze the ambient sentinel for an hour", self.action_snooze)
        yield SystemCommand("Start focus", "Declare a focus session", self.action_start_focus)
        yield SystemCommand("Stop focus", "End the running focus session (reported in the room)", self.action_stop_focus)
        yield SystemCommand("Settings", "Ambient mode and cadence", self.action_settings)
        yield SystemCommand("Models", "Choose the model per role (chat, judge, tutor) from the endpoint's list", room.open_models)
        yield SystemCommand("Persona", "See and edit the Chief's system prompt", room.open_persona)
        yield SystemCommand("Your day", "Time on task, drifting and away today (F3)", self.action_day)
        yield SystemCommand("That was work", "The drift on screen was not drift: tell the judge (F10)", self.action_that_was_work)
        yield SystemCommand("Keys", "Every key and where it works (F1)", self.action_help)
        if self.tutor is not None:
            yield SystemCommand("Tutor summary", "The open tutor session: mastered, to review", self.tutor.action_summary)
