"""How the Chief room reads (issue 21): the welcome of an empty room, a reply's Markdown."""

from __future__ import annotations

from keeltui.chief.welcome import BEGIN, INTRO, TITLE, WELCOME
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


def _at(text: str) -> float:
    from datetime import datetime

    return datetime.strptime(text, "%Y-%m-%d %H:%M").timestamp()


async def test_rows_show_their_time_days_are_separated_and_a_report_its_source(make_app, tmp_path):
    from keeltui.store import Store

    store = Store(tmp_path / "k.db")
    room = store.chief_id()
    store.add_report("cron:backup", "nightly ok")
    with store.transaction() as conn:
        conn.executemany("UPDATE messages SET created_at = ? WHERE id = ?", [(_at("2026-11-30 09:05"), 1)])
        conn.executemany(
            "INSERT INTO messages (conversation_id, role, content, status, created_at) VALUES (?, ?, ?, 'complete', ?)",
            [(room, "user", "late question", _at("2026-12-01 23:50")), (room, "assistant", "morning answer", _at("2026-12-02 08:15"))])
    store.close()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.room.log_view
        log.clock = lambda: _at("2026-12-02 12:00")
        log.refresh()
        await wait_for(pilot, lambda: "morning answer" in screen_text(app) and "Today" in screen_text(app), what="the room")
        lines = screen_text(app).splitlines()
        shown = [line.strip() for line in lines]
        order = [next(i for i, line in enumerate(shown) if needle in line)
                 for needle in ("Mon 30 Nov", "cron:backup  09:05", "Yesterday", "23:50", "late question",
                                "Today", "08:15", "morning answer")]
        assert order == sorted(order), "\n".join(lines)


def _quote_colour(app) -> str:
    log = app.room.log_view
    for strip in log.render_lines(log.scrollable_content_region.reset_offset):
        for seg in strip:
            if "mind the steam" in seg.text:
                return seg.style.color.triplet.hex
    raise AssertionError("no quote on screen")


async def test_a_quote_takes_its_colour_from_the_theme_and_follows_a_theme_change(make_app, loopback):
    from textual.color import Color

    loopback.queue(Reply(text="> mind the steam"))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await send(pilot, "tea?")
        await wait_for(pilot, lambda: "mind the steam" in screen_text(app) and not app.room.composer.busy, what="the reply")
        colours = {}
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            await pilot.pause()
            variables = app.get_css_variables()
            muted = Color.parse(variables["background"]) + Color.parse(variables["foreground-muted"])
            colours[theme] = _quote_colour(app)
            assert colours[theme] == muted.hex.lower(), theme
        assert colours["textual-dark"] != colours["textual-light"]


def _offline_app(make_app, loopback):
    """An app whose brain is not running: the offline notice lands a moment after start."""
    loopback.queue(Reply(text="Hello."))
    return make_app(base_url="http://127.0.0.1:9/v1")  # nothing listens there


async def _with_the_offline_notice(pilot, app) -> str:
    """The screen once the offline notice is in the room and drawn."""
    await wait_for(pilot, lambda: "The brain is offline" in screen_text(app), what="the offline notice")
    await pilot.pause(0.2)
    return screen_text(app)


async def test_a_room_with_only_the_offline_notice_keeps_the_welcome_under_it(make_app, loopback):
    # A newcomer whose model server is not running: the notice that the brain is offline
    # lands in the room a moment after the first frame. The welcome stayed only while the
    # room held no row, so it was gone before it could be read, for good (the notice is
    # stored). It stays until the owner's first message.
    app = _offline_app(make_app, loopback)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await _with_the_offline_notice(pilot, app)
        assert TITLE in screen and "Say something below to begin." in screen, screen
        assert screen.index("The brain is offline") < screen.index(TITLE)  # under the notice, where the view is
        assert all(row.content != TITLE for row in app.room.log_view.window.rows)  # still never stored


async def test_at_80x24_the_offline_notice_its_badge_and_the_welcome_fit_together(make_app, loopback):
    # Under the notice the whole welcome took one line more than an 80x24 room has: the
    # notice's badge line ("Notice" and its time) was scrolled off the top, so the first
    # thing a newcomer read was an unmarked paragraph. Under system lines the welcome leaves
    # out how to reach a model (the notice says it, naming the endpoint).
    app = _offline_app(make_app, loopback)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _with_the_offline_notice(pilot, app)
        lines = screen.splitlines()
        badge = next((i for i, line in enumerate(lines) if line.strip().startswith("Notice")), None)
        assert badge is not None, f"the notice's badge line is off the screen:\n{screen}"
        assert "The brain is offline" in lines[badge + 1], screen
        for line in (TITLE, *INTRO, BEGIN):
            assert line.strip() in screen, f"{line!r} is cut at 80x24:\n{screen}"
        assert "A model: set base_url" not in screen  # said by the notice, with the endpoint
        assert not app.room.log_view.scroll_y and app.room.log_view.max_scroll_y == 0, screen  # all of it in view
