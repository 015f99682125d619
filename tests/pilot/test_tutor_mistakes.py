"""Mistakes remembered: wrong, "I don't know" and skipped quizzes are listed in F4 with the
right answer, and a step answered wrong then right stays in review until a later day.

The clock is injected: the store stamps the answers with it and the tutor reads "now"
from it, so the test steps a day ahead without waiting one.
"""

from __future__ import annotations

from keeltui.app import KeelApp
from keeltui.config import load_config
from keeltui.panes.tutor.quiz import QuizCard
from keeltui.panes.tutor.session_list import SummaryScreen
from keeltui.store import Store
from keeltui.tutor.mastery import DAY
from keeltui.wiring import wire
from keeltui_dev.loopback import Reply
from tests.conftest import write_config
from tests.pilot.test_tutor_live import _open_first_session, _teaching_session, type_into
from tests.pilot.test_tutor_pane import SIZE, Scripted, idle, map_lines, pane, quiz
from tests.support.pilot import screen_text, wait_for

DAY_ONE = 1_800_000_000.0  # a fixed instant; the test moves it


class Clock:
    def __init__(self) -> None:
        self.now = DAY_ONE

    def __call__(self) -> float:
        self.now += 1.0  # every stamp a second later: answers keep their order
        return self.now


def _app(tmp_path, loopback, clock: Clock, stores: list[Store]) -> KeelApp:
    path = write_config(tmp_path / "config.toml", loopback.url,
                        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    config = load_config(path, env={})
    store = Store(config.database_path(), clock=clock)
    stores.append(store)
    return KeelApp(config, store, services=wire(config, store, clock=clock))


async def _answer(pilot, key: str) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: idle(app) and app.focused is not None and isinstance(app.focused, QuizCard),
                   what="the quiz taking the keys")
    await pilot.press(key)


async def _summary(pilot) -> str:
    app = pilot.app
    await pilot.press("f4")
    await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), what="the summary")
    await pilot.pause()
    text = screen_text(app)
    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(app.screen, SummaryScreen), what="the summary closed")
    return text


async def test_a_learner_path_with_mistakes_lists_them_and_brings_them_back_the_next_day(tmp_path, loopback):
    Scripted(loopback, [
        quiz("Where is the leucine threshold?", "leucine", correct=1),  # answered 1: wrong
        quiz("How much per meal?", "per_meal", correct=2),  # answered 0: I don't know
        quiz("When around training?", "timing", correct=0),  # passed over: skipped
        quiz("Why does protein matter?", "basics", correct=0),  # answered 1: right
        quiz("The leucine threshold again?", "leucine", correct=1),  # answered 2: right, same day
        Reply(text="Good work today."),
        # The next day:
        quiz("Leucine, once more?", "leucine", correct=1),  # answered 2: right, a later day
        Reply(text="That one is settled."),
    ])
    clock = Clock()
    stores: list[Store] = []
    app = _app(tmp_path, loopback, clock, stores)
    _teaching_session(app)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await _open_first_session(pilot)
            await type_into(pilot, "go on")
            await _answer(pilot, "1")
            await wait_for(pilot, lambda: "0. I don't know" in screen_text(app) and "How much per meal?" in screen_text(app),
                           what="every quiz offers I don't know")
            await _answer(pilot, "0")
            await wait_for(pilot, lambda: "When around training?" in screen_text(app) and idle(app))
            await type_into(pilot, "skip this one please")  # a side line: the teacher moves on
            await _answer(pilot, "1")
            await _answer(pilot, "2")
            await wait_for(pilot, lambda: "Good work today." in screen_text(app) and idle(app), what="the day's end")
            # Right again at once: the leucine step is still to review (▶ kept on the current step).
            assert "▶ Leucine threshold ↻" in map_lines(app)
            text = await _summary(pilot)
            assert "Mistakes: 3" in text
            assert "✗ Where is the leucine threshold? [Leucine threshold]" in text
            assert "you chose “First” · right: Second" in text
            assert "? How much per meal? [Protein per meal]" in text and "you did not know · right: Third" in text
            assert "↷ When around training? [Timing around training]" in text and "skipped · right: First" in text
            assert "↻ Leucine threshold" in text and "↻ Protein per meal" in text  # to review

            clock.now += DAY  # the next day
            await pilot.press("ctrl+l")
            await wait_for(pilot, lambda: "Review due today" in screen_text(app), what="the review line")
            # The mistakes come back, and so does the step answered right once a day ago (spaced review).
            assert ("Review due today (3 steps) — protein: Why protein matters, Leucine threshold, Protein per meal"
                    in screen_text(app))
            await pilot.press("enter")
            await wait_for(pilot, lambda: pane(app).in_session, what="the session again")
            await type_into(pilot, "again")
            await _answer(pilot, "2")
            await wait_for(pilot, lambda: "That one is settled." in screen_text(app) and idle(app))
            assert "▶ Leucine threshold" in map_lines(app)  # right on a later day: out of review
            text = await _summary(pilot)
            assert "To review: 2" in text and "✓ Leucine threshold" in text and "↻ Protein per meal" in text
            assert "Mistakes: 3" in text  # the record stays: what went wrong is kept
    finally:
        for store in stores:
            store.close()
