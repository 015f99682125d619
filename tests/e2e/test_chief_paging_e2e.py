"""Scrolling back through a 100 000-row room with real keys and the wheel (the real app in tmux)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import write_config
from tests.support.tmux import Tmux, keeltui_command
from tests.support.room_seed import seed_room

ROWS = 100_000
PLACEHOLDER = "Write to the Chief"
NUMBER = re.compile(r"\b(?:Turn|Reply) (\d+)\.")


def _seed(path) -> None:
    seed_room(path, ROWS, lambda i: f"{'Turn' if i % 2 == 0 else 'Reply'} {i}.")



def _top_row(screen: str) -> int | None:
    found = [int(n) for n in NUMBER.findall(screen)]
    return min(found) if found else None


def _room_lines(screen: str) -> list[str]:
    """The rows' lines (scrollbar cut off): what moves when the view scrolls."""
    return [line[:60] for line in screen.splitlines() if PLACEHOLDER not in line][2:-4]


def _wheel_up(tmux: Tmux) -> None:
    tmux._tmux("send-keys", "-H", *[f"{b:02x}" for b in b"\x1b[<64;10;6M"])


def _step(tmux: Tmux, press, top: int, most: int, what: str, strictly: bool = False) -> int:
    """Press, wait for the view to move up, and check it moved by at most ``most`` rows.

    ``strictly``: the press moves the top row (a page does; a line may not).
    """
    before = _room_lines(tmux.capture())
    press()
    last = None

    def moved_and_settled(screen: str) -> bool:
        # Two equal captures in a row: never judge a frame tmux has only half drawn.
        nonlocal last
        settled, last = screen == last, screen
        new = _top_row(screen) or top
        return settled and _room_lines(screen) != before and (new < top if strictly else new <= top)

    screen = tmux.wait_for(moved_and_settled, what=f"{what} to move the view up from row {top}")
    new = _top_row(screen)
    assert top - new <= most, f"{what} jumped {top - new} rows (from {top} to {new}):\n{screen}"
    return new


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_pageup_up_and_wheel_page_back_smoothly_home_reaches_the_first_row_end_the_newest(
        tmp_path, loopback, tmux, e2e_env, size):
    _seed(tmp_path / "k.db")
    tmux.width, tmux.height = size
    config = write_config(tmp_path / "config.toml", loopback.url,
                          f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    tmux.start(keeltui_command(config), e2e_env)
    screen = tmux.wait_for(lambda s: PLACEHOLDER in s and f"Reply {ROWS - 1}." in s, what="the newest row")
    tmux.send("Escape")  # out of the composer: the newest row has the keys
    tmux.wait_text("Snooze")  # the footer shows the row keys once the composer is left
    top = _top_row(screen)
    page = size[1] // 3 + 2  # a row is three lines: a page moves about a third of the height in rows
    # Far past the first page and past the mounted window (120 rows): paging must never stall,
    # and the focused newest row is pruned on the way without the view leaping.
    while top > ROWS - 300:
        top = _step(tmux, lambda: tmux.send("PageUp"), top, page, "PageUp", strictly=True)
    for _ in range(12):
        top = _step(tmux, lambda: tmux.send("Up"), top, 1, "Up")
    for _ in range(12):
        top = _step(tmux, lambda: _wheel_up(tmux), top, 2, "the wheel")
    tmux.send("Home")
    tmux.wait_for(lambda s: "Turn 0." in s and "Reply 1." in s, what="the first row")
    tmux.send("End")
    tmux.wait_text(f"Reply {ROWS - 1}.")
