"""Issue 9, point 9: small things a user notices, watched on screen."""

from __future__ import annotations

from keeltui.panes.common.focus_places import quiet_line
from keeltui.store import Store
from tests.support.room_view import cursor_row
from tests.support.pilot import screen_text, wait_for

SIZE = (100, 30)


async def test_a_report_renders_its_markdown(make_app, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        other = Store(tmp_path / "k.db")
        other.add_report("cron:backup", "Backup **finished** in `restic`:\n\n- home: 41 GB\n- mail: 2 GB")
        other.close()
        await wait_for(pilot, lambda: "home: 41 GB" in screen_text(app), what="the report on screen")
        screen = screen_text(app)
        assert "• home: 41 GB" in screen and "• mail: 2 GB" in screen
        assert "**finished**" not in screen and "finished" in screen
        assert "`restic`" not in screen and "restic" in screen
        assert "Scheduled task" in screen  # still a system line, behind its badge


def _footer(app) -> str:
    return screen_text(app).rstrip().splitlines()[-1]


async def test_the_footer_shows_the_keys_that_work_in_the_current_focus(make_app, tmp_path):
    seed = Store(tmp_path / "k.db")
    room = seed.chief_id()
    seed.add_message(room, "user", "hello")
    seed.add_message(room, "assistant", "Summary of the talk so far.", source="app:summary", turn_kind="summary")
    seed.add_report("cron:backup", "nightly ok")
    seed.close()
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_for(pilot, lambda: "nightly ok" in screen_text(app), what="the room")
        # In the composer: Escape is offered; the row keys are not.
        await wait_for(pilot, lambda: "esc Leave input" in _footer(app), what="Esc in the footer")
        assert "c Copy" not in _footer(app) and "z Snooze" not in _footer(app)
        # On a report: copy and the row keys; no Escape, no fold.
        await pilot.press("escape")
        await wait_for(pilot, lambda: "c Copy" in _footer(app), what="c in the footer")
        footer = _footer(app)
        assert "esc Leave input" not in footer and "Fold" not in footer and "z Snooze 1h" in footer
        # On the summary: Enter folds it.
        await pilot.press("up")
        await wait_for(pilot, lambda: getattr(cursor_row(app), "turn_kind", None) == "summary", what="the summary focused")
        await wait_for(pilot, lambda: "⏎ Fold/unfold" in _footer(app), what="Enter-to-fold in the footer")
        assert "▸ Summary of the talk so far." in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "▾ Summary of the talk so far." in screen_text(app), what="the summary unfolded")
        # On a message: copy, no fold.
        await pilot.press("up")
        await wait_for(pilot, lambda: "Fold" not in _footer(app) and "c Copy" in _footer(app))
        assert cursor_row(app).content == "hello"
        # ↓ moves back down, message by message.
        await pilot.press("down")
        await wait_for(pilot, lambda: getattr(cursor_row(app), "turn_kind", None) == "summary", what="down to the summary")
        await pilot.press("down")
        await wait_for(pilot, lambda: getattr(cursor_row(app), "content", "") == "nightly ok", what="down to the report")


async def test_quiet_mode_turned_on_while_typing_takes_the_keyboard_from_the_hidden_composer(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.focused is app.room.composer.input, what="the composer")
        await pilot.press(*"draft")
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: "Quiet Mode is on" in screen_text(app), what="the Quiet sentence")
        assert app.focused is None
        await pilot.press(*"secret")
        # The letters had their chance: refused with the reason, on the status line.
        await wait_for(pilot, lambda: app.status_line.message == quiet_line(app), what="the letters refused")
        await pilot.press("enter")
        # A later key, taken after the Enter: Quiet Mode off gives the composer back.
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: app.focused is app.room.composer.input, what="the composer back after Quiet Mode")
        assert not [r for r in app.store.messages(app.store.chief_id()) if r.role == "user"]
        assert "secret" not in app.room.composer.input.text
        assert app.room.composer.input.text == "draft"
