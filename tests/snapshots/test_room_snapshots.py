"""The look of the room's pieces: each system-line kind, folded and unfolded, and the banner."""

from __future__ import annotations

from textual.app import App, ComposeResult

from keeltui.panes.ambient.banner import DriftBanner
from keeltui.panes.chief.room_log import RoomLog
from keeltui.panes.chief.row_source import ListSource
from keeltui.store import Row

SIZE = (90, 30)

SUMMARY = (
    "We planned the week: the grant report is due Friday, the kitchen tap needs a plumber,\n"
    "and Ada wants a walk on Sunday. Open question: which model to use for the tutor."
)


class RoomPieces(App):
    CSS = "Screen { background: #101418; }"

    def __init__(self, unfold: bool = False) -> None:
        super().__init__()
        self.unfold = unfold

    def compose(self) -> ComposeResult:
        rows = [
            Row(1, 1, "user", "Anything from the night?"),
            Row(2, 1, "assistant", "Coop: the nightly build is blocked on a failing migration test.", turn_kind="coop"),
            Row(3, 1, "assistant", "Follow up: call the plumber about the kitchen tap.", turn_kind="followup"),
            Row(4, 1, "assistant", "Backups verified: 3 snapshots, 41 GB, all checksums match.", turn_kind="task"),
            Row(5, 1, "assistant", SUMMARY, turn_kind="summary"),
            Row(6, 1, "assistant", "The brain is offline: no brain answers at http://localhost:11434/v1.", turn_kind="notice"),
            Row(7, 1, "assistant", "Two things landed overnight; the **build** needs you first."),
        ]
        # The room's own log, as the app draws it, over the rows above.
        yield RoomLog("Ada", "Chief", source=ListSource(rows), first_rows=rows, id="room-log")

    def on_mount(self) -> None:
        if self.unfold:
            self.query_one(RoomLog).toggle_fold(5)


def test_system_lines_folded(snap_compare):
    assert snap_compare(RoomPieces(), terminal_size=SIZE)


def test_system_lines_with_the_summary_unfolded(snap_compare):
    assert snap_compare(RoomPieces(unfold=True), terminal_size=SIZE)


def test_summary_unfolds_from_the_keyboard(snap_compare):
    async def focus_and_enter(pilot):
        pilot.app.query_one(RoomLog).focus_row(5)
        await pilot.press("enter")

    assert snap_compare(RoomPieces(), terminal_size=SIZE, run_before=focus_and_enter)


class BannerApp(App):
    def compose(self) -> ComposeResult:
        yield DriftBanner()

    def on_mount(self) -> None:
        self.query_one(DriftBanner).line = "Third hour on Hacker News while the grant report waits. [bold red]not markup[/]"


def test_drift_banner(snap_compare):
    assert snap_compare(BannerApp(), terminal_size=(100, 8))
