"""The tmux helper's wait returns a screen tmux showed twice, not one caught inside a frame."""

from __future__ import annotations

from tests.support.tmux import Tmux


class Scripted(Tmux):
    """Captures from a script (the last repeats): what tmux showed at each poll."""

    def __init__(self, *screens: str) -> None:
        super().__init__()
        self.screens = list(screens)
        self.polls = 0

    def capture(self) -> str:
        self.polls += 1
        return self.screens.pop(0) if len(self.screens) > 1 else self.screens[0]


def test_a_capture_inside_a_frame_is_not_what_the_wait_returns():
    # tmux had parsed the first half of the frame: the line waited for, not the footer under it.
    tmux = Scripted("", "answer: 42\n", "answer: 42\nfooter", "answer: 42\nfooter")
    assert tmux.wait_text("answer") == "answer: 42\nfooter"


def test_a_state_that_passes_is_still_seen():
    tmux = Scripted("", "Reply stopped", "the next screen")
    assert tmux.wait_text("Reply stopped") == "Reply stopped"


def test_a_screen_that_keeps_changing_gives_its_latest_capture_in_bounded_time():
    tmux = Scripted("", *(f"streaming line {i}" for i in range(1000)))
    screen = tmux.wait_text("streaming")
    assert screen.startswith("streaming line ") and screen != "streaming line 0"
    assert tmux.polls < 20
