"""A chain: Ctrl+R asks for a new answer, it finishes, Ctrl+↑ puts the last message back
in the composer (the regenerate must leave the keyboard where Ctrl+↑ is a key)."""

from __future__ import annotations

from keeltui_dev.loopback import Reply
from tests.pilot.test_room_controls import SIZE, idle, send
from tests.support.pilot import screen_text, wait_for


async def test_ctrl_up_after_a_finished_regenerate_puts_the_last_message_back(make_app, loopback):
    loopback.queue(Reply(text="First answer here."), Reply(text="Second answer here."))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "say something")
        await wait_for(pilot, lambda: "First answer here." in screen_text(app) and idle(app), timeout=20)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "Second answer here." in screen_text(app) and idle(app), timeout=20)
        await pilot.press("ctrl+up")
        await wait_for(pilot, lambda: app.room.composer.input.text == "say something",
                       what="the message back in the composer")
        assert "editing" in screen_text(app).lower()
