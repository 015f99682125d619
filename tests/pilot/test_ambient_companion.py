"""The sentinel as a day-long companion, in the real app (issue 13): away from the
keyboard, the banner's F-keys from inside the composer, every state in the status
line, the day view, and the brain re-probed after a failed Chief turn."""

from __future__ import annotations

import os

from keeltui.panes.common.composer import ComposerInput
from keeltui.panes.ambient.day_view import DayScreen
from keeltui.panes.ambient.modals import FocusPrompt
from keeltui.sentinel import AWAY_EVENT, EPISODE_EVENT
from tests.pilot.test_ambient_app import (  # noqa: F401 - fixtures
    DRIFT, SIZE, ambient_app, drift, judge_calls, script, status_file, status_text, toasts, verdict, window,
)
from keeltui_dev.loopback import Reply
from tests.support.pilot import screen_text, wait_for


def show_idle(window, title: str, idle_secs: float, wm_class: str = "firefox") -> None:
    """The command source's optional third field: seconds since the last input."""
    tmp = window.path.with_suffix(".tmp")
    tmp.write_text(f"{wm_class}\t{title}\t{idle_secs:g}\n", encoding="utf-8")
    os.replace(tmp, window.path)


async def test_away_costs_no_judge_calls_shows_away_and_back_starts_fresh(ambient_app, script, window, loopback,
                                                                          tmp_path):
    app = ambient_app()
    async with app.run_test(size=SIZE) as pilot:
        await drift(pilot, app, script, window)
        # Lunch: the YouTube tab stays in front, nobody touches the keyboard.
        show_idle(window, "YouTube - cat videos", 900)
        await wait_for(pilot, lambda: app.ambient_away, what="away")
        await wait_for(pilot, lambda: app.ambient_line == "" and status_file(tmp_path).startswith("away"),
                       what="the line gone, away shown")
        assert "away" in status_text(app)
        calls = judge_calls(loopback)
        sentinel = app.services.ambient.sentinel
        for _ in range(3):  # three cadence ticks while away (waited for, not slept)
            ticks = sentinel.judge_calls
            await sentinel.evaluate()
            assert sentinel.judge_calls == ticks
        assert judge_calls(loopback) == calls
        # Back: a fresh start, judged again; the away period is one record.
        show_idle(window, "YouTube - cat videos", 0)
        await wait_for(pilot, lambda: not app.ambient_away, what="back")
        await wait_for(pilot, lambda: app.ambient_line == DRIFT, what="judged again after coming back")
        away = app.store.events(AWAY_EVENT)
        assert len(away) == 1 and away[0]["data"]["secs"] >= 0


async def test_banner_keys_work_from_inside_the_composer_without_typing(ambient_app, script, window, tmp_path):
    app = ambient_app()
    async with app.run_test(size=SIZE) as pilot:
        await drift(pilot, app, script, window)
        await wait_for(pilot, lambda: "F6 snooze 1h" in screen_text(app) and "F7 start focus" in screen_text(app),
                       what="the banner advertises F6/F7")
        composer = app.room.composer
        assert app.focused is not None and composer in app.focused.ancestors_with_self
        await pilot.press("f7")  # start focus, straight from the text field
        await wait_for(pilot, lambda: isinstance(app.screen, FocusPrompt), what="the focus prompt")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, FocusPrompt), what="prompt closed")
        composer.focus_input()
        await pilot.press("f6")  # snooze, still in the composer
        await wait_for(pilot, lambda: app.ambient_line == "" and not app.banner.has_class("-shown"), what="snoozed")
        assert app.services.ambient.sentinel.snoozed
        assert status_file(tmp_path).startswith("◌ snoozed until ")
        assert composer.query_one(ComposerInput).text == ""  # no letter landed in the text field


async def test_mode_off_is_shown_not_idle(ambient_app, tmp_path):
    app = ambient_app(mode="off")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: status_file(tmp_path).startswith("ambient off"), what="ambient off")
        assert status_text(app).startswith("ambient off")


async def test_f3_shows_the_day_with_the_episode(ambient_app, script, window):
    app = ambient_app()
    async with app.run_test(size=SIZE) as pilot:
        await drift(pilot, app, script, window)
        script.ambient = verdict()
        window.show("grant report.odt - LibreOffice", "libreoffice")
        await wait_for(pilot, lambda: app.store.events(EPISODE_EVENT), what="the episode stored")
        await pilot.press("f3")
        await wait_for(pilot, lambda: isinstance(app.screen, DayScreen), what="the day view")
        await wait_for(pilot, lambda: "drift" in screen_text(app) and "YouTube - cat videos" in screen_text(app),
                       what="the episode on screen")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, DayScreen), what="closed")


