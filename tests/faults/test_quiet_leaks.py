"""Quiet Mode leaks nothing: one walk over every surface while reports keep landing."""

from __future__ import annotations

from keeltui.chief.quiet import QUIET_MODE_REFUSAL
from keeltui.status.file import read_status
from keeltui.store import Store
from tests.pilot.test_ambient_app import (  # noqa: F401  (fixtures)
    DRIFT, ambient_app, drift, script, status_text, toasts, verdict, window,
)
from tests.support.pilot import screen_text, wait_for
from tests.support.tmux import run_keeltui

DRIFT_WHILE_QUIET = "Forty minutes of YouTube; the grant report still waits."


async def test_quiet_mode_walks_every_surface(ambient_app, script, window, toasts, tmp_path):
    app = ambient_app()
    config = tmp_path / "config.toml"
    async with app.run_test(size=(120, 36)) as pilot:
        other = Store(tmp_path / "k.db")
        other.add_report("coop-notify:ci", "SECRET-A the build is red")
        await wait_for(pilot, lambda: "SECRET-A" in screen_text(app))
        await drift(pilot, app, script, window)
        await wait_for(pilot, lambda: app.banner.has_class("-shown"))

        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: QUIET_MODE_REFUSAL in screen_text(app), what="the curtain")
        toasts.sent.clear()

        # Reports keep landing, as the owner, from another process.
        landed = run_keeltui(config, "report", "--source", "followup:x", "SECRET-B call the clinic")
        assert landed.returncode == 0
        # The sentinel keeps judging: a sustained drift while quiet, in new words.
        script.ambient = verdict(DRIFT_WHILE_QUIET)
        for _ in range(3):
            await app.services.ambient.sentinel.evaluate()
        # Both had their chance to show: the new line reached the app (which updated the
        # status line, the banner and the status file with it) and the report reached
        # the hidden room.
        await wait_for(pilot, lambda: app.ambient_line == DRIFT_WHILE_QUIET, what="the new drift line in the app")
        report = next(r for r in other.messages(other.chief_id()) if "SECRET-B" in r.content)
        await wait_for(pilot, lambda: app.room.shows(report.id), what="the report in the hidden room")
        await pilot.pause()

        # The screen: the curtain only — no room row, no drift text, no banner.
        text = screen_text(app)
        for secret in ("SECRET-A", "SECRET-B", DRIFT, DRIFT_WHILE_QUIET, "YouTube"):
            assert secret not in text, secret
        assert not app.banner.has_class("-shown")
        assert DRIFT not in status_text(app) and DRIFT_WHILE_QUIET not in status_text(app)
        # The status file tmux shows.
        assert read_status(tmp_path / "status") == "◌ Quiet Mode"
        assert run_keeltui(config, "status").stdout.strip() == "◌ Quiet Mode"
        # Toasts.
        assert not any("YouTube" in title + body for title, body in toasts.sent)
        # The doorways.
        # `day` and `log --kind ambient` print drift titles and focus commitments.
        for doorway in (["log"], ["export"], ["chat", "what was red?"], ["export", "--out", str(tmp_path / "x.md")],
                        ["day"], ["log", "--kind", "ambient"]):
            out = run_keeltui(config, *doorway)
            assert out.returncode == 3, doorway
            assert out.stderr.strip() == QUIET_MODE_REFUSAL and out.stdout == ""
        assert not (tmp_path / "x.md").exists()
        # The report is stored all the same.
        assert any("SECRET-B" in r.content for r in other.messages(other.chief_id()))

        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: "SECRET-B" in screen_text(app), what="the room back with what arrived")
        assert "SECRET-A" in screen_text(app)
        other.close()
