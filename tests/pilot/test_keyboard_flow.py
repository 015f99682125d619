"""Issue 20 in the pilot: the edit state, paging from the composer, F1 help, a key fuzz.

Each test watches the rendered screen while it happens (tests/support/pilot.py::screen_text).
Real parts: the loopback OpenAI-compatible server, the real client, a real SQLite file.
"""

from __future__ import annotations

import re

from keeltui_dev.loopback import Reply
from tests.support.pilot import screen_text, wait_for

SIZE = (100, 30)
EDIT_NOTE = re.compile(r"editing your message of \d\d:\d\d · Enter resends · Esc cancels")


def users(app) -> list[tuple[str, str]]:
    return [(r.content, r.status) for r in app.store.messages(app.store.chief_id()) if r.role == "user"]


def idle(app) -> bool:
    return not app.room.composer.busy and not app.room.replying


async def type_and_send(pilot, text: str) -> None:
    await pilot.press(*text)
    await pilot.press("enter")


async def test_edit_then_escape_gives_the_draft_back_and_the_next_send_is_a_new_message(make_app, loopback):
    loopback.queue(Reply(text="First answer."), Reply(text="Second answer."))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_and_send(pilot, "helo")
        await wait_for(pilot, lambda: "First answer." in screen_text(app) and idle(app), timeout=20, what="the first reply")
        await pilot.press(*"half typed")
        await pilot.press("ctrl+up")
        await wait_for(pilot, lambda: EDIT_NOTE.search(screen_text(app)), what="the edit state on screen")
        assert app.room.composer.input.text == "helo"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not EDIT_NOTE.search(screen_text(app)), what="the edit state gone")
        assert "half typed" in screen_text(app)
        assert app.focused is app.room.composer.input  # Escape cancelled the edit; it did not leave the composer
        await type_and_send(pilot, " more")
        await wait_for(pilot, lambda: "Second answer." in screen_text(app) and idle(app), timeout=20, what="the second reply")
        assert users(app) == [("helo", "complete"), ("half typed more", "complete")]
        assert "(earlier version)" not in screen_text(app)


async def test_edit_enter_supersedes_once_and_a_later_message_is_new(make_app, loopback):
    loopback.queue(Reply(text="Answer to the typo."), Reply(text="Answer to the fix."), Reply(text="Answer to the next."))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_and_send(pilot, "helo")
        await wait_for(pilot, lambda: "Answer to the typo." in screen_text(app) and idle(app), timeout=20)
        await pilot.press("ctrl+up")
        await wait_for(pilot, lambda: EDIT_NOTE.search(screen_text(app)), what="the edit state on screen")
        await pilot.press("backspace", *"lo")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Answer to the fix." in screen_text(app) and idle(app), timeout=20)
        assert not EDIT_NOTE.search(screen_text(app))
        assert users(app) == [("helo", "superseded"), ("hello", "complete")]
        await type_and_send(pilot, "next one")
        await wait_for(pilot, lambda: "Answer to the next." in screen_text(app) and idle(app), timeout=20)
        assert users(app) == [("helo", "superseded"), ("hello", "complete"), ("next one", "complete")]
        assert "Answer to the fix." in screen_text(app)  # the edited exchange was not superseded by the new message