async def test_a_failed_chief_turn_re_probes_the_brain_like_start_up(ambient_app, loopback, monkeypatch):
    monkeypatch.setattr("keeltui.shell.health.BRAIN_REPROBE_SECS", 0.3)
    failing = {"on": True}

    def responder(request: dict) -> Reply:
        if failing["on"]:
            return Reply(status=500, raw_body='{"error": "overloaded"}')
        return Reply(text="Hello again.")

    loopback.responder = responder
    app = ambient_app(mode="off")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.brain_online is True, what="the start-up check")
        # Record every change: the offline spell can be shorter than one poll here, because
        # the re-probe's /models answers even while chat turns fail.
        seen: list[bool] = []
        set_online = app.set_brain_online

        def recording(online, *args, **kwargs):
            seen.append(online)
            return set_online(online, *args, **kwargs)

        app.set_brain_online = recording  # type: ignore[method-assign]
        app.room.composer.focus_input()
        await pilot.press("h", "i", "enter")
        await wait_for(pilot, lambda: False in seen, what="the failed turn")
        failing["on"] = False
        # Nobody chats again: the re-probe alone finds the brain back.
        await wait_for(pilot, lambda: True in seen[seen.index(False):] and app.brain_online is True,
                       what="the re-probe")


async def test_the_environment_beats_a_stored_f2_setting_and_f2_says_so(ambient_app, tmp_path):
    from keeltui.services import ambient_state
    from keeltui.app import KeelApp
    from keeltui.config import load_config
    from keeltui.panes.ambient.modals import SettingsScreen
    from keeltui.store import Store

    ambient_app(mode="status")  # writes config.toml (the file says "status")
    config = load_config(tmp_path / "config.toml", env={"KEEL_AMBIENT_MODE": "off"})
    store = Store(config.database_path())
    ambient_state.save_settings(store, "notify", 1)  # yesterday's F2 choice
    app = KeelApp(config, store)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted)
            await wait_for(pilot, lambda: app.services.ambient.sentinel.mode == "off", what="the environment wins")
            await wait_for(pilot, lambda: status_file(tmp_path).startswith("ambient off"), what="off shown")
            await pilot.press("f2")
            await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="settings")
            text = screen_text(app)
            assert "Order: default < file < live (F2) < env (KEEL_AMBIENT_*)" in text
            assert "mode off, from KEEL_AMBIENT_MODE; beats live notify, file status" in text
            await pilot.click("#reset")
            await wait_for(pilot, lambda: not isinstance(app.screen, SettingsScreen), what="reset")
            await wait_for(pilot, lambda: store.get_state(ambient_state.SETTINGS_MODE_KEY) is None,
                           what="the live settings forgotten")
            assert app.services.ambient.sentinel.mode == "off"  # the environment still wins
    finally:
        store.close()


async def test_use_the_file_values_returns_to_the_file(ambient_app, tmp_path):
    from keeltui.services import ambient_state
    from keeltui.panes.ambient.modals import SettingsScreen
    from keeltui.store import Store

    app = ambient_app(mode="status")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted)
        other = Store(tmp_path / "k.db")  # another process's F2 (the app's own writes are not polled)
        ambient_state.save_settings(other, "notify", 7)
        other.close()
        await wait_for(pilot, lambda: app.services.ambient.sentinel.mode == "notify", what="the live setting")
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="settings")
        text = screen_text(app)
        assert "mode notify, from live settings (F2); beats file status" in text
        await pilot.click("#reset")
        await wait_for(pilot, lambda: app.services.ambient.sentinel.mode == "status", what="the file's mode")
        assert app.services.ambient.sentinel.cadence_secs == 1  # the file's cadence


async def test_the_stored_away_period_starts_at_the_last_input(ambient_app, window, tmp_path):
    import time

    app = ambient_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted, what="ambient mounted")
        before = time.time()
        show_idle(window, "keeltui - terminal", 900, "xterm")  # the last input was 15 minutes ago
        await wait_for(pilot, lambda: app.ambient_away, what="away")
        show_idle(window, "keeltui - terminal", 0, "xterm")
        await wait_for(pilot, lambda: not app.ambient_away, what="back")
        away = app.store.events(AWAY_EVENT)
        assert len(away) == 1
        # From the last input (about `before` - 900), not from when the poll noticed it.
        assert away[0]["data"]["start"] <= before - 850
        assert away[0]["data"]["secs"] >= 850
