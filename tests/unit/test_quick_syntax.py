"""QuickSyntax draws a code block to the very cells Rich's Syntax draws (issue 19: a streaming
code block is rendered line by line, and Syntax's wrapping machinery was most of its cost)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.syntax import Syntax

from keeltui.text.quick_syntax import QuickSyntax

console = Console(width=120, color_system="truecolor", force_terminal=True)


def cells(renderable, width: int) -> list[list[tuple]]:
    """Each line's cells: (character, style), what a terminal shows."""
    lines = console.render_lines(renderable, console.options.update(width=width), pad=True)
    return [[(ch, seg.style) for seg in line for ch in seg.text] for line in lines]


def reference(code: str, lexer: str, theme: str, background: str | None) -> Syntax:
    return Syntax(code, lexer, theme=theme, word_wrap=True, padding=(0, 1), background_color=background)


_CHARACTERS = [*"abcxyz019 _=+-*/()[]{}:;,.#'\"\\\t", "é", "漢", "字", "→", "\u200b", "\u0301", "😀", "\u00a0"]
_CODE_LINE = st.text(alphabet=st.sampled_from(_CHARACTERS), max_size=30)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(_CODE_LINE, max_size=8), newline=st.booleans(),
       lexer=st.sampled_from(["python", "rust", "json", "bash", "text", "", "no-such-language"]),
       theme=st.sampled_from(["monokai", "friendly"]), background=st.sampled_from(["#272822", "#f0f0f0", None]),
       width=st.integers(3, 60))
@example(lines=["\t\u0301 "], newline=False, lexer="python", theme="monokai", background="#272822", width=7)
def test_quick_syntax_draws_the_cells_syntax_draws(lines, newline, lexer, theme, background, width):
    code = "\n".join(lines) + ("\n" if newline else "")
    quick = QuickSyntax(code, lexer, theme=theme, background_color=background)
    assert cells(quick, width) == cells(reference(code, lexer, theme, background), width)


def test_a_block_of_short_lines_is_drawn_without_syntax(monkeypatch):
    # The point of it: Syntax (and its wrapping) is not used where no line wraps.
    import keeltui.text.quick_syntax as quick_syntax

    def refuse(*args, **kwargs):
        raise AssertionError("Syntax drew a block that needed no wrapping")

    code = "\n".join(f"value_{i} = {i}  # the {i}th" for i in range(20))
    expected = cells(reference(code, "python", "monokai", "#272822"), 80)
    monkeypatch.setattr(QuickSyntax, "syntax", refuse)
    assert cells(quick_syntax.QuickSyntax(code, "python", theme="monokai", background_color="#272822"), 80) == expected


def test_a_line_too_long_for_the_block_is_wrapped_by_syntax():
    code = "short = 1\n" + "long_name = " + "x" * 100
    quick = QuickSyntax(code, "python", theme="monokai", background_color="#272822")
    drawn = cells(quick, 40)
    assert drawn == cells(reference(code, "python", "monokai", "#272822"), 40)
    assert len(drawn) > 2  # wrapped


def test_a_container_that_sizes_the_block_measures_it_as_syntax():
    from rich.measure import Measurement

    code = "x = 1\nlonger_name = 'a string'"
    quick = QuickSyntax(code, "python", theme="monokai", background_color="#272822")
    options = console.options.update(width=80)
    assert Measurement.get(console, options, quick) == Measurement.get(console, options,
                                                                        reference(code, "python", "monokai", "#272822"))
