"""Coming back to the tutor: the tab reopens the last session, its header shows progress,
the list keeps the cursor on its row when it re-sorts, and a job finishing in a session
not on screen says so in one quiet line."""

from __future__ import annotations

import threading

from textual.widgets import OptionList

from keeltui.store import Store
from tests.pilot.test_tutor_live import _job_script, _open_first_session, _teaching_session, type_into
from tests.pilot.test_tutor_records import PROTEIN, pane
from tests.pilot.test_tutor_pane import SIZE, idle, open_tutor
from tests.support.pilot import screen_text, wait_for
from tests.support.tutor_seed import seed_session


def _header(app) -> str:
    return str(app.query_one("#tutor-header").render())


async def test_the_tab_reopens_the_last_session_with_its_progress_in_the_header(make_app, loopback):
    app = make_app()
    protein = seed_session(app.store, "muscle protein", PROTEIN, [("basics", True), ("leucine", False)],
                           waiting="per_meal")
    seed_session(app.store, "knots", PROTEIN, [])  # newer: first in the list
    async with app.run_test(size=SIZE) as pilot:
        await open_tutor(pilot)
        await pilot.press("down", "down", "enter")  # the older session, second in the list
        await wait_for(pilot, lambda: pane(app).in_session and pane(app).session_id == protein)
        assert "muscle protein  ·  learning  ·  1/4 mastered · 1 to review" in screen_text(app)
    app = make_app()  # a restart
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+t")
        # The list's row shows the same progress: wait for the session's own header (under
        # load the list can be on screen a moment before the session reopens).
        await wait_for(pilot, lambda: "muscle protein  ·  learning  ·  1/4 mastered · 1 to review" in screen_text(app),
                       what="the session reopened")
        assert pane(app).session_id == protein and "New session" not in screen_text(app)
        await pilot.press("ctrl+l")  # back to the list: the next start shows the list
        await wait_for(pilot, lambda: "New session" in screen_text(app))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_tutor(pilot)
        assert not pane(app).in_session
    assert loopback.requests == []  # reopening never calls the model


async def test_the_list_keeps_the_cursor_on_its_row_when_it_re_sorts(make_app, loopback, tmp_path):
    app = make_app()
    older = seed_session(app.store, "muscle protein", PROTEIN, [])
    seed_session(app.store, "knots", PROTEIN, [])
    async with app.run_test(size=SIZE) as pilot:
        await open_tutor(pilot)
        listing = app.query_one("#tutor-session-list", OptionList)
        await pilot.press("down", "down")
        await wait_for(pilot, lambda: listing.highlighted_option.id == f"session-{older}")
        # Another process writes to the older session: it moves to the top of the list.
        other = Store(tmp_path / "k.db")
        try:
            other.add_message(older, "user", "a note from elsewhere")
        finally:
            other.close()
        await wait_for(pilot, lambda: listing.get_option_at_index(1).id == f"session-{older}", what="the re-sort")
        await pilot.pause(0.2)
        assert listing.highlighted_option.id == f"session-{older}" and listing.highlighted == 1


async def test_a_job_finishing_in_a_session_not_on_screen_gives_one_quiet_line(make_app, loopback):
    gate = threading.Event()
    _job_script(loopback, gate)
    app = make_app(timeout=60)  # the gated job call must not time out under load
    _teaching_session(app)
    async with app.run_test(size=SIZE) as pilot:
        await _open_first_session(pilot)
        await type_into(pilot, "how much leucine?")
        await wait_for(pilot, lambda: "Meanwhile, on to basics." in screen_text(app) and idle(app))
        await pilot.press("ctrl+l")  # the learner is on the list when the job lands
        await wait_for(pilot, lambda: "● protein" in screen_text(app), what="the job still running")
        gate.set()
        def lines() -> list[str]:
            return [n.message for n in app._notifications if "job" in n.message]

        await wait_for(pilot, lambda: bool(lines()), what="the quiet line")
        assert lines() == ["Research job finished in “protein”."]
