"""A key that moves the focus right after the tutor reopens its session keeps the focus
where it sent it: the pane's deferred "put the keys where they belong" calls (after the
reopen, after Ready, after Ctrl+T) must not pull them back to the quiz.

Seen in CI over tmux: Tab from the reopened session's quiz to the note box, and the quiz
kept the keys ("▸ 1. Right" and "⏎ Answer" stayed): the call Ctrl+T had left for after
the next refresh focused the quiz again after the Tab. Keys in one burst (SSH) make the
same order every time: Tab is held until the session is back, handed on at once, and
the deferred call comes after it."""

from __future__ import annotations

from textual.widgets import Input

from keeltui.panes.tutor.quiz import QuizCard
from keeltui.services.tutor_records import LAST_SESSION_KEY
from keeltui.store import Store
from keeltui.tutor_view import TutorPane
from tests.pilot.test_tutor_pane import SIZE
from tests.pilot.test_tutor_records import PROTEIN, pane
from tests.support.pilot import burst, focus_history, screen_text, wait_for
from tests.support.tutor_seed import seed_session


async def test_tab_in_the_burst_behind_ctrl_t_leaves_the_reopened_quiz_for_the_note_box(make_app, loopback, monkeypatch):
    # This test failed five times in ~30 suite runs, in CI only, the quiz keeping the keys.
    # Three causes: the keys behind Ctrl+T waited 10 s from the key, not from the tutor's
    # slow mount (keeltui/keys/hold.py); a focus asked for in the Chief room before Ctrl+T
    # that landed after the Tab (test_a_late_focus_in_the_chief_room_leaves_the_keys_in_the_
    # note_box below); and, found last (one run in ~50 of this test alone, on an idle machine,
    # which is how CI's last minute runs), the pane's own "session back in view" step after
    # the mount's Ready had already handed on the Tab (test_a_tutor_shown_before_its_mount_
    # was_reported_leaves_the_tab_in_the_note_box, which forces that order). The wait is
    # long here: this test is about the order once the tutor is there.
    from keeltui.keys import hold

    monkeypatch.setattr(hold, "AFTER_TUTOR_SECS", 120.0)
    app = make_app()
    _with_a_session_left_open(app)
    async with app.run_test(size=SIZE) as pilot:
        mounted_at_burst = bool(app.query(TutorPane))
        history = focus_history(app)
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
                    f"in front: {app.main_screen.panes.active}); since the burst: " + " | ".join(history))

        try:
            await wait_for(pilot, moved, what="Tab to take the keys to the note box")
        except AssertionError:
            raise AssertionError(f"timed out waiting for {state()}") from None
        await _keys_stay_in(pilot, app, pane(app).composer.input)
        assert "Now: per_meal?" in screen_text(app)  # the reopened quiz is on screen, waiting


async def test_a_tutor_shown_before_its_mount_was_reported_leaves_the_tab_in_the_note_box(make_app, loopback, monkeypatch):
    # The CI-only failure above, found (one run in ~50 on an idle machine): the pane says it
    # is Ready when it mounts and again once the session left open is back in view. When its
    # first showing (which reopens the session) comes before the app handles the mount's
    # Ready, that Ready already finds the quiz and hands on the keys behind Ctrl+T: the Tab
    # takes them to the note box. Then the pane's own "session back in view" step put them
    # back on the quiz. Forced here: the mount's Ready waits until the pane has shown, and
    # the back-in-view step until the Tab has landed.
    from keeltui.shell.global_keys import GlobalKeys

    served = []
    ready = GlobalKeys.on_tutor_pane_ready

    async def ready_after_the_showing(app, message):
        tutor = app.tutor
        if not served and (tutor is None or not tutor.in_session):  # the pane has not shown (reopened) yet
            app.set_timer(0.02, lambda: app.post_message(TutorPane.Ready()))
            return
        served.append(message)
        await ready(app, message)

    in_view = TutorPane._restored_in_view

    def in_view_after_the_tab(tutor, *args, tries: int = 0):
        if tutor.app.focused is not tutor.composer.input and tries < 100:  # 5 s at most
            tutor.set_timer(0.05, lambda: in_view_after_the_tab(tutor, *args, tries=tries + 1))
            return
        in_view(tutor, *args)

    monkeypatch.setattr(GlobalKeys, "on_tutor_pane_ready", ready_after_the_showing)
    monkeypatch.setattr(TutorPane, "_restored_in_view", in_view_after_the_tab)
    app = make_app()
    _with_a_session_left_open(app)
    async with app.run_test(size=SIZE) as pilot:
        burst(app, "ctrl+t", "tab")
        composer_input = await _note_box_when_mounted(app, pilot)
        await wait_for(pilot, lambda: app.focused is composer_input, what="the Tab to take the keys to the note box")
        assert served  # the keys went with the mount's Ready, after the showing (the order forced)
        await _keys_stay_in(pilot, app, composer_input)


