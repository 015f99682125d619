"""Issue 9, point 4: the room's conversation controls, watched on screen while they happen.

Real parts: the loopback OpenAI-compatible server, the real client, a real SQLite file.
"""

from __future__ import annotations

import re

from keeltui.panes.chief.search_bar import SearchBar
from keeltui.store import Store
from keeltui_dev.loopback import Reply
from tests.support.pilot import screen_text, wait_for

SIZE = (100, 30)


async def send(pilot, text: str) -> None:
    app = pilot.app
    app.room.composer.focus_input()
    app.room.composer.input.insert(text)
    await pilot.press("enter")


def rows(app):
    return app.store.messages(app.store.chief_id())


def idle(app) -> bool:
    return not app.room.composer.busy and not app.room.replying


async def test_escape_stops_a_streaming_reply_keeps_it_marked_and_f5_asks_again(make_app, loopback):
    loopback.queue(Reply(chunks=[f"word{i} " for i in range(300)], chunk_delay=0.05),
                   Reply(text="A fresh answer."))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "tell me everything")
        await wait_for(pilot, lambda: re.search(r"word[3-9]", screen_text(app)), timeout=20, what="the reply streaming")
        await wait_for(pilot, lambda: "Stop" in screen_text(app).splitlines()[-1], what="Esc Stop in the footer")
        await pilot.press("escape")
        await wait_for(pilot, lambda: idle(app), timeout=20, what="the stream to stop")
        reply = [r for r in rows(app) if r.role == "assistant" and r.turn_kind is None][-1]
        assert reply.status == "stopped" and reply.content.startswith("word0 word1 word2 ")
        assert "word299" not in reply.content
        await wait_for(pilot, lambda: "(stopped)" in screen_text(app), what="the stopped mark")
        assert app.focused is app.room.composer.input  # Escape stopped the reply; it did not leave the composer
        # F5 asks again for the same turn; nothing is retyped.
        await wait_for(pilot, lambda: "Retry" in screen_text(app).splitlines()[-1], what="F5 Retry in the footer")
        await pilot.press("f5")
        await wait_for(pilot, lambda: "A fresh answer." in screen_text(app) and idle(app), timeout=20)
        assert [r.content for r in rows(app) if r.role == "user"] == ["tell me everything"]
        assert app.store.message(reply.id).status == "superseded"
        assert "(earlier version)" in screen_text(app)
        assert loopback.requests[-1]["messages"][-1] == {"role": "user", "content": "tell me everything"}
        assert not any("word0" in m["content"] for m in loopback.requests[-1]["messages"])


async def test_working_indicator_shows_from_send_to_first_chunk(make_app, loopback):
    loopback.queue(Reply(text="Here at last.", delay=1.5))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert "is thinking" not in screen_text(app)
        await send(pilot, "slow one")
        await wait_for(pilot, lambda: "Chief is thinking" in screen_text(app), what="the working indicator")
        lines = screen_text(app).splitlines()
        indicator = max(i for i, line in enumerate(lines) if "Chief is thinking" in line)
        composer = max(i for i, line in enumerate(lines) if "Write to the Chief" in line or "▎" in line or "│" in line)
        assert 0 < composer - indicator <= 3  # right above the composer
        await wait_for(pilot, lambda: "Here" in screen_text(app), timeout=20, what="the first chunk")
        await wait_for(pilot, lambda: "is thinking" not in screen_text(app), what="the indicator gone")


async def test_retry_after_an_error_resends_the_same_turn(make_app, loopback):
    loopback.queue(Reply(status=500), Reply(text="Second try works."))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "what is due today?")
        await wait_for(pilot, lambda: idle(app) and app.room.retry_ready, timeout=20, what="the failure")
        await wait_for(pilot, lambda: "f5 Retry" in screen_text(app).splitlines()[-1], what="F5 in the footer")
        await pilot.press("f5")
        await wait_for(pilot, lambda: "Second try works." in screen_text(app) and idle(app), timeout=20)
        assert [r.content for r in rows(app) if r.role == "user"] == ["what is due today?"]
        assert not app.room.retry_ready
        assert "f5 Retry" not in screen_text(app).splitlines()[-1]


