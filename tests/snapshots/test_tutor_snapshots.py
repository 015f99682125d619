"""The look of the tutor: the composer in both modes, the plan map, a session awaiting its verdict."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer

from keeltui.brain import Brain
from keeltui.config import Config
from keeltui.panes.composer import Composer
from keeltui.panes.plan_map import PlanMap
from keeltui.services.tutor_turns import TutorTurns
from keeltui.store import Store
from keeltui.tutor import transcript as tx
from keeltui.tutor.phases import latest_plan
from keeltui.tutor.plan_status import plan_statuses
from keeltui.tutor_view import TutorPane
from keeltui_dev.tutor_demo import PLAN, verdict_session
from tests.unit.tutor_script import Script



class ComposerApp(App):
    CSS = "Screen { background: #101418; }"

    def __init__(self, verdict: bool, note: str = "") -> None:
        super().__init__()
        self.verdict = verdict
        self.note = note

    def compose(self) -> ComposeResult:
        # The composer docks to the bottom of its container, as in the pane.
        with Vertical():
            yield Composer("Answer, ask, or note…", id="tutor-composer")
        yield Footer()

    def on_mount(self) -> None:
        composer = self.query_one(Composer)
        composer.verdict_mode = self.verdict
        composer.focus_input()
        if self.note:
            composer.input.insert(self.note)


def test_composer_normal_mode(snap_compare):
    assert snap_compare(ComposerApp(verdict=False), terminal_size=(80, 8))


def test_composer_verdict_mode_with_a_note(snap_compare):
    assert snap_compare(ComposerApp(verdict=True, note="Drop timing, please."), terminal_size=(80, 10))


class PlanMapApp(App):
    CSS = "Screen { background: #101418; }"

    def compose(self) -> ComposeResult:
        yield PlanMap()

    def on_mount(self) -> None:
        # basics, leucine, per_meal, then back to leucine: a revisit shows as current,
        # the others quizzed are visited, timing is pending.
        script = Script().taught()
        script.plan_init(PLAN)
        for node in ("basics", "leucine", "per_meal", "leucine"):
            script.quiz(node)
        plan = latest_plan(script.messages)
        self.query_one(PlanMap).show_plan(plan, plan_statuses(plan, script.messages))


def test_plan_map_current_visited_pending(snap_compare):
    assert snap_compare(PlanMapApp(), terminal_size=(40, 8))


class SessionApp(App):
    """The pane over a stored session whose plan waits for the verdict (no brain call)."""

    CSS = "Screen { background: #101418; }"

    def __init__(self, db: Path) -> None:
        super().__init__()
        self.config = Config()
        self.config.brain.base_url = "http://127.0.0.1:9/v1"  # never called: nothing is owed
        self.store = Store(db)
        self.turns = turns = TutorTurns(self.store, Brain(self.config.brain), self.config)
        self.session_id = turns.start_session("muscle protein")
        for message in self._script():
            turns.add_learner(self.session_id, message)

    @staticmethod
    def _script() -> list[tx.Message]:
        return verdict_session()

    def compose(self) -> ComposeResult:
        yield TutorPane(app_config=self.config, turns=self.turns)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(TutorPane).open_session(self.session_id)

    def on_unmount(self) -> None:
        self.store.close()


def test_a_session_awaiting_the_verdict(snap_compare, tmp_path):
    async def settle(pilot):
        await pilot.pause()
        pilot.app.query_one(TutorPane).composer.focus_input()
        await pilot.pause()

    assert snap_compare(SessionApp(tmp_path / "k.db"), terminal_size=(110, 48), run_before=settle)
