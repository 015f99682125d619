"""Every typed character ends in exactly one sent message or the composer, in order.

Through the real terminal path (tmux, the driver's input thread, Textual's parser,
keeltui's key hooks): seeded random text with multibyte characters and Enters, written
in bursts of random size, as keys arrive over SSH. An Enter while a reply is on its way
rings the bell and keeps the draft (the next Enter sends it, joined), so which Enters send
depends on the replies' timing; what may not depend on it: the messages, joined, then the
draft, are the typed characters in order, each message ends where an Enter was typed, and
nothing is sent twice.
"""

from __future__ import annotations

import random

import pytest

from tests.support.room_files import room_config, sent_texts
from tests.support.tmux import keeltui_command

PLACEHOLDER = "Write to the Chief"
REPLY = "Hello from the loopback brain."
WORDS = ["alpha", "béta", "gämma", "日本語", "x", "Δelta", "naïve", "42", "a-b", "?!", "zz"]


def _script(seed: int) -> tuple[list[str], list[str], str]:
    """The bursts to write (text and "\\r" for Enter), the messages they send, what is left."""
    rng = random.Random(seed)
    messages = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5))) for _ in range(rng.randint(3, 5))]
    rest = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
    stream = "".join(m + "\r" for m in messages) + rest
    bursts, i = [], 0
    while i < len(stream):
        size = rng.choice([1, 2, 3, 7, 19, 64])
        bursts.append(stream[i:i + size])
        i += size
    return bursts, messages, rest


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_bursts_of_keys_end_as_the_messages_and_the_draft_they_spell(tmp_path, loopback, tmux, e2e_env, seed):
    tmux.start(keeltui_command(room_config(tmp_path, loopback.url)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    bursts, messages, rest = _script(seed)
    for burst in bursts:
        pieces = burst.split("\r")
        args: list[str] = []
        for n, piece in enumerate(pieces):
            if piece:
                args += ["-l", piece]  # one send-keys, one write: the piece typed literally
                tmux._tmux("send-keys", *args)
                args = []
            if n < len(pieces) - 1:
                tmux.send("Enter")
    # Every reply in, the draft on screen: send it too, so every character is in a message.
    # (An Enter that lands while the last reply is still finishing rings the bell and keeps
    # the draft, as a person would see and press Enter again.)
    tmux.wait_for(lambda text: rest in text and text.count(REPLY) == len(sent_texts(tmp_path)) > 0,
                  what=f"the replies and the draft {rest!r}")
    for _ in range(20):
        tmux.send("Enter")
        try:
            tmux.wait_for(lambda text: "".join(sent_texts(tmp_path)).endswith(rest), timeout=2.0, what="the draft sent")
            break
        except AssertionError:
            continue
    sent = sent_texts(tmp_path)
    assert "".join(sent) == "".join(messages) + rest, (sent, messages, rest)
    # Each message ends where an Enter was typed (or is the draft sent last).
    ends = {sum(len(m) for m in messages[:k]) for k in range(1, len(messages) + 1)} | {len("".join(messages) + rest)}
    reached = 0
    for text in sent:
        reached += len(text)
        assert reached in ends, (sent, messages, rest)
