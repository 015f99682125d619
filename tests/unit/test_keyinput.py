"""Alt+Enter's spellings become one unambiguous sequence before Textual parses them."""

import os

import pytest
from textual import events as events_module

from keeltui.terminal.keyinput import ALT_ENTER, AltEnterRewriter, alt_enter_parser


def test_esc_cr_and_its_burst_become_alt_enter():
    rewrite = AltEnterRewriter().rewrite
    assert rewrite("ab\x1b\rcd") == f"ab{ALT_ENTER}cd"
    assert rewrite("\x1b\r\x1b\r") == ALT_ENTER * 2
    assert rewrite("\u008d") == ALT_ENTER
    assert rewrite("\x1b[27;3;13~") == ALT_ENTER
    assert rewrite("\r") == "\r"  # Enter stays Enter


def test_esc_and_cr_split_across_two_reads():
    rewriter = AltEnterRewriter()
    assert rewriter.rewrite("ab\x1b") == "ab\x1b"
    assert rewriter.rewrite("\rcd") == ALT_ENTER[1:] + "cd"


def test_a_lone_escape_that_timed_out_leaves_the_next_enter_alone():
    rewriter = AltEnterRewriter()
    rewriter.rewrite("\x1b")
    rewriter.timed_out()
    assert rewriter.rewrite("\r") == "\r"


# -- a lone Escape, answered after ESCDELAY (the parser Textual's Linux driver is handed) ---


@pytest.fixture
def terminal():
    """A parser reading from a pipe that stands in for the terminal."""
    from textual.drivers.linux_driver import XTermParser

    read_end, write_end = os.pipe()
    parser = alt_enter_parser(XTermParser, input_fd=lambda: read_end)()
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
