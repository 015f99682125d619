"""Keys typed right behind Enter on the session list land where Enter sent the keyboard.

Seen: Enter on "+ New session" and the topic typed at once (one read over SSH, or a fast
typist) — the first letters went to the list, not the topic field, because the field took
the focus a message after the keys behind Enter had already been handed to the list. The
same for Enter on a session: the first words of a note went nowhere."""

from __future__ import annotations

from textual.widgets import Input

from tests.pilot.test_tutor_pane import SIZE, open_tutor
from tests.pilot.test_tutor_records import PROTEIN, pane
from tests.support.pilot import burst, wait_for
from tests.support.tutor_seed import seed_session


async def test_a_topic_typed_in_the_same_burst_as_enter_on_new_session_is_all_in_the_field(make_app, loopback):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_tutor(pilot)
        burst(app, "enter", *"Graphs")
        topic = app.query_one("#tutor-topic", Input)
        await wait_for(pilot, lambda: topic.value == "Graphs", what="the whole topic in the field")
        assert app.focused is topic
    assert loopback.requests == []  # nothing started before Enter on the topic


async def test_a_note_typed_in_the_same_burst_as_enter_on_a_session_is_all_in_the_composer(make_app, loopback):
    app = make_app()
    seed_session(app.store, "muscle protein", PROTEIN, [("basics", True)])
    async with app.run_test(size=SIZE) as pilot:
        await open_tutor(pilot)
        await pilot.press("down")  # from "+ New session" to the session
        burst(app, "enter", *"why so")
        await wait_for(pilot, lambda: pane(app).in_session and pane(app).composer.input.text == "why so",
                       what="the whole note in the composer")


async def test_down_and_enter_in_one_burst_open_the_session_below_new_session(make_app, loopback):
    # The list's moves and its Enter are taken in the order they came: an Enter acted on
    # before the Down ahead of it had moved the highlight opened "+ New session" instead.
    app = make_app()
    session = seed_session(app.store, "muscle protein", PROTEIN, [("basics", True)])
    async with app.run_test(size=SIZE) as pilot:
        await open_tutor(pilot)
        burst(app, "down", "enter", *"why so")
        await wait_for(pilot, lambda: pane(app).in_session and pane(app).composer.input.text == "why so",
                       what="the session opened and the note in its composer")
        assert pane(app).session_id == session


async def test_ctrl_l_on_the_list_then_down_enter_and_a_note_in_one_burst(make_app, loopback):
    app = make_app()
    session = seed_session(app.store, "muscle protein", PROTEIN, [("basics", True)])
    async with app.run_test(size=SIZE) as pilot:
        await open_tutor(pilot)
        burst(app, "ctrl+l", "down", "enter", *"why so")
        await wait_for(pilot, lambda: pane(app).in_session and pane(app).composer.input.text == "why so",
                       what="the session opened and the note in its composer")
        assert pane(app).session_id == session
