""""That was work" from the banner, and F6 on an active snooze, in the running app
(command evidence, the real brain client against the loopback server, a real store)."""

from __future__ import annotations

from keeltui.services import ambient_state
from keeltui.ambient.corrections import HEADING
from keeltui.ambient.judges import AMBIENT_SYSTEM
from keeltui.ambient.timeline import CORRECTION_KIND
from keeltui.panes.ambient.lift_snooze import LiftSnooze
from tests.pilot.test_ambient_app import (  # noqa: F401 - fixtures, used by name
    SIZE, ambient_app, drift, script, status_text, toasts, verdict, window,
)
from tests.support.pilot import screen_text, wait_for


def ambient_requests(loopback) -> list[str]:
    return [r["messages"][1]["content"] for r in list(loopback.requests)
            if r.get("messages", [{}])[0].get("content") == AMBIENT_SYSTEM]


async def test_f10_says_the_drift_on_screen_was_work_and_the_judge_is_told(ambient_app, script, window, loopback):
    app = ambient_app()
    async with app.run_test(size=SIZE) as pilot:
        await drift(pilot, app, script, window)
        await wait_for(pilot, lambda: "F10 that was work" in screen_text(app), what="the banner's button")
        assert not any(HEADING in text for text in ambient_requests(loopback))
        script.ambient = verdict()  # what a judge told the example would answer
        asked = len(ambient_requests(loopback))
        await pilot.press("f10")
        await wait_for(pilot, lambda: not app.banner.has_class("-shown"), what="the banner cleared")
        corrections = app.store.events(CORRECTION_KIND)
        assert len(corrections) == 1 and corrections[0]["data"]["titles"] == ["YouTube - cat videos"]
        await wait_for(pilot, lambda: len(ambient_requests(loopback)) > asked, what="the next judgement")
        latest = ambient_requests(loopback)[-1]
        assert HEADING in latest and '["YouTube - cat videos"]' in latest
        await pilot.press("f3")
        await wait_for(pilot, lambda: "1 judgement corrected (that was work)" in screen_text(app), what="counted")
        assert "YouTube - cat videos — that was work" in screen_text(app)


async def test_f6_on_an_active_snooze_offers_to_lift_it(ambient_app, script, window, tmp_path):
    app = ambient_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted)
        await pilot.press("f6")
        await wait_for(pilot, lambda: status_text(app).startswith("◌ snoozed until"), what="snoozed")
        until = app.store.get_state(ambient_state.SNOOZE_KEY)
        await pilot.press("f6")
        await wait_for(pilot, lambda: isinstance(app.screen, LiftSnooze) and "Lift the snooze now?" in screen_text(app),
                       what="the offer to lift it")
        await pilot.press("n")  # keep it: nothing changes, the snooze is not extended
        await wait_for(pilot, lambda: not isinstance(app.screen, LiftSnooze))
        assert app.store.get_state(ambient_state.SNOOZE_KEY) == until
        await pilot.press("f6")
        await wait_for(pilot, lambda: isinstance(app.screen, LiftSnooze))
        await pilot.press("y")
        await wait_for(pilot, lambda: not status_text(app).startswith("◌ snoozed"), what="the snooze lifted")
        assert app.store.get_state(ambient_state.SNOOZE_KEY) is None
        assert not app.services.ambient.sentinel.snoozed