async def test_the_reopened_quiz_takes_the_keys_when_nothing_moved_them(make_app, loopback):
    app = make_app()
    _with_a_session_left_open(app)  # left open when the app last quit
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: isinstance(app.focused, QuizCard), what="the quiz to take the keys")
        await pilot.press("1")
        await wait_for(pilot, lambda: "I chose 1." in screen_text(app) or loopback.requests, what="the answer sent")


async def test_keys_behind_ctrl_t_wait_for_a_tutor_that_mounts_late(make_app, loopback, monkeypatch):
    # A loaded machine: the tutor pane mounts well after the keys typed behind the first
    # Ctrl+T came. They wait for it (counted from its mount, keeltui/keys/hold.py), then
    # begin a new topic (the session list is empty). Counted from Ctrl+T (the rule before), they were handed on before
    # the pane was there and went nowhere. The wait is shortened here so that the late mount
    # is longer than it; the mount comes 1.5 s late.
    from keeltui.keys import hold

    monkeypatch.setattr(hold, "AFTER_TUTOR_SECS", 0.3)
    _tutor_mounts_late(monkeypatch, 1.5)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.query(TutorPane)  # not there yet at the burst
        burst(app, "ctrl+t", *"new topic")

        await _typed_into_the_topic_prompt(app, pilot, "new topic")
        assert not app.holding_keys


def _tutor_mounts_late(monkeypatch, secs: float) -> None:
    """The tutor pane mounts ``secs`` after the app asks (a loaded machine's first mount)."""
    from keeltui.shell.main_screen import MainScreen

    mount_now = MainScreen.mount_tutor
    monkeypatch.setattr(MainScreen, "mount_tutor",
                        lambda screen, pane_widget: screen.set_timer(secs, lambda: mount_now(screen, pane_widget)))


async def test_keys_waiting_for_a_slow_tutor_say_so_on_screen_until_they_land(make_app, loopback, monkeypatch):
    # While the keys typed behind the first Ctrl+T wait for a tutor that is slow to mount,
    # the screen says so (the tab is empty, nothing typed shows): keys that seem lost get
    # typed again. The line goes when they land.
    from keeltui.keys.hold import WAITING_LINE

    _tutor_mounts_late(monkeypatch, 2.0)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        burst(app, "ctrl+t", *"knee")
        await wait_for(pilot, lambda: WAITING_LINE in screen_text(app), what="the waiting keys said on screen")
        assert not app.query(TutorPane)  # said while they wait, not after
        await _typed_into_the_topic_prompt(app, pilot, "knee")
        await wait_for(pilot, lambda: WAITING_LINE not in screen_text(app), what="the line gone once they landed")


async def test_keys_waiting_for_a_slow_tutor_leave_a_database_problem_on_the_line(make_app, loopback, monkeypatch):
    # The status line's one rule: a database problem stays until the app ends; the waiting
    # keys do not push it off.
    from keeltui.keys.hold import WAITING_LINE
    from keeltui.shell.health import Health

    _tutor_mounts_late(monkeypatch, 2.0)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.post_message(Health.DatabaseDamaged("the database k.db is damaged: rows may be missing"))
        await wait_for(pilot, lambda: "k.db is damaged" in screen_text(app), what="the database problem on screen")
        burst(app, "ctrl+t", *"knee")
        screens: list[str] = []  # what the status line said while the keys waited (2 s; the line comes at 0.5 s)

        def landed() -> bool:
            screens.append(screen_text(app))
            return _topic_typed(app) == "knee"

        await wait_for(pilot, landed, what="the keys in the topic prompt", timeout=30)
        assert len(screens) > 10
        assert all("k.db is damaged" in text and WAITING_LINE not in text for text in screens)


