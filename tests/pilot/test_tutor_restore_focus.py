"""A key that moves the focus right after the tutor reopens its session keeps the focus
where it sent it: the pane's deferred "put the keys where they belong" calls (after the
reopen, after Ready, after Ctrl+T) must not pull them back to the quiz.

Seen in CI over tmux: Tab from the reopened session's quiz to the note box, and the quiz
kept the keys ("▸ 1. Right" and "⏎ Answer" stayed): the call Ctrl+T had left for after
the next refresh focused the quiz again after the Tab. Keys in one burst (SSH) make the
same order every time: Tab is held until the session is back, handed on at once, and
the deferred call comes after it."""

from __future__ import annotations

from keeltui.panes.tutor.quiz import QuizCard
from keeltui.shell import global_keys
from keeltui.services.tutor_records import LAST_SESSION_KEY
from keeltui.tutor_view import TutorPane
from tests.pilot.test_tutor_pane import SIZE
from tests.pilot.test_tutor_records import PROTEIN, pane
from tests.support.pilot import burst, screen_text, wait_for
from tests.support.tutor_seed import seed_session


async def test_tab_in_the_burst_behind_ctrl_t_leaves_the_reopened_quiz_for_the_note_box(make_app, loopback, monkeypatch):
    # The keys behind Ctrl+T wait for the tutor, for KEYS_HELD_AT_MOST_SECS at most (a tutor
    # that never comes). This test failed three times in ~20 suite runs, in CI (a fresh
    # clone, cold bytecode, two suites on two cores) with the quiz keeping the keys; with
    # the cap shortened it fails that way every time (the Tab goes where the focus is,
    # nowhere, before the session is back). So most likely the first tutor mount and reopen
    # took longer than the cap there. This test is about the order once the tutor is there.
    monkeypatch.setattr(global_keys, "KEYS_HELD_AT_MOST_SECS", 120.0)
    app = make_app()
    session = seed_session(app.store, "muscle protein", PROTEIN, [("basics", True)], waiting="per_meal")
    app.store.set_state(LAST_SESSION_KEY, session)  # left open when the app last quit
    async with app.run_test(size=SIZE) as pilot:
        mounted_at_burst = bool(app.query(TutorPane))
        burst(app, "ctrl+t", "tab")

        def moved() -> bool:
            mounted = app.query(TutorPane)  # the pane mounts on the first Ctrl+T
            return bool(mounted) and mounted.first().in_session and app.focused is mounted.first().composer.input

        def state() -> str:
            # Rare in CI only (a fresh clone, two suites on two cores): say where things stood.
            mounted = app.query(TutorPane)
            return (f"Tab to take the keys to the note box (pane mounted at the burst: {mounted_at_burst}; "
                    f"now: {bool(mounted)}, in session: {mounted.first().in_session if mounted else None}, "
                    f"focused: {app.focused!r}, keys held: {app.holding_keys}, "
                    f"in front: {app.main_screen.panes.active})")

        try:
            await wait_for(pilot, moved, what="Tab to take the keys to the note box")
        except AssertionError:
            raise AssertionError(f"timed out waiting for {state()}") from None
        composer_input = pane(app).composer.input
        for _ in range(10):  # and they stay there: nothing deferred pulls them back
            await pilot.pause(0.05)
            assert app.focused is composer_input, app.focused
        await pilot.press(*"ok")
        assert composer_input.text == "ok"
        assert "Now: per_meal?" in screen_text(app)  # the reopened quiz is on screen, waiting


async def test_the_reopened_quiz_takes_the_keys_when_nothing_moved_them(make_app, loopback):
    app = make_app()
    session = seed_session(app.store, "muscle protein", PROTEIN, [("basics", True)], waiting="per_meal")
    app.store.set_state(LAST_SESSION_KEY, session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: isinstance(app.focused, QuizCard), what="the quiz to take the keys")
        await pilot.press("1")
        await wait_for(pilot, lambda: "I chose 1." in screen_text(app) or loopback.requests, what="the answer sent")
