"""Nothing on screen moves down unless the person moves it (the real app in tmux).

The screen is sampled every 50 ms while a message is sent and a short reply streams and
ends; a line that stood at screen row r in one sample and stands lower in the next
moved under the reader's eyes.
"""

from __future__ import annotations

import threading

import pytest

from keeltui_dev.loopback import Reply
from tests.support.room_files import room_config
from tests.support.room_seed import seed_room
from tests.support.tmux import Tmux, keeltui_command
import itertools

PLACEHOLDER = "Write to the Chief"


def _room_lines(screen: str) -> dict[str, int]:
    """Each line of the room (above the composer) that stands once on screen, and its row."""
    lines = screen.splitlines()
    end = next((i for i, line in enumerate(lines) if PLACEHOLDER in line), len(lines))
    seen: dict[str, list[int]] = {}
    for row, line in enumerate(lines[:end]):
        text = line.strip(" █▌▎│")
        if len(text) > 3:
            seen.setdefault(line.rstrip(), []).append(row)
    return {line: rows[0] for line, rows in seen.items() if len(rows) == 1}


class Sampler:
    """Captures the screen every 50 ms on a thread until stopped; the samples in order."""

    def __init__(self, tmux: Tmux) -> None:
        self.tmux = tmux
        self.samples: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append(self.tmux.capture())
            self._stop.wait(0.05)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.samples.append(self.tmux.capture())


def _moved_down(samples: list[str]) -> list[str]:
    moves = []
    for before, after in itertools.pairwise(samples):
        old, new = _room_lines(before), _room_lines(after)
        for line, row in old.items():
            if line in new and new[line] > row:
                moves.append(f"{line.strip()!r}: row {row} -> {new[line]}\n--- before\n{before}\n--- after\n{after}")
    return moves


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("history", [0, 30])
def test_no_line_moves_down_while_a_message_is_sent_and_a_short_reply_ends(tmp_path, loopback, tmux, e2e_env, size, history):
    tmux.width, tmux.height = size
    if history:
        seed_room(tmp_path / "k.db", history, lambda i: f"{'Turn' if i % 2 == 0 else 'Reply'} number {i}.")
    gate = threading.Semaphore(0)
    loopback.queue(Reply(chunks=["The tide ", "turns at ", "seven tonight."], gate=gate))
    tmux.start(keeltui_command(room_config(tmp_path, loopback.url)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    with Sampler(tmux) as sampler:
        tmux.type("when is the tide?")
        tmux.send("Enter")
        tmux.wait_text("The tide")
        for words in ("turns at", "seven tonight."):
            gate.release()
            tmux.wait_text(words)
        tmux.wait_for(lambda s: "seven tonight." in s and "Chief  …" not in s, what="the finished reply")
    assert len(sampler.samples) > 10
    moves = _moved_down(sampler.samples)
    assert not moves, moves[0]
