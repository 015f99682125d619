"""The app's status: the status line, the drift banner and the status file, kept in step.

A part of KeelApp (its base; the values live on the app as ``var``s, handed down from here):
the ambient controller and the tutor post what changed; one render and one status-file
write follow each change, and a heartbeat rewrites the file now and then.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.reactive import var

from keeltui.status.file import write_status
from keeltui.chief.quiet import screen_safe
from keeltui.panes.common.events import AmbientChanged, ContextChanged
from keeltui.status.render import StatusState, render_status

if TYPE_CHECKING:
    from keeltui.shell.main_screen import MainScreen
    from keeltui.panes.ambient.banner import DriftBanner
    from keeltui.panes.common.status_line import StatusLine


class StatusKeeping(App):
    # ``var``, not ``reactive``: a reactive of the App repaints the whole screen when it
    # changes (App.refresh), and these change at every send, first chunk and drift.
    quiet: var[bool] = var(False)
    ambient_line: var[str] = var("")
    focus_text: var[str] = var("")
    context_text: var[str] = var("")
    context_warning: var[str] = var("")
    """The tutor's context warning, while the tutor is in view (the Chief never warns)."""
    judge_name: var[str] = var("")
    ambient_snoozed_until: var[float] = var(0.0)
    ambient_mode: var[str] = var("")
    ambient_away: var[bool] = var(False)
    ambient_no_evidence: var[bool] = var(False)

    _status_written: str | None = None
    _status_path: Path
    _config_stamp: str
    _tutor_context: tuple[str, str] = ("", "")  # (percentage, warning) of its open session

    if TYPE_CHECKING:  # what KeelApp provides

        @property
        def ui_alive(self) -> bool: ...

        @property
        def main_screen(self) -> MainScreen: ...

        @property
        def status_line(self) -> StatusLine: ...

    @property
    def banner(self) -> DriftBanner:
        return self.main_screen.banner

    def on_context_changed(self, message: ContextChanged) -> None:
        """The tutor's context: its open session's, shown while the tutor is in view."""
        self._tutor_context = (message.context_text, message.warning)
        self._show_tutor_context()

    def _show_tutor_context(self) -> None:
        text, warning = self._tutor_context
        if not self.ui_alive:
            return  # a message that lands during teardown
        in_view = self.main_screen.panes.active == "tutor-tab"
        # No watcher per field: one render, one status-file write per change.
        self.set_reactive(StatusKeeping.context_text, text if in_view else "")
        self.set_reactive(StatusKeeping.context_warning, warning if in_view else "")
        self._update_status()

    def on_ambient_changed(self, message: AmbientChanged) -> None:
        if not self.ui_alive:
            return  # tearing down: there is no status line left to update
        # Seven values, one render and one status-file write (no watcher per field).
        cls = StatusKeeping
        self.set_reactive(cls.ambient_line, message.line)
        self.set_reactive(cls.focus_text, message.focus_text)
        self.set_reactive(cls.judge_name, message.judge)
        self.set_reactive(cls.ambient_snoozed_until, message.snoozed_until)
        self.set_reactive(cls.ambient_mode, message.mode)
        self.set_reactive(cls.ambient_away, message.away)
        self.set_reactive(cls.ambient_no_evidence, message.no_evidence)
        self._update_status()

    def status_state(self) -> StatusState:
        return StatusState(
            quiet=self.quiet, ambient_line=self.ambient_line, focus_text=self.focus_text,
            context_text=self.context_text, judge=self.judge_name,
            context_warning=self.context_warning,
            snoozed_until=self.ambient_snoozed_until, ambient_off=self.ambient_mode == "off",
            away=self.ambient_away, no_evidence=self.ambient_no_evidence,
        )

    def _update_status(self) -> None:
        if not self.ui_alive:
            return
        state = self.status_state()
        self.status_line.state = state
        # Quiet Mode holds the drift text back from the banner as well.
        # In focus too: a drift from the commitment gets the banner ("back to <commitment>").
        self.banner.line = screen_safe(self.ambient_line, self.quiet)
        # The status file (tmux, `keeltui status`) mirrors the warning whichever pane shows.
        line = render_status(state._replace(context_warning=self._tutor_context[1]))
        if line != self._status_written:
            self._write_status_file(line)

    def _write_status_file(self, line: str) -> None:
        """Write the status file; a failed write is tried again at the next change or heartbeat
        (until then `keeltui status` says the line is stale)."""
        try:
            write_status(self._status_path, line, config_stamp=self._config_stamp)
            self._status_written = line
        except OSError as exc:
            self._status_written = None
            self.status_line.message = f"cannot write the status file {self._status_path}: {exc.strerror}"

    def _status_heartbeat(self) -> None:
        self._status_written = None  # the same line again, with a fresh time (or a retry after a failure)
        self._update_status()