async def _note_box_when_mounted(app, pilot):
    await _tutor_mounted(app, pilot)
    return pane(app).composer.input


async def _tutor_mounted(app, pilot) -> None:
    await wait_for(pilot, lambda: bool(app.query(TutorPane)) and app.query_one(TutorPane).is_mounted,
                   what="the tutor pane")


def _topic_typed(app) -> str:
    """What the focused topic prompt holds ("" when the prompt does not have the keys)."""
    focused = app.focused
    if not isinstance(focused, Input) or focused.id != "tutor-topic":
        return ""
    return focused.value


async def _typed_into_the_topic_prompt(app, pilot, words: str) -> None:
    try:
        await wait_for(pilot, lambda: _topic_typed(app) == words and words in screen_text(app),
                       what="the words in the tutor's topic prompt, on screen", timeout=30)
    except AssertionError:
        raise AssertionError(f"focused {app.focused!r} ({_topic_typed(app)!r}), keys held: {app.holding_keys}, "
                             f"in front: {app.main_screen.panes.active}") from None


async def test_letters_typed_on_the_session_list_begin_a_new_topic_in_view(make_app, loopback):
    # Ctrl+T and a topic typed at once (one burst, as over SSH) on the session list: the
    # letters went into the composer that the list hides (no region), and the learner saw
    # nothing of them. They begin a new topic instead, in its prompt; Enter starts it.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _tutor_mounted(app, pilot)
        burst(app, "ctrl+t", *"knee rehab")
        await _typed_into_the_topic_prompt(app, pilot, "knee rehab")
        await pilot.press("enter")
        await wait_for(pilot, lambda: pane(app).in_session, what="the new session")
        assert pane(app).records.title(pane(app).session_id) == "knee rehab"


async def test_escape_cancels_the_typed_topic_and_the_next_letter_begins_afresh(make_app, loopback):
    # A chain: a topic typed on the list, Escape (the prompt says it cancels), then a new
    # letter. The cancelled words came back in front of it ("rehabx").
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _tutor_mounted(app, pilot)
        burst(app, "ctrl+t", *"rehab")
        await _typed_into_the_topic_prompt(app, pilot, "rehab")
        burst(app, "escape", "x")
        await _typed_into_the_topic_prompt(app, pilot, "x")
        assert "rehab" not in screen_text(app)


async def _reopened_and_tabbed_to_the_note_box(app, pilot):
    """Ctrl+T reopens the session left open (its quiz takes the keys), Tab takes them to
    the note box; returns the note box."""
    await pilot.press("ctrl+t")
    await wait_for(pilot, lambda: isinstance(app.focused, QuizCard), what="the quiz to take the keys")
    await pilot.press("tab")
    composer_input = pane(app).composer.input
    await wait_for(pilot, lambda: app.focused is composer_input, what="Tab to the note box")
    return composer_input


async def _keys_stay_in(pilot, app, composer_input) -> None:
    for _ in range(10):  # nothing deferred pulls them away
        await pilot.pause(0.05)
        assert app.focused is composer_input, app.focused
    await pilot.press(*"ok")
    assert composer_input.text == "ok"


def _with_a_session_left_open(app) -> None:
    session = seed_session(app.store, "muscle protein", PROTEIN, [("basics", True)], waiting="per_meal")
    app.store.set_state(LAST_SESSION_KEY, session)


