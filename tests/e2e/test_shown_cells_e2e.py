"""The real app in tmux: a streamed reply that scrolls the room several times, painted as
cells that changed only (terminal/textual_seam.py), leaves the terminal showing exactly what a
full repaint shows, colours included, at 80x24 and 120x40."""

from __future__ import annotations

import itertools
import re
import time

import pytest

from keeltui_dev.loopback import Reply
from tests.e2e.test_chief_streaming_e2e import PLACEHOLDER, _config
from tests.support.terminal_model import Terminal
from tests.support.tmux import keeltui_command


WORD = re.compile(r"word(\d+)x(\d+)")


def _out_of_order(screen: str) -> list[tuple[int, int]]:
    """The words of the reply on screen that are not after the word before them (a band
    scrolled wrongly shows a line twice, or lines out of their order)."""
    words = [(int(p), int(i)) for p, i in WORD.findall(screen)]
    return [b for a, b in itertools.pairwise(words) if b <= a]


def _coloured(tmux) -> str:
    return tmux._tmux("capture-pane", "-p", "-e", check=False).stdout


def _looks(coloured: str, width: int) -> list[list[tuple]]:
    """Each row of a coloured capture as a person sees it: a blank erased by the terminal
    (EL/ECH: the default foreground) looks the same as a space written in any foreground."""
    rows = coloured.splitlines()
    screen = Terminal(width, len(rows))
    screen.feed("".join(f"\x1b[{y + 1};1H{row}" for y, row in enumerate(rows)))
    return [screen.look(y) for y in range(len(rows))]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_terminal_shows_what_a_full_repaint_shows_after_a_scrolling_reply(tmp_path, loopback, tmux, e2e_env, size):
    tmux.width, tmux.height = size
    paragraphs = [f"Paragraph {p}: " + " ".join(f"word{p}x{i}" for i in range(30)) + "\n\n" for p in range(10)]
    chunks = [piece + " " for text in paragraphs for piece in text.split(" ")]
    loopback.queue(Reply(chunks=chunks, chunk_delay=0.01))
    tmux.start(keeltui_command(_config(tmp_path, loopback)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("a long one please")
    tmux.send("Enter")
    # While it streams, the room scrolls by moving the lines the terminal shows (a scroll
    # region): every sample shows the words in their order, none twice.
    deadline = time.monotonic() + 60
    samples = 0
    while time.monotonic() < deadline:
        screen = tmux.capture()
        wrong = _out_of_order(screen)
        if wrong:
            # Seen once in ~40 CI runs, under two suites at once, not reproduced since (150 runs
            # idle and loaded): whether the disorder stays tells a band the screen model moved
            # wrongly (a bug the owner sees) from a capture in the middle of a frame.
            time.sleep(0.3)
            later = tmux.capture()
            still = "still out of order" if _out_of_order(later) else "in order again"
            raise AssertionError(f"words out of order at {wrong}:\n{screen}\n0.3 s later, {still}:\n{later}")
        samples += 1
        if "word9x29" in screen and "Chief  …" not in screen:
            break
        time.sleep(0.1)
    assert samples > 5, "the reply ended before it could be watched"
    painted = tmux.wait_for(lambda s: "esc Stop" not in s, what="the composer free again")
    before = _coloured(tmux)
    assert "word9x29" in painted
    # A resize there and back makes Textual paint every cell of the screen.
    width, height = size
    tmux._tmux("resize-window", "-x", str(width - 1), "-y", str(height), check=False)
    tmux.wait_for(lambda s: _coloured(tmux) != before, what="the narrower screen painted")
    tmux._tmux("resize-window", "-x", str(width), "-y", str(height), check=False)
    repainted = ""
    for _ in range(100):  # until the full repaint has landed (it shows the reply's last word again)
        repainted = _coloured(tmux)
        if _looks(repainted, width) == _looks(before, width):
            break
        time.sleep(0.2)
    assert _looks(repainted, width) == _looks(before, width), "\n".join(
        f"row {y}: {a!r}\n   vs {b!r}" for y, (a, b) in enumerate(zip(before.splitlines(), repainted.splitlines(), strict=False))
        if _looks(a, width) != _looks(b, width))
