"""`keeltui export` is valid Markdown whatever the content (issue 9, point 9).

Parsed with a real CommonMark parser: a message that leaves a code fence open must
not swallow the messages after it.
"""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from keeltui.text.markdown_fences import close_open_fence, open_fence
from keeltui.store import Store
from tests.conftest import write_config
from tests.support.tmux import run_keeltui


@pytest.fixture
def cfg(tmp_path, loopback):
    return write_config(tmp_path / "config.toml", loopback.url,
                        f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')


def _fenced_text(markdown: str) -> str:
    return "\n".join(t.content for t in MarkdownIt("commonmark").parse(markdown) if t.type in ("fence", "code_block"))


def test_an_unclosed_fence_does_not_swallow_the_rest_of_the_export(cfg, tmp_path):
    store = Store(tmp_path / "k.db")
    room = store.chief_id()
    store.add_message(room, "user", "show me the loop")
    store.add_message(room, "assistant", "Here:\n\n````python\nprint('```')\nfor x in y:\n    pass", status="partial")
    store.add_message(room, "user", "AFTER THE CUT: thanks")
    store.add_report("cron:backup", "nightly ok")
    store.add_message(room, "assistant", "a tilde fence ~~~ inline is fine, and\n~~~\nopen tilde")
    store.add_message(room, "user", "LAST WORDS")
    store.close()
    out = run_keeltui(cfg, "export")
    assert out.returncode == 0, out.stderr
    html = MarkdownIt("commonmark").render(out.stdout)
    code = _fenced_text(out.stdout)
    # The code stays code; everything after it is prose again.
    assert "print('```')" in code and "for x in y:" in code
    assert "AFTER THE CUT" not in code and "LAST WORDS" not in code and "nightly ok" not in code
    assert "<strong>Owner</strong>" in html and html.count("<strong>Owner</strong>") == 3
    assert "<p>LAST WORDS</p>" in html


@pytest.mark.parametrize("body, expected_fence", [
    ("no fence", None),
    ("```\nclosed\n```", None),
    ("```py\nopen", "```"),
    ("````\n```\nstill open", "````"),
    ("~~~\n```\n", "~~~"),
    ("```\n~~~\n````", None),  # a longer closing fence closes
    ("``` not`a fence\ntext", None),  # a backtick in the info string: not a fence
])
def test_open_fence(body, expected_fence):
    assert open_fence(body) == expected_fence


def test_closing_fence_is_longer_than_any_run_inside():
    closed = close_open_fence("```\nx = '`````'")
    assert closed.endswith("\n``````") and open_fence(closed) is None
