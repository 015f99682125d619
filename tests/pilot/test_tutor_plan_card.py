"""The plan card draws the plan as the teacher wrote it (bare ids, shapes, edge labels),
and a declined plan's successor says what changed."""

from __future__ import annotations

from keeltui.panes.tutor.plan_map import PlanCard
from tests.pilot.test_tutor_pane import SIZE, Scripted, idle, new_session, tool
from tests.support.pilot import screen_text, wait_for

CONCLUDE = tool("probe_done", strands=["knows protein"], edge="timing")
PLAN_V1 = """graph TD
  n11 --> n12
  n12 --> enough{Enough protein?}
  enough -- no --> eat([Eat more])
  enough -->|yes| rest((Rest))
"""
PLAN_V2 = """graph TD
  enough{Enough protein?} --> n11
  n11 --> n12
  enough -->|no| eat([Eat more])
  eat --> timing[Timing]
"""


def _words(app) -> str:
    """The screen's words: the card wraps inside its border, so lines are joined."""
    return " ".join(screen_text(app).replace("│", " ").split())


async def test_the_card_draws_bare_ids_shapes_and_labels_and_a_revision_says_what_changed(make_app, loopback):
    Scripted(loopback, [CONCLUDE, tool("plan_init", mermaid=PLAN_V1), tool("plan_init", mermaid=PLAN_V2)])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "protein")
        await wait_for(pilot, lambda: "Plan v1" in screen_text(app) and idle(app), what="the first plan")
        assert app.query_one(PlanCard).item.labels  # drawn from the kept labels, not re-parsed
        text = _words(app)
        for drawn in ("n11", "n12", "{Enough protein?}  · no → Eat more  · yes → Rest", "([Eat more])", "((Rest))"):
            assert drawn in screen_text(app), drawn
        assert "Changed since" not in text
        await pilot.press("ctrl+r")  # decline: the teacher revises
        await wait_for(pilot, lambda: "Plan v2" in screen_text(app) and idle(app), what="the revision")
        text = _words(app)
        assert "Changed since v1: Added: Timing; Removed: Rest; Reordered: Enough protein? (3 → 1)" in text
