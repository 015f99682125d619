"""The footer fits at 80, 100 and 120 columns (issue 21): F1 help always, the app's
Ctrl+T, F2 and F3 at every width while the composer has the focus, no key twice, and
the keys of the room's log first when the log has it."""

from __future__ import annotations

import re

import pytest

from keeltui.store import Store
from tests.support.pilot import screen_text, wait_for

WIDTHS = [(80, 24), (100, 30), (120, 40)]


def footer_line(app) -> str:
    return screen_text(app).splitlines()[-1]


def descriptions(line: str) -> list[str]:
    """The footer's words, one per key (keys are separated by two spaces)."""
    return [re.sub(r"^\S+ ", "", part) for part in re.split(r" {2,}|▏", line.strip()) if part]


@pytest.mark.parametrize("size", WIDTHS, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_footer_shows_help_and_the_app_keys_once_each(make_app, size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: "f1 Help" in footer_line(app), what="help in the footer")
        line = footer_line(app)
        for shown in ("f1 Help", "^t Chief/Tutor", "f2 Settings", "f3 Your day", "f6 Snooze 1h"):
            assert shown in line, (shown, line)
        words = descriptions(line)
        assert len(words) == len(set(words)), line
        assert not line.rstrip().endswith(("…", "▏")), line  # nothing cut at the edge


@pytest.mark.parametrize("size", WIDTHS, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_on_the_log_its_keys_come_first_and_snooze_shows_once(make_app, size, tmp_path):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        other = Store(tmp_path / "k.db")
        other.add_report("coop-notify:ci", "CI is green on main")
        other.close()
        await wait_for(pilot, lambda: "CI is green on main" in screen_text(app), what="a report to stand on")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "c Copy" in footer_line(app), what="the log's keys in the footer")
        line = footer_line(app)
        assert line.lstrip().startswith("f1 Help  c Copy  i Write"), line
        assert line.count("Snooze 1h") == 1 and "z Snooze 1h" in line, line
        assert line.count("Focus") == 1, line
        words = descriptions(line)
        assert len(words) == len(set(words)), line


# -- one widget drawing one line (issue 19: a binding change rebuilt ten widgets) --------


def _footer(app):
    from keeltui.panes.common.footer import KeelFooter

    return app.screen.query_one(KeelFooter)


async def test_a_change_of_bindings_repaints_the_footer_and_mounts_nothing(make_app):
    # Textual's footer removed and mounted a widget per key on every change of bindings
    # (each focus change, each reply started or stopped): 15-40 ms of styling each time,
    # twice when Escape stopped a reply. Here the keys change on the same single line.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: "esc Leave input" in footer_line(app), what="the composer's keys")
        footer = _footer(app)
        await pilot.press("escape")  # the focus leaves the composer for the log
        await wait_for(pilot, lambda: "c Copy" in footer_line(app) or "i Write" in footer_line(app),
                       what="the log's keys in the footer")
        assert "esc Leave input" not in footer_line(app)
        assert len(footer.children) == 0  # the keys are drawn, not mounted as widgets


async def test_a_click_on_a_footer_key_presses_it(make_app):
    from keeltui.panes.ambient.modals import SettingsScreen

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: "f2 Settings" in footer_line(app), what="F2 in the footer")
        x = footer_line(app).index("f2 Settings") + 1
        await pilot.click(_footer(app), offset=(x, 0))
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="the settings screen from a click")


async def test_the_key_under_the_mouse_is_lit(make_app):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: "f2 Settings" in footer_line(app), what="F2 in the footer")
        footer = _footer(app)
        x = footer_line(app).index("f2 Settings") + 1
        plain = footer.render_line(0)
        await pilot.hover(footer, offset=(x, 0))
        await wait_for(pilot, lambda: footer.render_line(0) != plain, what="the key under the mouse lit")
        lit = footer.render_line(0)
        # That key's cells changed, and only those (" f2 Settings ": a blank either side).
        start = x - 2
        changed = [i for i, (a, b) in enumerate(zip(_cells(plain), _cells(lit), strict=True)) if a != b]
        assert changed == list(range(start, start + len(" f2 Settings ")))


def _cells(strip) -> list:
    return [(ch, seg.style) for seg in strip for ch in seg.text]


async def test_the_frame_that_changes_the_keys_shows_them(make_app):
    # The footer chose its keys only after the next frame: a tutor plan was drawn with the
    # old keys under it, and "Decline plan" came a frame later (60-120 ms under load).
    from keeltui.panes.chief.room_controls import REPLY_IDLE, REPLY_STREAMING

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: "esc Leave input" in footer_line(app), what="the composer's keys")
        footer = _footer(app)
        app.room.reply_phase = REPLY_STREAMING  # what a reply's first chunk does
        # No frame in between: what the footer draws now is what the next frame shows.
        assert "esc Stop" in footer.render_line(0).text
        app.room.reply_phase = REPLY_IDLE
        assert "esc Stop" not in footer.render_line(0).text and "esc Leave input" in footer.render_line(0).text
