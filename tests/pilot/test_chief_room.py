"""The Chief room driven through Pilot: chat, reports, system lines, compaction, Quiet Mode."""

from __future__ import annotations

import time

from keeltui.services.ambient_state import start_focus
from keeltui.chief.quiet import QUIET_MODE_REFUSAL
from keeltui.store import Store
from keeltui_dev.loopback import Reply, free_port
from tests.support.pilot import repeat_until, screen_text, wait_for
from tests.support.room_view import held

SIZE = (110, 36)


async def send(pilot, text: str) -> None:
    app = pilot.app
    app.room.composer.focus_input()
    app.room.composer.input.insert(text)
    await pilot.press("enter")


async def test_message_gets_a_streamed_reply_on_screen_and_in_the_store(make_app, loopback):
    loopback.queue(Reply(text="Good morning. Two things are due today."))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "morning")
        await wait_for(pilot, lambda: "Two things are due today." in screen_text(app), what="reply on screen")
        rows = app.store.messages(app.store.chief_id())
        user = next(r for r in rows if r.role == "user")
        reply = next(r for r in rows if r.role == "assistant" and r.turn_kind is None)
        assert user.content == "morning"
        await wait_for(pilot, lambda: app.store.message(reply.id).status == "complete")
        assert app.store.message(reply.id).content == "Good morning. Two things are due today."
        assert reply.reply_to == user.id
        assert loopback.requests[-1]["messages"][-1] == {"role": "user", "content": "morning"}


async def test_offline_brain_is_said_once_as_a_notice(make_app):
    url = f"http://127.0.0.1:{free_port()}/v1"
    app = make_app(base_url=url)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.brain_online is False, what="brain check")
        notices = [r for r in app.store.messages(app.store.chief_id()) if r.turn_kind == "notice"]
        assert len(notices) == 1 and url in notices[0].content
        await wait_for(pilot, lambda: len(held(app, "notice")) == 1 and url in screen_text(app))
        assert "brain offline" in app.status_line.message
    again = make_app(base_url=url)
    async with again.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: again.brain_online is False, what="brain check")
        notices = [r for r in again.store.messages(again.store.chief_id()) if r.turn_kind == "notice"]
        assert len(notices) == 1


async def test_dead_brain_keeps_the_users_turn(make_app):
    app = make_app(base_url=f"http://127.0.0.1:{free_port()}/v1")
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "are you there?")
        await wait_for(pilot, lambda: not app.room.composer.busy and app.brain_online is False)
        rows = app.store.messages(app.store.chief_id())
        assert any(r.role == "user" and r.content == "are you there?" for r in rows)
        assert any(r.role == "assistant" and r.status == "error" for r in rows)
        await pilot.press("x")  # still responsive to keys
        assert app.is_running


