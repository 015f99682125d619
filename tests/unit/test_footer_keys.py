"""The footer's choice of keys (keeltui/keys/footer_keys.py): help always, focus first, none twice, all fit."""

from __future__ import annotations

from keeltui.keys.footer_keys import FooterKey, choose


def key(binding_id: str, words: str, depth: int = 9, action: str | None = None) -> FooterKey:
    return FooterKey(binding_id, action or binding_id, words, depth, cells=len(words) + 5)


APP = [key("quit", "Quit"), key("switch_pane", "Chief/Tutor"), key("snooze", "Snooze 1h"),
       key("settings", "Settings"), key("day", "Your day"), key("help", "Help")]


def ids(keys: list[FooterKey]) -> list[str]:
    return [entry.binding_id for entry in keys]


def test_help_comes_first_even_when_nothing_else_fits():
    assert ids(choose(APP, 3)) == ["help"]
    assert ids(choose(APP, 200))[0] == "help"


def test_the_focused_place_comes_before_the_app_and_the_app_in_its_useful_order():
    row = [key("copy_message", "Copy", depth=0), key("compose", "Write", depth=0)]
    assert ids(choose(APP + row, 200)) == ["help", "copy_message", "compose", "switch_pane", "settings",
                                           "day", "snooze", "quit"]


def test_an_alias_of_an_app_key_is_shown_once():
    alias = key("row_snooze", "Snooze 1h", depth=0, action="snooze")
    shown = choose([*APP, alias], 200)
    assert [entry.description for entry in shown].count("Snooze 1h") == 1
    assert "row_snooze" in ids(shown)


def test_what_does_not_fit_is_skipped_and_a_shorter_key_after_it_still_fits():
    keys = [key("help", "Help"), key("switch_pane", "A very long description here"), key("quit", "Quit")]
    shown = choose(keys, 20)
    assert ids(shown) == ["help", "quit"]
    assert sum(entry.cells for entry in shown) <= 20
