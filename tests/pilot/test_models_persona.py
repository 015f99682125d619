"""The settings dialog leads to the model picker and the persona editor (pilot)."""

from __future__ import annotations

from tests.support.pilot import wait_for


async def test_settings_open_the_model_picker_and_the_persona_editor(make_app):
    from keeltui.panes.ambient.modals import SettingsScreen
    from keeltui.panes.common.model_picker import ModelPicker
    from keeltui.panes.chief.persona_editor import PersonaEditor

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted, what="the ambient controller")
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="the settings")
        await pilot.click("#models")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPicker), what="the model picker")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ModelPicker), what="the picker to close")
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="the settings again")
        await pilot.click("#persona")
        await wait_for(pilot, lambda: isinstance(app.screen, PersonaEditor), what="the persona editor")
        await pilot.press("escape")  # keeps the old one: nothing saved, no line in the room
        await wait_for(pilot, lambda: not isinstance(app.screen, PersonaEditor), what="the editor to close")
        assert app.store.messages(app.store.chief_id()) == []


async def test_in_quiet_mode_the_persona_stays_hidden(make_app):
    from keeltui.panes.chief.persona_editor import PersonaEditor

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: app.quiet, what="Quiet Mode")
        app.room.open_persona()
        await pilot.pause()
        assert not isinstance(app.screen, PersonaEditor)


async def test_a_stored_reply_shows_its_thinking_folded_and_t_unfolds_it(make_app):
    from tests.support.room_view import log_text

    app = make_app()
    room = app.store.chief_id()
    user = app.store.add_message(room, "user", "how deep is the harbour?")
    reply = app.store.add_message(room, "assistant", "Twelve metres.", reply_to=user)
    app.store.update_message(reply, thinking="Charts say 12 m at low water.", thought_secs=12.4)

    def shown() -> str:
        return "\n".join(log_text(app))

    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.room.shows(reply), what="the reply")
        await wait_for(pilot, lambda: "▸ thought for 12 s" in shown(), what="the folded thinking")
        assert "Charts say" not in shown() and "Twelve metres." in shown()
        app.room.log_view.focus_row(reply)
        await pilot.press("t")
        await wait_for(pilot, lambda: "Charts say 12 m at low water." in shown(), what="the unfolded thinking")
        assert "▾ thought for 12 s" in shown() and "Twelve metres." in shown()
        await pilot.press("t")
        await wait_for(pilot, lambda: "Charts say" not in shown(), what="folded again")
        assert "▸ thought for 12 s" in shown()


async def test_the_picker_follows_the_role_and_saves_the_judge_model(tmp_path):
    from keeltui.config import load_config
    from keeltui_dev.loopback import LoopbackBrain
    from tests.conftest import app_for, write_config

    with LoopbackBrain(models=["loop-model", "tiny-judge", "big"]) as loopback:
        path = write_config(tmp_path / "config.toml", loopback.url,
                            f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
        stores: list = []
        app = app_for(path, stores)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                from textual.widgets import OptionList, Select

                from keeltui.panes.common.model_picker import ModelPicker

                app.room.open_models()
                # The screen is the app's as soon as it is pushed; its list only once composed.
                await wait_for(pilot, lambda: isinstance(app.screen, ModelPicker) and app.screen.query("#models"),
                               what="the picker with its list")
                options = app.screen.query_one("#models", OptionList)

                def highlighted() -> str:
                    return "" if options.highlighted is None else str(options.get_option_at_index(options.highlighted).prompt)

                # The model in use is highlighted when the picker opens.
                await wait_for(pilot, lambda: highlighted() == "loop-model", what="the chat model highlighted")
                app.screen.query_one(Select).value = "judge"
                await pilot.pause()
                options.highlighted = 2  # tiny-judge (sorted: big, loop-model, tiny-judge)
                options.focus()
                await pilot.press("enter")
                await wait_for(pilot, lambda: not isinstance(app.screen, ModelPicker), what="the picker to close")
                await wait_for(pilot, lambda: app.config.brain.models.judge == "tiny-judge", what="the judge model")
                assert app.status_line.model == "loop-model"  # the chat model did not change
            assert load_config(path, env={}).brain.models.judge == "tiny-judge"
        finally:
            for store in stores:
                store.close()
