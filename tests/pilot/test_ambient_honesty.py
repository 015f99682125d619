"""The sentinel says what it can and cannot see, in the running app: no evidence source,
a judge model that answers garbage, and a long drift line at 120 columns."""

from __future__ import annotations

import time

from keeltui.status.file import read_status
from keeltui.panes.common.events import AmbientChanged
from tests.conftest import app_for
from tests.pilot.test_ambient_app import (  # noqa: F401 - fixtures, used by name
    JUDGE_MODEL, SIZE, ambient_app, script, status_text, toasts, verdict, window,
)
from tests.support.pilot import screen_text, wait_for
from tests.support.tmux import run_keeltui


async def test_no_evidence_source_at_all_says_so_not_idle(tmp_path, loopback, monkeypatch):
    # Plain SSH: no DISPLAY, no tmux, no command; the source is "auto".
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX", "TMUX_PANE"):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "config.toml"
    path.write_text(
        f'[brain]\nbase_url = "{loopback.url}"\nmodel = "loop-model"\n'
        f'[ambient]\nmode = "notify"\n[evidence]\nsource = "auto"\n'
        f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n', encoding="utf-8")
    stores: list = []
    app = app_for(path, stores)
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_for(pilot, lambda: "ambient: no evidence — see keeltui doctor" in status_text(app),
                           what="the status line to say there is no evidence")
            assert "idle" not in status_text(app) and "judge:" not in status_text(app)
            assert read_status(tmp_path / "status") == "ambient: no evidence — see keeltui doctor"
    finally:
        for store in stores:
            store.close()


async def test_a_judge_answering_garbage_is_named_and_does_not_flap(ambient_app, script, window, loopback):
    script.ambient = "Sure! You look busy. Keep going."  # no JSON object at all
    app = ambient_app()
    async with app.run_test(size=SIZE) as pilot:
        window.show("YouTube - cat videos")
        label = f"judge: bad answers (model {JUDGE_MODEL})"
        await wait_for(pilot, lambda: label in status_text(app), what="the bad-answers label")
        seen = set()
        deadline = time.monotonic() + 3  # several cadence ticks (1 s) and two endpoint checks
        checks = 0
        while time.monotonic() < deadline:
            if checks < 2 and time.monotonic() > deadline - 2 + checks:
                app._check_brain()  # the endpoint answers /models fine
                checks += 1
            seen.add(status_text(app))
            await pilot.pause(0.05)
        assert all(label in text for text in seen), seen
        assert not any("unreachable" in text for text in seen)
        assert app.brain_online is not False  # the chat's brain is fine: only the judge model is bad
        # The brain answers well again: the label goes back at the next judgement.
        script.ambient = '{"drifting": false, "message": ""}'
        await wait_for(pilot, lambda: "judge: brain" in status_text(app), what="the label back to brain")


async def test_at_120_columns_a_long_drift_gives_way_to_the_judge_label(ambient_app, script, window):
    app = ambient_app(mode="status")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted and app.judge_name == "brain",
                       what="the controller's first state")
        drift = "You have been reading about sourdough starters " * 4
        app.post_message(AmbientChanged(drift.strip(), "", "local · brain unreachable", mode="status"))
        await wait_for(pilot, lambda: "sourdough" in screen_text(app), what="the drift line")
        bottom = screen_text(app).splitlines()[app.status_line.region.y]  # the status line's row, as drawn
        assert bottom.rstrip().endswith("judge: local · brain unreachable"), bottom
        assert "…" in bottom and bottom.startswith(" ⚠ You have been reading about sourdough")


async def test_drift_in_focus_gets_the_banner_one_toast_and_a_record(ambient_app, script, window, toasts, tmp_path):
    app = ambient_app()
    async with app.run_test(size=SIZE) as pilot:
        # The judge's answer is set first: the coach may judge (once per debounce) as soon as focus starts.
        script.focus = verdict("Cat videos are not the grant report.")
        window.show("YouTube - cat videos")
        await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted)
        await wait_for(pilot, lambda: "YouTube - cat videos" in app.services.ambient.sentinel.ring, what="the window")
        assert run_keeltui(tmp_path / "config.toml", "focus", "start", "write the grant report").returncode == 0
        await wait_for(pilot, lambda: app.focus_text.startswith("◎ Focus: write the grant report"), what="focus")
        line = 'Cat videos are not the grant report. — back to "write the grant report"'
        await wait_for(pilot, lambda: app.banner.has_class("-shown") and app.banner.line == line, what="the banner")
        await wait_for(pilot, lambda: "Cat videos are not the grant report." in screen_text(app), what="it drawn")
        await wait_for(pilot, lambda: toasts.sent, what="the toast")
        window.show("Twitch - more cats")  # the same episode goes on
        await wait_for(pilot, lambda: "Twitch - more cats" in (app.services.ambient.coach.episode or {}).get("titles", []),
                       what="the episode to note the next window")
        assert toasts.sent == [("keeltui", line)]  # one per episode
        assert app.store.events("ambient_episode") == []  # stored when it ends
        window.show("grant report.odt - LibreOffice", "libreoffice")
        await wait_for(pilot, lambda: not app.banner.has_class("-shown"), what="back on task clears the banner")
        await wait_for(pilot, lambda: app.store.events("ambient_episode"), what="the episode record")
        episode = app.store.events("ambient_episode")[0]["data"]
        assert episode["focus"] == "write the grant report" and "YouTube - cat videos" in episode["titles"]
        assert toasts.sent == [("keeltui", line)]
