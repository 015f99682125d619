"""A turn that fails says why on its card: the last refusal in full, the calls spent, F5."""

from __future__ import annotations

from keeltui.panes.tutor.cards import TurnErrorCard
from keeltui_dev.loopback import Reply
from tests.pilot.test_tutor_pane import SIZE, Scripted, idle, new_session, tool
from tests.support.pilot import screen_text, wait_for

BAD_PLAN = "graph TD\n  basics[Why protein matters] --> leucine[Leucine threshold]\n  MPS[Muscle protein] --> leucine\n"
CONCLUDE = tool("probe_done", strands=["knows protein"], edge="timing")


def _card_text(app) -> str:
    # The card wraps beside its bar: compare the words, not the lines.
    return " ".join(screen_text(app).replace("█", " ").split())


async def test_a_malformed_plan_run_shows_the_parsers_refusal_and_the_calls_spent(make_app, loopback):
    # The prober concludes; the teacher's wake sends the same malformed plan on every try.
    Scripted(loopback, [CONCLUDE, *(tool("plan_init", mermaid=BAD_PLAN) for _ in range(6)), Reply(text="Fixed.")])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "protein")
        await wait_for(pilot, lambda: "model calls spent" in _card_text(app) and idle(app), what="the failure card")
        text = _card_text(app)
        assert 'line 3: node id "MPS" is not a slug — use lowercase letters, digits, "-" or "_", e.g. "mps"' in text
        assert "6 model calls spent in this turn" in text
        assert "Retry (F5)" in text
        await pilot.press("f5")
        await wait_for(pilot, lambda: "Fixed." in screen_text(app) and idle(app), what="the retried turn")
        assert not app.query(TurnErrorCard)


async def test_bad_json_arguments_are_shown_as_sent(make_app, loopback):
    broken = '{"question": "Which?", "choices": ["a", "b"] "correct": 0}'
    Scripted(loopback, [Reply(tool_calls=[{"name": "quiz", "arguments": broken}]) for _ in range(6)])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await new_session(pilot, "knots")
        await wait_for(pilot, lambda: "model calls spent" in _card_text(app) and idle(app), what="the failure card")
        text = _card_text(app)
        assert "the arguments are not valid JSON (Expecting ',' delimiter at character 45)" in text
        assert broken in text
        assert "6 model calls spent in this turn" in text
