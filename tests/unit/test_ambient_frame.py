"""The frame: pure assembly, clipping, and the forgiving loader."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from keeltui.ambient.frame import CLIP_MARKER, EMPTY_FRAME, assemble_frame, load_frame
from keeltui.adapters.tasks import MarkdownChecklist


def test_all_sections_in_order():
    brief = assemble_frame(["write report", "call mum"], "Ship keeltui.", [("health", "Run thrice a week."), ("family", "Sunday calls.")])
    assert brief.index("## Today's tasks") < brief.index("## Goals") < brief.index("## Life domains")
    assert "- write report\n- call mum" in brief
    assert "Ship keeltui." in brief
    assert "### health\n\nRun thrice a week." in brief and "### family" in brief


def test_missing_parts_degrade_to_a_shorter_brief():
    full = assemble_frame(["a task"], "goals", [("d", "text")])
    no_goals = assemble_frame(["a task"], None, [("d", "text")])
    assert "## Goals" not in no_goals and len(no_goals) < len(full)
    only_tasks = assemble_frame(["a task"], "   ", [("empty", "  ")])
    assert only_tasks == "## Today's tasks\n\n- a task"
    assert assemble_frame([], None, []) == EMPTY_FRAME
    assert assemble_frame(["", "  "], "", []) == EMPTY_FRAME


def test_clipped_to_max_chars_with_a_marker():
    brief = assemble_frame([f"task number {i}" for i in range(1000)], "g" * 5000, [], max_chars=6000)
    assert len(brief) <= 6000
    assert brief.endswith(CLIP_MARKER)
    assert brief.startswith("## Today's tasks")


def test_clip_never_splits_a_combining_sequence():
    # "e" + combining acute, repeated: a cut must not leave a bare accent or base.
    goals = "e\u0301" * 100
    for limit in range(len(CLIP_MARKER) + 2, 80):
        brief = assemble_frame([], goals, [], max_chars=limit)
        body = brief[: -len(CLIP_MARKER)]
        assert len(brief) <= limit
        # Every "e" in the goals carries an accent: a body ending in a bare "e"
        # would mean the cut fell between a base and its combining mark.
        assert not body.endswith("e")


def test_tiny_and_non_positive_limits():
    assert assemble_frame(["x" * 50], None, [], max_chars=0) == ""
    assert len(assemble_frame(["x" * 50], None, [], max_chars=5)) <= 5


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(), max_size=20),
    st.one_of(st.none(), st.text()),
    st.lists(st.tuples(st.text(max_size=20), st.text()), max_size=5),
    st.integers(min_value=-5, max_value=400),
)
def test_assemble_is_total_and_bounded(tasks, goals, domains, limit):
    brief = assemble_frame(tasks, goals, domains, max_chars=limit)
    assert isinstance(brief, str)
    assert len(brief) <= max(limit, 0)


def test_load_frame_reads_goals_and_domains(tmp_path):
    (tmp_path / "goals.md").write_text("Run a marathon.", encoding="utf-8")
    (tmp_path / "domains").mkdir()
    (tmp_path / "domains" / "health-and-body.md").write_text("Sleep by 23:00.", encoding="utf-8")
    (tmp_path / "domains" / "work.md").write_text("Ship keeltui.", encoding="utf-8")
    (tmp_path / "domains" / "notes.txt").write_text("not a domain", encoding="utf-8")
    (tmp_path / "today.md").write_text("- [ ] write the report\n- [x] done already\n", encoding="utf-8")
    brief = load_frame(tmp_path, "goals.md", MarkdownChecklist(tmp_path / "today.md"), 6000)
    assert "- write the report" in brief and "done already" not in brief
    assert "Run a marathon." in brief
    assert "### health and body\n\nSleep by 23:00." in brief
    assert "### work" in brief and "not a domain" not in brief


def test_load_frame_missing_everything_is_not_an_error(tmp_path):
    assert load_frame(tmp_path / "nope", "goals.md", None, 6000) == EMPTY_FRAME
    assert load_frame(None, "goals.md", None, 6000) == EMPTY_FRAME
    assert load_frame(tmp_path, "", None, 6000) == EMPTY_FRAME


def test_load_frame_survives_a_broken_provider_and_unreadable_files(tmp_path):
    class Broken:
        def today(self):
            raise RuntimeError("boom")

    (tmp_path / "goals.md").mkdir()  # a directory where a file should be
    assert load_frame(tmp_path, "goals.md", Broken(), 6000) == EMPTY_FRAME


def test_load_frame_absolute_goals_path(tmp_path):
    goals = tmp_path / "elsewhere.md"
    goals.write_text("Learn Welsh.", encoding="utf-8")
    assert "Learn Welsh." in load_frame(None, str(goals), None, 6000)


def test_load_frame_is_bounded(tmp_path):
    (tmp_path / "goals.md").write_text("g" * 100_000, encoding="utf-8")
    assert len(load_frame(tmp_path, "goals.md", None, 500)) <= 500