async def test_regenerate_keeps_the_previous_reply_folded(make_app, loopback):
    long_line = "First answer here, " + "and it goes on " * 12
    loopback.queue(Reply(text=long_line + "\n\nWith a second paragraph."), Reply(text="Second answer here."))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "say something")
        await wait_for(pilot, lambda: "First answer here," in screen_text(app) and idle(app), timeout=20)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "Second answer here." in screen_text(app) and idle(app), timeout=20)
        # The chain Ctrl+R then Ctrl+↑: the regenerate leaves the keys where Ctrl+↑ edits.
        await pilot.press("ctrl+up")
        await wait_for(pilot, lambda: app.room.composer.input.text == "say something",
                       what="the message back in the composer")
        assert "editing" in screen_text(app).lower()
        await pilot.press("escape")  # cancel the edit: the empty draft comes back
        await wait_for(pilot, lambda: app.room.composer.input.text == "", what="the edit cancelled")
        screen = screen_text(app)
        assert "(earlier version)" in screen and "First answer here," in screen
        assert "With a second paragraph." not in screen  # folded to one line
        old = next(r for r in rows(app) if r.role == "assistant" and "First answer" in r.content)
        assert old.status == "superseded"
        assert not any("First answer" in m["content"] for m in loopback.requests[-1]["messages"])
        # Enter on the earlier version unfolds it.
        log = app.room.log_view
        await wait_for(pilot, lambda: log.window.heights[log.window.index_of(old.id)] == 2,
                       what="the earlier version on one line (below the gap)")
        log.focus_row(old.id)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "With a second paragraph." in screen_text(app), what="the unfolded version")


async def test_edit_and_resend_the_last_message(make_app, loopback):
    loopback.queue(Reply(text="Answer to the typo."), Reply(text="Answer to the fix."))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "helo wrld")
        await wait_for(pilot, lambda: "Answer to the typo." in screen_text(app) and idle(app), timeout=20)
        await pilot.press("ctrl+up")
        await wait_for(pilot, lambda: app.room.composer.input.text == "helo wrld", what="the message back in the composer")
        assert app.focused is app.room.composer.input
        app.room.composer.input.load_text("hello world")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Answer to the fix." in screen_text(app) and idle(app), timeout=20)
        users = [r for r in rows(app) if r.role == "user"]
        assert [(u.content, u.status) for u in users] == [("helo wrld", "superseded"), ("hello world", "complete")]
        sent = loopback.requests[-1]["messages"]
        assert sent[-1] == {"role": "user", "content": "hello world"}
        assert not any("helo wrld" in m["content"] or "typo" in m["content"] for m in sent)
        await wait_for(pilot, lambda: screen_text(app).count("(earlier version)") == 2, what="both kept, folded")


async def test_search_finds_rows_anywhere_in_the_store_paging_them_in(make_app, tmp_path):
    seed = Store(tmp_path / "k.db")
    room = seed.chief_id()
    for i in range(600):
        text = f"row {i}" + (" the Heron flew" if i in (4, 300, 590) else "")
        seed.add_message(room, "user" if i % 2 == 0 else "assistant", text)
    seed.close()
    app = make_app("[chief]\nwindow_rows = 60\n")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "row 599" in screen_text(app), what="the newest rows")
        await pilot.press("ctrl+f")
        bar = app.room.query_one(SearchBar)
        await wait_for(pilot, lambda: app.focused is bar.input, what="the search field")
        await pilot.press(*"heron")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "row 590 the Heron flew" in screen_text(app), what="the newest match")
        await wait_for(pilot, lambda: bar.status == "1 of 3 (newest first)", what="the count, counted off the UI thread")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "row 300 the Heron flew" in screen_text(app), what="a match far back")
        await wait_for(pilot, lambda: bar.status == "2 of 3 (newest first)", what="the count")
        assert not app.room.at_latest
        assert len(app.room.mounted_ids) <= 60
        await pilot.press("up")
        await wait_for(pilot, lambda: "row 4 the Heron flew" in screen_text(app), what="the oldest match")
        await pilot.press("up")
        await wait_for(pilot, lambda: bar.status == "no older match", what="the end said")
        await pilot.press("down")
        await wait_for(pilot, lambda: "row 300 the Heron flew" in screen_text(app), what="back to the newer match")
        assert app.room.log_view.match == 300 + 1  # ids start at 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.focused is app.room.composer.input, what="the composer again")
        assert not bar.is_open


