"""A streamed reply rendered again whole off the UI thread (keeltui/panes/chief/whole_render.py):
the lines are handed on only when they differ from the streamed ones, a failure stays in the
log, and the thread's console draws what the app's draws without sharing its theme stack."""

from __future__ import annotations

import logging

from rich.console import Console
from rich.markdown import Markdown
from rich.segment import Segment
from rich.style import Style
from rich.theme import Theme

from keeltui.panes.chief.whole_render import private_console, render_whole

CONSOLE = Console(width=60, force_terminal=True, color_system="truecolor", markup=False, highlight=False, emoji=False)
LINES = [(Segment("one", Style(color="red")),), (Segment("two"),)]


def handed(render, streamed) -> list:
    got: list = []
    render_whole(render, CONSOLE, streamed, got.append).join(timeout=30)
    return got


def test_the_lines_are_handed_on_only_when_they_differ_from_the_streamed_ones():
    assert handed(lambda console: list(LINES), LINES) == []
    recoloured = [(Segment("one", Style(color="yellow")),), LINES[1]]
    assert handed(lambda console: recoloured, LINES) == [recoloured]


def test_a_render_that_fails_keeps_the_streamed_lines_and_says_so_in_the_log(caplog):
    def broken(console):
        raise ValueError("no lexer")

    with caplog.at_level(logging.ERROR, logger="keeltui.panes.chief.whole_render"):
        assert handed(broken, LINES) == []
    assert "again whole failed" in caplog.text


def test_the_threads_console_draws_what_the_apps_draws_and_keeps_its_own_themes():
    text = "Some **bold** and `code`:\n\n```python\ns = '''a\nb'''\n```"
    options = CONSOLE.options.update(width=40)
    private = private_console(CONSOLE)
    with private.use_theme(Theme({"markdown.code": "bold magenta"})):
        # A theme pushed on the thread's console is not the app's.
        assert CONSOLE.get_style("markdown.code") != private.get_style("markdown.code")
    assert private.render_lines(Markdown(text), private.options.update(width=40)) == CONSOLE.render_lines(Markdown(text), options)


def test_the_threads_console_has_the_apps_colour_system():
    # Rich's Syntax draws a code block's background only in 256 colours or more.
    for system in ("standard", "256", "truecolor"):
        app_console = Console(width=60, force_terminal=True, color_system=system)
        assert private_console(app_console).color_system == system
