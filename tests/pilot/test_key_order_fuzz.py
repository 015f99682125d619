"""Fuzz the Chief room's key path: keys in bursts, as a read over SSH brings them.

Every typed character ends in exactly one sent message or in the composer, in order,
whatever ran between them: Enter, paging, the search opened and closed, Escape. An
Enter while the reply to the one before is still on its way keeps the draft (the bell
rings), so a message may hold what two Enters would have split; it never splits text
between them, loses it or takes it twice. Each seed is one random session of bursts; a
failure names its seed and its keys."""

from __future__ import annotations

import random
import string

import pytest

from tests.support.pilot import burst, wait_for

SIZE = (80, 24)
MOVES = [["pageup"], ["pagedown"], ["escape"], ["ctrl+f", "escape"], ["pageup", "pageup", "end"]]


def _session(seed: int) -> list[list[str]]:
    """Bursts of keys: words (a space between two), Enter and moves."""
    rnd = random.Random(seed)
    bursts: list[list[str]] = []
    for _ in range(rnd.randint(3, 6)):
        keys: list[str] = []
        for _ in range(rnd.randint(2, 10)):
            roll = rnd.random()
            if roll < 0.5:
                keys += ["space", *(rnd.choice(string.ascii_lowercase) for _ in range(rnd.randint(1, 6)))]
            elif roll < 0.7:
                keys.append("enter")
            else:
                keys += rnd.choice(MOVES)
        bursts.append(keys)
    return bursts


@pytest.mark.parametrize("seed", range(6))
async def test_keys_in_bursts_end_in_one_sent_message_or_the_composer_in_order(make_app, loopback, seed):
    bursts = _session(seed)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        field = app.room.composer.input
        await wait_for(pilot, lambda: app.focused is field, what="the composer's focus")
        for keys in bursts:
            burst(app, *keys)
            await pilot.pause()

        def owner_rows() -> list[str]:
            return [row.content for row in app.store.messages(app.store.chief_id()) if row.role == "user"]

        letters = "".join(key for keys in bursts for key in keys if len(key) == 1)
        enters = _letters_before_each_enter(bursts)

        def landed() -> bool:
            rows = owner_rows()
            return "".join(rows).replace(" ", "") + field.text.replace(" ", "") == letters

        await wait_for(pilot, landed, what=f"seed {seed}: every letter sent or in the composer, keys {bursts}; "
                                            f"got {owner_rows()} and {field.text!r}")
        ends, count = set(), 0
        for row in owner_rows():
            count += len(row.replace(" ", ""))
            ends.add(count)
        assert ends <= enters, f"seed {seed}: a message ends where no Enter was; keys {bursts}, got {owner_rows()}"
        assert all(row.strip() for row in owner_rows())


def _letters_before_each_enter(bursts: list[list[str]]) -> set[int]:
    count, ends = 0, set()
    for key in (key for keys in bursts for key in keys):
        if len(key) == 1:
            count += 1
        elif key == "enter":
            ends.add(count)
    return ends
