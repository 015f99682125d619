"""Readline's Alt word keys in the composer (Alt+B, Alt+F, Alt+D). tmux sends Alt+F as ESC f:
bound, they stay word keys; unbound, ESC f is read as Escape then f (keeltui/terminal/keyinput.py),
which would leave the composer and start a focus session."""

from __future__ import annotations

from keeltui.keys.keymap import keys_in_use
from tests.support.pilot import wait_for


async def test_alt_b_f_d_move_and_delete_by_words_and_the_keys_stay_in_the_composer(make_app):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        field = app.room.composer.input
        await wait_for(pilot, lambda: app.focused is field, what="the composer with the keys")
        field.insert("one two three")
        field.move_cursor((0, 0))
        await pilot.press("alt+f")
        assert field.cursor_location == (0, 3)
        await pilot.press("alt+f", "alt+b")
        assert field.cursor_location == (0, 4)
        await pilot.press("alt+d")
        assert field.text == "one  three"
        assert app.focused is field  # no Escape, no focus session, nothing typed


def test_the_word_keys_are_bound_so_the_parser_keeps_them_alt_keys():
    assert {"alt+b", "alt+f", "alt+d"} <= keys_in_use({})