async def test_a_late_focus_in_the_chief_room_leaves_the_keys_in_the_note_box(make_app, loopback):
    # One path to the CI-only failure above (a fresh clone on a loaded machine):
    # a focus asked for in the Chief room before Ctrl+T (its composer's, at start-up) landed
    # after the Tab had taken the keys to the note box. The app hands the keys back to the
    # pane in front, and did so by putting them where the tutor puts them when it comes
    # forward (the reopened quiz), not where the learner had just put them.
    app = make_app()
    _with_a_session_left_open(app)
    async with app.run_test(size=SIZE) as pilot:
        composer_input = await _reopened_and_tabbed_to_the_note_box(app, pilot)
        stale = app.room.composer.input
        landed = focus_history(app).given
        app.room.composer.focus_input()  # a stale request, landing behind the tutor now
        await wait_for(pilot, lambda: stale in landed, what="the stale focus to land")
        try:
            await wait_for(pilot, lambda: app.focused is composer_input, what="the keys back in the note box", timeout=5)
        except AssertionError:
            raise AssertionError(f"the keys went to {app.focused!r}, not back to the note box") from None
        await _keys_stay_in(pilot, app, composer_input)


async def test_a_late_focus_whose_place_in_front_is_gone_meanwhile_goes_to_the_front_panes_place(make_app, loopback):
    # The place the keys were in front can stop taking them between the stale focus's
    # report and its handling (here the note box is disabled in between): the keys must
    # not stay in the pane behind; they go where the pane in front puts them.
    from keeltui.panes.common.pane_tabs import PaneTabs

    app = make_app()
    _with_a_session_left_open(app)
    async with app.run_test(size=SIZE) as pilot:
        composer_input = await _reopened_and_tabbed_to_the_note_box(app, pilot)
        tabs = app.query_one(PaneTabs)
        post = tabs.post_message

        def post_then_disable(message):
            posted = post(message)
            if isinstance(message, PaneTabs.FocusedBehind):
                composer_input.disabled = True  # after the report, before the app handles it
            return posted

        tabs.post_message = post_then_disable  # type: ignore[method-assign]
        stale = app.room.composer.input
        landed = focus_history(app).given
        app.room.composer.focus_input()  # a stale request, landing behind the tutor now
        await wait_for(pilot, lambda: stale in landed and composer_input.disabled, what="the stale focus reported")
        try:
            await wait_for(pilot, lambda: isinstance(app.focused, QuizCard), what="the keys at the quiz", timeout=5)
        except AssertionError:
            raise AssertionError(f"the keys stayed at {app.focused!r}") from None


async def test_a_report_landing_after_the_tab_leaves_the_keys_in_the_note_box(make_app, loopback):
    # A chain: the learner Tabs from the reopened quiz to the note box, and a report from
    # another process makes the tutor redraw: the quiz must not take the keys back.
    app = make_app()
    _with_a_session_left_open(app)
    async with app.run_test(size=SIZE) as pilot:
        composer_input = await _reopened_and_tabbed_to_the_note_box(app, pilot)
        tutor = pane(app)
        redraws = []
        refresh = tutor.refresh_from_store
        tutor.refresh_from_store = lambda: (refresh(), redraws.append(1))  # type: ignore[method-assign]
        other = Store(app.store.path)  # another process: `keeltui report`
        try:
            other.add_report("cron:backup", "the nightly backup finished")
        finally:
            other.close()
        await wait_for(pilot, lambda: bool(redraws), what="the tutor to redraw from the store")
        await _keys_stay_in(pilot, app, composer_input)


async def test_a_late_focus_in_the_tutor_never_hands_the_keys_to_quiet_modes_hidden_composer(make_app, loopback):
    # The other way round, in Quiet Mode: the Chief room's composer had the keys, Quiet Mode
    # hid it, and a stale focus lands in the tutor behind. The keys must not go back to the
    # composer (hidden: what is typed there would be sent unseen); the stray letter says why.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        composer_input = app.room.composer.input
        await pilot.press("ctrl+t")  # a look at the tutor (it composes when first shown), and back
        await wait_for(pilot, lambda: bool(app.query("#tutor-session-list")), what="the tutor's session list")
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: app.focused is composer_input, what="the composer's keys")
        app.action_toggle_quiet()
        await wait_for(pilot, lambda: app.quiet and app.focused is None, what="Quiet Mode")
        landed = focus_history(app).given
        pane(app).query_one("#tutor-session-list").focus()  # a stale request from the tutor
        await wait_for(pilot, lambda: bool(landed) and app.focused is None, what="the stale focus handed back")
        await pilot.press("x")
        assert composer_input.text == ""
        await wait_for(pilot, lambda: "typing goes nowhere in Quiet Mode" in screen_text(app), what="the reason on screen")
