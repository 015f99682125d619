"""Which characters count as typed text (keeltui/keys/keyspec.py): the composer, the
stray-key path and the input rewriter all ask the one rule."""

from __future__ import annotations

import pytest

from keeltui.keys.keyspec import typed_character


@pytest.mark.parametrize(("character", "typed"), [
    ("a", True), (" ", True), ("é", True), ("界", True),
    ("\xa0", True), ("\u2003", True), ("\u3000", True),  # no-break, em and ideographic spaces
    ("\x1b", False), ("\t", False), ("\x7f", False), ("\x85", False), ("\u200b", False), ("\u2028", False),
    ("", False), (None, False), ("ab", False),
])
def test_a_typed_character_is_printable_or_a_space_of_any_width(character, typed):
    assert typed_character(character) is typed