async def test_report_from_another_process_lands_as_a_system_line(make_app, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        other = Store(tmp_path / "k.db")
        other.add_report("coop-notify:ci", "CI is green on main")
        await wait_for(pilot, lambda: "CI is green on main" in screen_text(app), what="report on screen")
        assert [row.turn_kind for row in held(app)] == ["coop"]
        assert "Coop" in screen_text(app)
        other.close()


async def test_report_while_streaming_never_becomes_the_reply(make_app, loopback, tmp_path):
    words = [f"w{i} " for i in range(40)]
    loopback.queue(Reply(chunks=words, chunk_delay=0.05), Reply(text="second answer"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "tell me a long story")
        await wait_for(pilot, lambda: loopback.chunks_sent >= 5, what="stream started")
        other = Store(tmp_path / "k.db")
        report_id = other.add_report("followup:dentist", "Call the dentist back")
        await wait_for(pilot, lambda: "Call the dentist back" in screen_text(app), what="report while streaming")
        assert app.room.composer.busy  # the turn did not end when the report landed
        await wait_for(pilot, lambda: not app.room.composer.busy, what="stream end")
        rows = app.store.messages(app.store.chief_id())
        user = next(r for r in rows if r.role == "user")
        reply = next(r for r in rows if r.reply_to == user.id)
        assert reply.content == "".join(words) and reply.id < report_id
        from keeltui.chief.context import reply_to

        assert reply_to(rows, user.id).id == reply.id
        await wait_for(pilot, lambda: app.room.log_view.row(reply.id).status == "complete", what="the reply settled")
        assert app.room.log_view.row(reply.id).content == "".join(words) and app.room.streaming_row_id is None
        assert "w39" in screen_text(app) and "Chief  …" not in screen_text(app)
        await send(pilot, "and then?")
        await wait_for(pilot, lambda: len(loopback.requests) == 2)
        sent = loopback.requests[-1]["messages"]
        assert not any(m["role"] == "assistant" and "dentist" in m["content"] for m in sent)
        marked = [m for m in sent if "dentist" in m["content"]]
        assert marked and marked[0]["role"] == "user" and "background report" in marked[0]["content"]
        other.close()


async def test_compaction_folds_old_turns_into_a_folded_summary(make_app, loopback):
    turn = 0

    def responder(request):
        nonlocal turn
        if not request.get("stream"):
            return Reply(text="[summarised] earlier we discussed numbers.")
        turn += 1
        # each turn reports its context as ~90% full of a 1000-token window
        return Reply(text=f"answer {turn}", usage={"prompt_tokens": 850, "completion_tokens": 50, "total_tokens": 900})

    loopback.responder = responder
    app = make_app('[chief]\ncompact_at = 0.8\nkeep_recent = 2\n[brain.context_windows]\nchief = 1000\n')
    async with app.run_test(size=SIZE) as pilot:
        for i in range(6):
            await send(pilot, f"question {i}")
            await wait_for(pilot, lambda: not app.room.composer.busy, what=f"turn {i}")
        rows = app.store.messages(app.store.chief_id())
        summaries = [r for r in rows if r.turn_kind == "summary"]
        assert summaries, "no summary row was written"
        await wait_for(pilot, lambda: held(app, "summary"), what="the summary in the room")
        summary = held(app, "summary")[-1]
        assert app.room.log_view.is_folded(summary)
        app.room.log_view.scroll_to_row(summary.id)
        await wait_for(pilot, lambda: "▸ [summarised] earlier we discussed numbers." in screen_text(app),
                       what="the summary folded to its first line")
        streamed = [r for r in loopback.requests if r.get("stream")]
        last = streamed[-1]["messages"]
        assert any(m["role"] == "system" and "[summarised]" in m["content"] for m in last)
        # bounded: system prompt + summary + the kept turns and the new one, not the whole history
        assert len(last) <= 2 + 2 * 2 + 2
        assert "question 0" not in str(last)
        assert "CTX" not in screen_text(app)


async def test_quiet_mode_round_trip(make_app, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        other = Store(tmp_path / "k.db")
        other.add_report("cron:a", "visible before quiet")
        await wait_for(pilot, lambda: "visible before quiet" in screen_text(app))
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: QUIET_MODE_REFUSAL in screen_text(app))
        assert other.get_state("quiet_mode") is True
        landed = other.add_report("cron:b", "landed while quiet")
        # The store watcher has read it into the hidden room: it had its chance to show.
        await wait_for(pilot, lambda: app.room.shows(landed), what="the report in the hidden room")
        await pilot.pause()
        text = screen_text(app)
        assert "landed while quiet" not in text and "visible before quiet" not in text
        assert (tmp_path / "status").read_text().count("Quiet Mode") == 1
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: "landed while quiet" in screen_text(app))
        other.close()


async def test_quiet_mode_set_by_another_process(make_app, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        other = Store(tmp_path / "k.db")
        other.set_state("quiet_mode", True)
        await wait_for(pilot, lambda: QUIET_MODE_REFUSAL in screen_text(app))
        other.set_state("quiet_mode", False)
        await wait_for(pilot, lambda: QUIET_MODE_REFUSAL not in screen_text(app))
        other.close()


async def test_long_room_mounts_a_bounded_window_and_pages_older_rows(make_app, tmp_path):
    seed = Store(tmp_path / "k.db")
    room = seed.chief_id()
    for i in range(500):
        seed.add_message(room, "user" if i % 2 == 0 else "assistant", f"row {i}")
    seed.close()
    app = make_app("[chief]\nwindow_rows = 60\n")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "row 499" in screen_text(app), what="latest row visible")
        initial = app.room.mounted_ids
        assert len(initial) <= 60
        async def page_back():
            app.room.log_view.scroll_home(animate=False)
            await pilot.pause(0.2)
            app.room.log_view.scroll_to(y=5, animate=False)
            await pilot.pause(0.1)
            app.room.log_view.scroll_home(animate=False)
            await pilot.pause(0.2)

        # As many rounds as a loaded machine needs, until the newest rows were pruned.
        await repeat_until(pilot, page_back, lambda: min(app.room.mounted_ids) < min(initial) and not app.room.at_latest,
                           what="older rows paged in")
        ids = app.room.mounted_ids
        assert min(ids) < min(initial), "older rows were not paged in"
        assert len(ids) <= 60
        assert ids == sorted(ids)
        assert not app.room.at_latest  # paging back pruned the newest rows
        # A report landing now must not stand after a gap at the bottom.
        other = Store(tmp_path / "k.db")
        report_id = other.add_report("cron:late", "a report while reading history")
        # A later write the status line shows: once it is on screen, the store watcher
        # has read past the report too (rows and focus are read in the same pass).
        start_focus(other, "read the history", None, time.time())
        await wait_for(pilot, lambda: "read the history" in screen_text(app), what="the focus started after the report")
        ids = app.room.mounted_ids
        assert report_id not in ids and ids == list(range(ids[0], ids[0] + len(ids)))
        # Scrolling back down pages the newer rows in, the report last.
        async def page_forward():
            app.room.log_view.scroll_end(animate=False)
            await pilot.pause(0.2)
            if report_id not in app.room.mounted_ids:
                app.room.log_view.scroll_relative(y=-5, animate=False)
                await pilot.pause(0.1)

        await repeat_until(pilot, page_forward, lambda: report_id in app.room.mounted_ids and app.room.at_latest,
                           what="the report paged in last")
        ids = app.room.mounted_ids
        assert ids[-1] == report_id and app.room.at_latest
        assert ids == list(range(ids[0], ids[0] + len(ids))) and len(ids) <= 60
        other.close()


async def test_worker_failure_becomes_one_status_line(make_app):
    app = make_app()

    async def broken():
        raise RuntimeError("the evidence pipe burst")

    async with app.run_test(size=SIZE) as pilot:
        app.run_worker(broken, name="evidence", exit_on_error=False)
        await wait_for(pilot, lambda: "evidence failed" in app.status_line.message)
        assert "the evidence pipe burst" in app.status_line.message
        assert app.is_running
