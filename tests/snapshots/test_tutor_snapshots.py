"""The look of the tutor: the composer in both modes, the plan map, a session awaiting its verdict."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer

from keeltui.brain import Brain
from keeltui.config import Config
from keeltui.panes.common.composer import Composer
from keeltui.panes.tutor.plan_map import PlanMap
from keeltui.services.tutor_job_runner import TutorJobs
from keeltui.services.tutor_turns import TutorTurns
from keeltui.store import Store
from keeltui.tutor import transcript as tx
from keeltui.tutor.phases import latest_plan
from keeltui.tutor.mastery import map_statuses
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
        # basics right (mastered), per_meal wrong (to review), then leucine: current;
        # timing is not yet shown.
        script = Script().taught()
        script.plan_init(PLAN)
        script.quiz("basics")
        wrong = script.call("quiz", {"question": "Q?", "choices": ["x", "y"], "correct": 0, "node_id": "per_meal"})
        script.user("", tx.quiz_answer(wrong, 1, False))
        script.quiz("leucine", answer=False)
        plan = latest_plan(script.messages)
        self.query_one(PlanMap).show_plan(plan, map_statuses(plan, script.messages, 0.0))


def test_plan_map_current_mastered_review_pending(snap_compare):
    assert snap_compare(PlanMapApp(), terminal_size=(40, 10))


def big_plan(count: int = 30) -> str:
    lines = ["graph TD"]
    lines += [f"  n{i}[Step {i} of the long plan] --> n{i + 1}[Step {i + 1} of the long plan]" for i in range(count - 1)]
    lines += ["  n0 --> n5", "  n2 --> n9 & n12", "  n7 --> n20", "  n15 --> n25"]
    return "\n".join(lines)


class BigPlanMapApp(App):
    CSS = "Screen { background: #101418; }"

    def compose(self) -> ComposeResult:
        yield PlanMap()

    def on_mount(self) -> None:
        script = Script().taught()
        script.plan_init(big_plan())
        for node in range(23):
            script.quiz(f"n{node}", answer=node < 22)
        plan = latest_plan(script.messages)
        self.query_one(PlanMap).show_plan(plan, map_statuses(plan, script.messages, 0.0))


def test_a_30_node_map_scrolls_to_the_current_node(snap_compare):
    assert snap_compare(BigPlanMapApp(), terminal_size=(40, 16))


class SessionApp(App):
    """The pane over a stored session whose plan waits for the verdict (no brain call)."""

    CSS = "Screen { background: #101418; }"

    def __init__(self, db: Path) -> None:
        super().__init__()
        self.config = Config()
        self.config.brain.base_url = "http://127.0.0.1:9/v1"  # never called: nothing is owed
        self.store = Store(db)
        brain = Brain(self.config.brain)
        self.turns = turns = TutorTurns(self.store, brain, self.config)
        self.jobs = TutorJobs(self.store, brain, self.config)
        self.session_id = turns.start_session("muscle protein")
        for message in self._script():
            turns.add_learner(self.session_id, message)

    @staticmethod
    def _script() -> list[tx.Message]:
        return verdict_session()

    def compose(self) -> ComposeResult:
        yield TutorPane(app_config=self.config, turns=self.turns, jobs=self.jobs, records=self.turns.records)
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
