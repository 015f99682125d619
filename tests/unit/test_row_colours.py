"""The room's colours are theme variables only (issue 21: system lines were a fixed teal)."""

from __future__ import annotations

import re

from keeltui.chief.row_colours import COMPONENTS, badge_component, badge_components, log_css
from keeltui.chief.turn_kinds import SYSTEM_KINDS


def test_every_colour_is_a_theme_variable():
    css = log_css("RoomLog")
    assert not re.search(r"#[0-9a-fA-F]{3,6}\b", css)
    for declaration in re.findall(r"(?:color|background): ([^;]+);", css):
        assert declaration.startswith(("$", "auto")), declaration


def test_every_system_kind_has_its_badge_and_an_unknown_kind_wears_the_notices():
    assert set(badge_components()) == {badge_component(kind) for kind in SYSTEM_KINDS}
    assert badge_component("something new") == badge_component("notice")
    assert {"room-log--system", "room-log--cursor"} <= set(COMPONENTS)
