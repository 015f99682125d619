"""The look of the room's pieces: each system-line kind, folded and unfolded, and the banner."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll

from keeltui.panes.banner import DriftBanner
from keeltui.panes.message import ChatMessage
from keeltui.panes.system_line import SystemLine

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
        with VerticalScroll():
            yield ChatMessage(1, "user", "Ada", "Anything from the night?")
            yield SystemLine(2, "coop", "Coop: the nightly build is blocked on a failing migration test.")
            yield SystemLine(3, "followup", "Follow up: call the plumber about the kitchen tap.")
            yield SystemLine(4, "task", "Backups verified: 3 snapshots, 41 GB, all checksums match.")
            yield SystemLine(5, "summary", SUMMARY, id="summary")
            yield SystemLine(6, "notice", "The brain is offline: no brain answers at http://localhost:11434/v1.")
            yield ChatMessage(7, "assistant", "Chief", "Two things landed overnight; the **build** needs you first.")

    def on_mount(self) -> None:
        if self.unfold:
            self.query_one("#summary", SystemLine).action_toggle_fold()


def test_system_lines_folded(snap_compare):
    assert snap_compare(RoomPieces(), terminal_size=SIZE)


def test_system_lines_with_the_summary_unfolded(snap_compare):
    assert snap_compare(RoomPieces(unfold=True), terminal_size=SIZE)


def test_summary_unfolds_from_the_keyboard(snap_compare):
    async def focus_and_enter(pilot):
        pilot.app.query_one("#summary", SystemLine).focus()
        await pilot.press("enter")

    assert snap_compare(RoomPieces(), terminal_size=SIZE, run_before=focus_and_enter)


class BannerApp(App):
    def compose(self) -> ComposeResult:
        yield DriftBanner()

    def on_mount(self) -> None:
        self.query_one(DriftBanner).line = "Third hour on Hacker News while the grant report waits. [bold red]not markup[/]"


def test_drift_banner(snap_compare):
    assert snap_compare(BannerApp(), terminal_size=(100, 8))
