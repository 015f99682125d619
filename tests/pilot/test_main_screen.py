"""The layout lives on one MainScreen; late messages during teardown are harmless."""

from __future__ import annotations

import asyncio

from textual.worker import WorkerState

from keeltui.panes.common.events import BrainChecked, StatusMessage, StoreWritten
from keeltui.panes.ambient.modals import SettingsScreen
from tests.support.pilot import screen_text, wait_for

SIZE = (100, 30)


async def test_the_layout_is_the_main_screen_even_under_a_dialog(make_app):
    from keeltui.shell.main_screen import MainScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "Write to the Chief" in screen_text(app), what="composer on screen")
        assert isinstance(app.main_screen, MainScreen)
        await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted, what="ambient mounted")
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="settings dialog")
        # Under the dialog the app's parts are still the main screen's.
        assert app.room.screen is app.main_screen
        assert app.status_line.screen is app.main_screen
        app.post_message(StatusMessage("under the dialog"))
        await wait_for(pilot, lambda: app.status_line.message == "under the dialog", what="status under the dialog")


async def test_messages_that_arrive_after_the_screens_are_gone_are_ignored(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "Write to the Chief" in screen_text(app), what="composer on screen")
    # The app has shut down and its screen stack is empty: a brain check, a worker's
    # failure or a store write that lands now must not raise (it used to: IndexError).
    assert not app.screen_stack
    app.on_brain_checked(BrainChecked("connection refused"))
    app.on_brain_checked(BrainChecked(None))
    app.on_status_message(StatusMessage("late"))
    app.on_store_written(StoreWritten())
    app.refresh_from_store()
    app.watch_quiet(False, True)

    class DeadWorker:
        name, group, error = "brain-check", "chief", RuntimeError("late")

    class Late:
        worker, state = DeadWorker(), WorkerState.ERROR

    app.on_worker_state_changed(Late())


async def test_a_brain_check_that_ends_while_the_app_shuts_down_is_ignored(make_app):
    # The brain check runs in a worker; under load it can finish while the app shuts
    # down, after the status line is gone but before the app stops handling messages.
    # Its message must then find nothing to do (it used to raise IndexError/NoMatches).
    app = make_app()
    posted: list[str] = []

    async def post_once_the_status_line_is_gone(status_line) -> None:
        for _ in range(100_000):  # bounded: the shutdown below always detaches it
            if not status_line.is_attached:
                app.post_message(BrainChecked("connection refused"))
                app.post_message(BrainChecked(None))
                app.post_message(StatusMessage("late"))
                posted.append("yes")
                return
            await asyncio.sleep(0)

    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "Write to the Chief" in screen_text(app), what="composer on screen")
        watcher = asyncio.create_task(post_once_the_status_line_is_gone(app.status_line))
    await watcher
    assert posted == ["yes"]


async def test_a_worker_failure_stays_on_the_status_line_when_the_brain_answers(make_app):
    # The brain check ends whenever the endpoint answers; on a loaded machine that is
    # after an unrelated failure was reported. It must clear only its own notice.
    app = make_app()

    async def broken():
        raise RuntimeError("the evidence pipe burst")

    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.brain_online is True, what="the first brain check")
        app.run_worker(broken, name="evidence", exit_on_error=False)
        await wait_for(pilot, lambda: "evidence failed" in app.status_line.message, what="the failure shown")
        app.on_brain_checked(BrainChecked(None))  # handled now, as the worker's message would be
        assert "evidence failed" in app.status_line.message
        await wait_for(pilot, lambda: "evidence failed" in screen_text(app), what="the failure on screen")
        app.on_brain_checked(BrainChecked("connection refused"))
        assert "brain offline" in app.status_line.message
        app.on_brain_checked(BrainChecked(None))
        assert app.status_line.message == ""  # the brain's own notice goes when it answers


async def test_the_composer_copes_with_losing_its_send_button_mid_teardown():
    """Under load a run once failed in teardown: the composer's busy watcher ran (as
    Textual initialises reactives on mount) after its children were gone, and
    ``query_one("#send")`` raised NoMatches out of the app."""
    from textual.app import App, ComposeResult

    from keeltui.panes.common.composer import Composer

    class OneComposer(App):
        def compose(self) -> ComposeResult:
            yield Composer(id="c")

    app = OneComposer()
    async with app.run_test() as pilot:
        composer = app.query_one(Composer)
        await composer.query_one("#send").remove()
        composer.busy = True
        await pilot.pause()
        assert composer.busy and app.is_running


async def test_an_app_started_in_quiet_mode_focuses_nothing_until_it_ends(make_app):
    # The app gives the first focus itself (MainScreen.AUTO_FOCUS is off): in Quiet Mode
    # nothing holds the keys. Textual's default gave them to the first focusable widget,
    # the tab strip, and then to the hidden room's log.
    app = make_app()
    app.store.set_state("quiet_mode", True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.room.has_class("-quiet") and "Quiet Mode" in screen_text(app),
                       what="the quiet curtain")
        await wait_for(pilot, lambda: app.tutor is not None and app.tutor.is_mounted, what="tutor mounted")
        assert app.focused is None
        await pilot.press("right")
        assert app.main_screen.panes.active == "chief-tab"
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: app.focused is app.room.composer.input, what="the composer takes the keys")


async def test_what_is_mounted_after_the_first_frame_sends_no_whole_frame_again(make_app):
    # The ambient controller (no look of its own) and the tutor pane (in the hidden tab) are
    # mounted right after the first frame: neither may make the screen send every cell again
    # (~8 KB at 120x40 over SSH, while the owner may already type). The first frame and the
    # repaint Textual asks for when the screen is first shown are the only whole frames.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted and app.tutor is not None
                       and app.tutor.is_mounted, what="ambient controller and tutor mounted")
        await pilot.pause(0.3)
        assert app.main_screen._compositor.full_updates <= 2
        assert "Write to the Chief" in screen_text(app)
