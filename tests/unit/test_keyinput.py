"""Alt+Enter's spellings become one unambiguous sequence before Textual parses them."""

from keeltui.terminal.keyinput import ALT_ENTER, AltEnterRewriter


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
