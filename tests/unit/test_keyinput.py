"""Alt+Enter's spellings become one unambiguous sequence before Textual parses them."""

import itertools
import os

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from textual import events as events_module

from keeltui.terminal.keyinput import ALT_ENTER, ESCAPE_KEY, InputRewriter, input_parser


def test_esc_cr_and_its_burst_become_alt_enter():
    rewrite = InputRewriter().rewrite
    assert rewrite("ab\x1b\rcd") == f"ab{ALT_ENTER}cd"
    assert rewrite("\x1b\r\x1b\r") == ALT_ENTER * 2
    assert rewrite("\u008d") == ALT_ENTER
    assert rewrite("\x1b[27;3;13~") == ALT_ENTER
    assert rewrite("\r") == "\r"  # Enter stays Enter


def test_esc_and_cr_split_across_two_reads():
    rewriter = InputRewriter()
    assert rewriter.rewrite("ab\x1b") == "ab\x1b"
    assert rewriter.rewrite("\rcd") == ALT_ENTER[1:] + "cd"


def test_a_lone_escape_that_timed_out_leaves_the_next_enter_alone():
    rewriter = InputRewriter()
    rewriter.rewrite("\x1b")
    rewriter.timed_out()
    assert rewriter.rewrite("\r") == "\r"


# -- a lone Escape, answered after ESCDELAY (the parser Textual's Linux driver is handed) ---


@pytest.fixture
def terminal():
    """A parser reading from a pipe that stands in for the terminal."""
    from textual.drivers.linux_driver import XTermParser

    read_end, write_end = os.pipe()
    parser = input_parser(XTermParser, input_fd=lambda: read_end)()
    yield parser, write_end
    os.close(read_end)
    os.close(write_end)


def _keys(events) -> list[str]:
    return [event.key for event in events if isinstance(event, events_module.Key)]


def test_a_lone_escape_comes_out_of_the_read_that_brought_it(terminal):
    parser, _ = terminal
    # Textual's input thread only checks the parser's timeout when its select returns (on the
    # next byte or after 100 ms): the Escape must not wait for that.
    assert _keys(parser.feed("ab\x1b")) == ["a", "b", "escape"]


def test_an_escape_whose_sequence_is_still_coming_waits_for_the_rest(terminal):
    parser, write_end = terminal
    os.write(write_end, b"[A")  # the rest of Up, already on its way when ESC is read
    assert _keys(parser.feed("\x1b")) == []
    assert _keys(parser.feed("[A")) == ["up"]


def test_alt_enter_split_over_two_reads_is_still_alt_enter(terminal):
    parser, write_end = terminal
    os.write(write_end, b"\r")
    assert _keys(parser.feed("\x1b")) == []
    assert _keys(parser.feed("\r")) == ["alt+enter"]


# -- Escape and the keys right behind it, in one read (a burst over SSH) -----------------


@pytest.mark.parametrize(("read", "keys"), [
    ("\x1bxyz", ["escape", "x", "y", "z"]),  # Textual alone: alt+x (typed as x), y, z
    ("\x1b1ab", ["escape", "1", "a", "b"]),  # Textual alone: ¡, a, b
    ("\x1b hi", ["escape", "space", "h", "i"]),  # Textual alone: space, h, i
    ("\x1b/", ["escape", "slash"]),
    ("\x1bY", ["escape", "Y"]),
    ("ab\x1b\x1bc", ["a", "b", "escape", "escape", "c"]),
])
def test_escape_then_typing_in_one_read_is_escape_then_the_typing(terminal, read, keys):
    parser, _ = terminal
    assert _keys(parser.feed(read)) == keys


def test_sequences_after_esc_are_still_read_as_keys(terminal):
    parser, _ = terminal
    assert _keys(parser.feed("\x1b[A\x1bOP\x1b[5~")) == ["up", "f1", "pageup"]


def test_escape_at_the_end_of_one_read_and_typing_in_the_next(terminal):
    parser, write_end = terminal
    os.write(write_end, b"x")
    assert _keys(parser.feed("\x1b")) == []
    assert _keys(parser.feed("xy")) == ["escape", "x", "y"]


def test_an_alt_key_the_owner_bound_stays_an_alt_key():
    rewriter = InputRewriter(lambda: frozenset({"alt+k", "alt+shift+j"}))
    assert rewriter.rewrite("\x1bk\x1bJ\x1bm") == f"\x1bk\x1bJ{ESCAPE_KEY}m"


def test_pasted_text_is_left_as_it_came():
    rewriter = InputRewriter()
    pasted = "\x1b[200~a\x1bxb\x1b[201~"
    assert rewriter.rewrite(pasted + "\x1bx") == pasted + f"{ESCAPE_KEY}x"
    # A paste that spans two reads.
    assert rewriter.rewrite("\x1b[200~a\x1bx") == "\x1b[200~a\x1bx"
    assert rewriter.rewrite("b\x1by\x1b[201~\x1bz") == f"b\x1by\x1b[201~{ESCAPE_KEY}z"


def test_the_keys_the_app_binds_come_from_the_key_registry_and_the_remaps():
    from keeltui.keys.keymap import keys_in_use

    assert "escape" in keys_in_use({}) and "ctrl+q" in keys_in_use({})
    assert "alt+q" in keys_in_use({"quit": "alt+q"}) and "ctrl+q" not in keys_in_use({"quit": "alt+q"})


_TYPED = st.one_of(
    st.just("ESC"),
    st.characters(min_codepoint=0x20, max_codepoint=0x17F, categories=("L", "N", "P", "S", "Zs")),
)


@settings(max_examples=60, deadline=None)
@given(typed=st.lists(_TYPED, min_size=1, max_size=12), cuts=st.lists(st.integers(0, 40), max_size=4))
@example(typed=["ESC", "\xa0"], cuts=[])  # a no-break space (Option+Space on a Mac): both keys were lost
@example(typed=["ESC", "\u2003", "a"], cuts=[1])
def test_escape_and_typing_in_any_reads_come_out_as_typed(typed, cuts):
    # What a person typed, read in arbitrary pieces: Escape stays Escape and each character
    # stays itself, in order (a character that starts a terminal's sequence after ESC,
    # like "[" or "O", is the one case ESC+character cannot be told from a sequence).
    for before, after in itertools.pairwise(typed):
        assume(not (before == "ESC" and after != "ESC" and after in "[OP]_^X\\"))
    assume(typed[-1] != "ESC")  # a lone Escape at the end is the lone-Escape tests' case
    from textual.drivers.linux_driver import XTermParser

    read_end, write_end = os.pipe()  # the terminal: nothing more comes after the last piece
    parser = input_parser(XTermParser, input_fd=lambda: read_end)()
    data = "".join("\x1b" if item == "ESC" else item for item in typed)
    pieces, start = [], 0
    for cut in sorted({c for c in cuts if 0 < c < len(data)}):
        pieces.append(data[start:cut])
        start = cut
    pieces.append(data[start:])
    seen = []
    try:
        for piece in pieces:
            seen.extend(parser.feed(piece))
    finally:
        os.close(read_end)
        os.close(write_end)
    got = ["ESC" if event.key == "escape" else event.character
           for event in seen if isinstance(event, events_module.Key)]
    assert got == typed
