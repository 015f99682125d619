"""`keeltui tutor list|export|rename|delete` as a user runs them: real processes, a real SQLite file."""

from __future__ import annotations

import re

import pytest

from keeltui.store import Store
from tests.conftest import write_config
from tests.support.tmux import run_keeltui
from tests.support.tutor_seed import seed_session

PROTEIN = """graph TD
  basics[Why protein matters] --> leucine[Leucine threshold] & per_meal[Protein per meal]
  leucine --> timing[Timing around training]
  per_meal --> timing
"""


@pytest.fixture
def cfg(tmp_path, loopback):
    return write_config(tmp_path / "config.toml", loopback.url,
                        f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')


@pytest.fixture
def seeded(tmp_path):
    store = Store(tmp_path / "k.db")
    first = seed_session(store, "muscle protein", PROTEIN, [("basics", True), ("leucine", False)], waiting="per_meal")
    second = store.create_conversation("tutor", "secant lines")
    store.add_message(second, "user", "secant lines")
    store.close()
    return first, second


def test_list_shows_id_date_phase_progress_and_topic(cfg, seeded):
    first, second = seeded
    out = run_keeltui(cfg, "tutor", "list")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2
    assert re.fullmatch(rf"\s*{second}  \d{{4}}-\d\d-\d\d \d\d:\d\d  first questions  —\s+secant lines", lines[0])
    assert re.fullmatch(
        rf"\s*{first}  \d{{4}}-\d\d-\d\d \d\d:\d\d  learning {{9}}1/4 mastered · 1 to review\s+muscle protein", lines[1])


def test_list_with_no_sessions_says_so(cfg):
    out = run_keeltui(cfg, "tutor", "list")
    assert out.returncode == 0 and out.stdout.startswith("no tutor sessions yet")


def test_export_writes_topic_plan_quiz_record_and_mastery(cfg, seeded, tmp_path):
    first, _ = seeded
    out = run_keeltui(cfg, "tutor", "export", str(first))
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.startswith("# Tutor session: muscle protein\n")
    assert "- Phase: learning" in text and "- Progress: 1/4 mastered · 1 to review" in text
    plan = text.split("## Plan")[1].split("## Quiz record")[0]
    assert "1. Why protein matters (`basics`) — mastered" in plan
    assert "2. Leucine threshold (`leucine`) — to review" in plan
    assert "3. Protein per meal (`per_meal`) — current step" in plan
    assert "4. Timing around training (`timing`) — not yet" in plan
    assert "```mermaid\ngraph TD" in plan
    record = text.split("## Quiz record")[1].split("## Mastery")[0]
    assert re.search(r"\| [\d-]+ [\d:]+ \| Why protein matters \| A question on basics\? \| Right \| right \|", record)
    assert re.search(r"\| Leucine threshold \| A question on leucine\? \| Wrong \(right: Right\) \| wrong \|", record)
    mastery = text.split("## Mastery")[1]
    assert "To review: 1" in mastery and "- ↻ Leucine threshold" in mastery
    assert "Mastered: 1 of 4 steps" in mastery and "- ✓ Why protein matters" in mastery
    # by topic, and to a file
    target = tmp_path / "out.md"
    out = run_keeltui(cfg, "tutor", "export", "Muscle Protein", "--out", str(target))
    assert out.returncode == 0 and target.read_text(encoding="utf-8") == text
    assert target.stat().st_mode & 0o777 == 0o600  # a learner's record is private


def test_export_of_an_unknown_session_is_one_line_and_exit_1(cfg, seeded):
    out = run_keeltui(cfg, "tutor", "export", "999")
    assert out.returncode == 1
    assert out.stderr == "keeltui: tutor: no tutor session '999' — `keeltui tutor list` shows the ids\n"
    out = run_keeltui(cfg, "tutor", "export", "1", "--out", "/nonexistent/dir/x.md")
    assert out.returncode == 1 and "cannot write /nonexistent/dir/x.md" in out.stderr
    assert "Traceback" not in out.stderr


def test_rename_and_delete_which_asks_for_yes(cfg, seeded, tmp_path):
    first, second = seeded
    assert run_keeltui(cfg, "tutor", "rename", str(second), "limits", "and", "slopes").returncode == 0
    refused = run_keeltui(cfg, "tutor", "delete", str(second))
    assert refused.returncode == 2 and "add --yes to confirm" in refused.stderr
    store = Store(tmp_path / "k.db")
    assert store.conversation(second).title == "limits and slopes"
    store.close()
    assert run_keeltui(cfg, "tutor", "delete", "limits and slopes", "--yes").returncode == 0
    out = run_keeltui(cfg, "tutor", "list")
    assert "limits" not in out.stdout and "muscle protein" in out.stdout
    store = Store(tmp_path / "k.db")
    assert store.conversation(second) is None and store.messages(second) == []
    assert store.conversation(first) is not None
    assert not store.delete_conversation(store.chief_id())  # the room is never a tutor session
    store.close()


def test_list_and_export_count_earlier_sessions_on_the_topic_like_the_map(cfg, tmp_path):
    # Two sessions on one topic: what the first established carries over to the second,
    # in the list and the export as on the plan map (one rule, mastery.map_statuses).
    store = Store(tmp_path / "k.db")
    seed_session(store, "muscle protein", PROTEIN, [("basics", True), ("per_meal", True)])
    second = seed_session(store, "Muscle protein", PROTEIN, [("leucine", True)], waiting="timing")
    store.close()
    out = run_keeltui(cfg, "tutor", "list")
    assert out.returncode == 0, out.stderr
    line = next(line for line in out.stdout.splitlines() if line.strip().startswith(str(second)))
    assert "3/4 mastered" in line, line
    out = run_keeltui(cfg, "tutor", "export", str(second))
    assert out.returncode == 0, out.stderr
    assert "- Progress: 3/4 mastered" in out.stdout
    plan = out.stdout.split("## Plan")[1].split("## Quiz record")[0]
    assert "1. Why protein matters (`basics`) — mastered" in plan  # the map's ✓, from the first session
    assert "Mastered: 3 of 4 steps" in out.stdout.split("## Mastery")[1]