async def test_every_control_is_in_the_command_palette(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for title in ("Stop the reply", "Retry", "Regenerate", "Edit last message", "Search the room"):
            await pilot.press("ctrl+p")
            await pilot.press(*title)
            await wait_for(pilot, lambda: title in screen_text(app), what=f"{title!r} in the palette")
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is app.main_screen, what="the palette closed")
        # Run one from the palette: the search field opens.
        await pilot.press("ctrl+p")
        await pilot.press(*"Search the room")
        await wait_for(pilot, lambda: "Search the room" in screen_text(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(app.room.query(SearchBar)) and app.room.query_one(SearchBar).is_open,
                       what="the search field from the palette")


async def test_a_reply_stopped_before_its_first_chunk_hides_the_indicator_and_frees_the_composer(make_app, loopback):
    # No first chunk ever comes: the one "a reply is on its way" state still ends, and
    # every part that follows it (indicator, composer, footer keys) follows it back.
    loopback.queue(Reply(text="Too late.", delay=8))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "slow one")
        await wait_for(pilot, lambda: "Chief is thinking" in screen_text(app), what="the working indicator")
        assert app.room.composer.busy and app.room.replying
        await pilot.press("escape")
        await wait_for(pilot, lambda: idle(app), timeout=20, what="the reply stopped")
        await wait_for(pilot, lambda: "is thinking" not in screen_text(app), what="the indicator gone")
        await wait_for(pilot, lambda: "Stop" not in screen_text(app).splitlines()[-1], what="Esc Stop gone from the footer")
        assert app.focused is app.room.composer.input


async def test_the_stopped_line_goes_when_the_next_message_is_sent(make_app, loopback):
    # "F5 asks again" is about the stopped reply: once a new turn is on its way it is
    # no longer true, and F5 is not offered.
    loopback.queue(Reply(chunks=[f"word{i} " for i in range(300)], chunk_delay=0.05),
                   Reply(chunks=[f"next{i} " for i in range(300)], chunk_delay=0.05))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "tell me everything")
        await wait_for(pilot, lambda: re.search(r"word[3-9]", screen_text(app)), timeout=20, what="the reply streaming")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Reply stopped" in screen_text(app), timeout=20, what="the stopped line")
        await send(pilot, "something else")
        await wait_for(pilot, lambda: re.search(r"next[3-9]", screen_text(app)), timeout=20, what="the new reply")
        assert "Reply stopped" not in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: idle(app), timeout=20, what="the second reply stopped")


async def test_the_working_indicator_comes_and_goes_without_moving_the_room(make_app, loopback, tmp_path):
    # A line that came and went would resize the room: every row on screen would shift
    # by one, and the terminal would be sent the whole room again (bench: stream bytes).
    seed = Store(tmp_path / "k.db")
    for i in range(40):
        seed.add_message(seed.chief_id(), "user" if i % 2 == 0 else "assistant", f"older row {i}")
    seed.close()
    loopback.queue(Reply(text="Here at last.", delay=1.5))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "older row 39" in screen_text(app), what="the newest rows")

        log_region = app.room.log_view.region
        await send(pilot, "slow one")
        await wait_for(pilot, lambda: "Chief is thinking" in screen_text(app) and "slow one" in screen_text(app),
                       what="the working indicator with the sent row")
        assert app.room.log_view.region == log_region
        await wait_for(pilot, lambda: "Here at last" in screen_text(app) and "is thinking" not in screen_text(app),
                       timeout=20, what="the first chunk, the indicator gone")
        assert app.room.log_view.region == log_region
