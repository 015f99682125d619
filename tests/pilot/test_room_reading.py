"""How the Chief room reads (issue 21): the welcome of an empty room, a reply's Markdown."""

from __future__ import annotations

from keeltui.chief.welcome import TITLE, WELCOME
from keeltui_dev.loopback import Reply
from tests.pilot.test_room_controls import send
from tests.support.pilot import screen_text, wait_for


async def test_an_empty_room_shows_the_welcome_until_the_first_message(make_app, loopback):
    loopback.queue(Reply(text="Hello."))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: TITLE in screen_text(app), what="the welcome")
        screen = screen_text(app)
        for line in WELCOME:
            assert line.strip() in screen, f"{line!r} is cut at 80x24:\n{screen}"
        assert "keeltui doctor" in screen and "F1" in screen
        await send(pilot, "hi there")
        await wait_for(pilot, lambda: "Hello." in screen_text(app), what="the reply")
        assert TITLE not in screen_text(app)
        assert all(row.content != TITLE for row in app.room.log_view.window.rows)  # never stored


async def test_a_reply_reads_as_one_markdown_document(make_app, loopback):
    loopback.queue(Reply(text="Steps:\n\n1. boil water\n2. add tea\n\n> mind the steam\n\n```python\nprint('tea')\n```"))
    app = make_app()
    async with app.run_test(size=(80, 30)) as pilot:
        await send(pilot, "how do I make tea?")
        await wait_for(pilot, lambda: "print('tea')" in screen_text(app) and not app.room.composer.busy,
                       what="the reply")
        lines = [line.strip(" █▌▎▊▐").rstrip() for line in screen_text(app).splitlines()]
        start = lines.index("Steps:")
        assert lines[start:start + 9] == ["Steps:", "", "1. boil water", "2. add tea", "", "mind the steam", "",
                                          "python", "print('tea')"], "\n".join(lines)
