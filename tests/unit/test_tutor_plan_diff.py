"""What a plan's new version changed, by step id."""

from __future__ import annotations

from keeltui.tutor.mermaid import parse_plan
from keeltui.tutor.plan_diff import plan_changes

BEFORE = parse_plan("a[Basics] --> b[Leucine] --> c[Per meal] --> d[Timing]")


def test_the_same_plan_changed_nothing() -> None:
    assert plan_changes(BEFORE, parse_plan("a[Basics] --> b[Leucine]\nb --> c[Per meal] --> d[Timing]")) == ()


def test_added_removed_and_one_step_moved_to_the_front() -> None:
    after = parse_plan("c[Per meal] --> a[Basics] --> b[Leucine]\nb --> e[Sleep]")
    assert plan_changes(BEFORE, after) == ("Added: Sleep", "Removed: Timing", "Reordered: Per meal (3 → 1)")


def test_titles_come_from_the_new_plan_for_moves_and_the_old_for_removals() -> None:
    after = parse_plan("b[Leucine] --> a[Basics again]")
    assert plan_changes(BEFORE, after) == ("Removed: Per meal, Timing", "Reordered: Basics again (1 → 2)")
