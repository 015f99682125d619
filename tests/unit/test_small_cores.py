"""Small pure modules: JSON extraction, durations, safe text, the status line, review."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings, strategies as st

from keeltui.text.durations import format_duration, parse_duration
from keeltui.text.jsonextract import EmptyReplyError, JSONExtractError, NoJSONError, extract_json
from keeltui.chief.review import format_log, format_markdown
from keeltui.status.file import read_status, write_status
from keeltui.status.render import StatusState, render_status, tmux_escape
from keeltui.text.textsafe import clean_text, one_line
import contextlib


@pytest.mark.parametrize("text, expected", [
    ('{"a": 1}', {"a": 1}),
    ('  {"a": 1}\n', {"a": 1}),
    ('```json\n{"a": [1, 2]}\n```', {"a": [1, 2]}),
    ('```\n{"a": 1}\n```', {"a": 1}),
    ('Here: {"a": "}"} done', {"a": "}"}),
    ('{"a": "\\"{"} and {"b": 2}', {"a": '"{'}),
    ('noise {not json} then {"ok": true}', {"ok": True}),
    ('[1, 2] {"x": null}', {"x": None}),
])
def test_extract_json(text, expected):
    assert extract_json(text) == expected


@pytest.mark.parametrize("text, error", [
    ("", EmptyReplyError), ("   \n", EmptyReplyError), (None, EmptyReplyError),
    ("no json here", NoJSONError), ("[1, 2, 3]", NoJSONError), ("{broken", NoJSONError),
])
def test_extract_json_errors(text, error):
    with pytest.raises(error):
        extract_json(text)


@settings(max_examples=300)
@given(st.text())
def test_extract_json_never_raises_anything_else(text):
    with contextlib.suppress(JSONExtractError):
        assert isinstance(extract_json(text), dict)


@given(st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=10), max_size=4), st.text(max_size=20))
def test_extract_json_finds_an_object_wrapped_in_prose(obj, prose):
    import json

    text = f"{prose.replace('{', '').replace('}', '')}\n```json\n{json.dumps(obj)}\n```\nthanks"
    assert extract_json(text) == obj


@pytest.mark.parametrize("text, seconds", [
    ("90s", 90), ("45m", 2700), ("1h", 3600), ("1h30m", 5400), ("2d", 172800), ("25", 1500), (" 1 h ", 3600),
])
def test_parse_duration(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "soon", "1x", "h", "0m", "1h-", "-5m"])
def test_parse_duration_rejects(text):
    with pytest.raises(ValueError):
        parse_duration(text)


@pytest.mark.parametrize("seconds, text", [(3600, "1h"), (5400, "1h30m"), (1500, "25m"), (42, "42s"), (-5, "0s")])
def test_format_duration(seconds, text):
    assert format_duration(seconds) == text


@pytest.mark.parametrize("raw, clean", [
    ("plain", "plain"),
    ("a\x1b[31mred\x1b[0m", "ared"),
    ("osc\x1b]52;c;aGVsbG8=\x07 tail", "osc tail"),
    ("osc-st\x1b]0;title\x1b\\x", "osc-stx"),
    ("bell\x07nul\x00del\x7f", "bellnuldel"),
    ("c1\x9b31m", "c1"),
    ("keep\ttabs\nand lines", "keep\ttabs\nand lines"),
    ("[bold red]markup[/]", "[bold red]markup[/]"),
    ("שלום e\u0301", "שלום e\u0301"),
])
def test_clean_text(raw, clean):
    assert clean_text(raw) == clean


@given(st.text())
def test_clean_text_leaves_no_control_bytes(text):
    cleaned = clean_text(text)
    assert not any((ord(c) < 32 and c not in "\t\n") or 0x7f <= ord(c) <= 0x9f for c in cleaned)


def test_one_line_folds_and_clips():
    assert one_line("a\n\nb   c", 10) == "a b c"
    assert one_line("x" * 50, 10) == "x" * 9 + "…"


@pytest.mark.parametrize("state, line", [
    (StatusState(), "idle"),
    (StatusState(ambient_line="Reddit again"), "⚠ Reddit again"),
    (StatusState(ambient_line="Reddit", quiet=True), "◌ Quiet Mode"),
    (StatusState(focus_text="◎ Focus: write · 20m left", ambient_line="x"), "◎ Focus: write · 20m left"),
    (StatusState(ambient_line="evil\x1b]52;c;x\x07 [bold]title"), "⚠ evil [bold]title"),
])
def test_render_status(state, line):
    assert render_status(state) == line


def test_status_file_round_trip_and_tmux_escape(tmp_path):
    path = tmp_path / "state" / "status"
    write_status(path, "⚠ #1 on HN")
    assert read_status(path) == "⚠ #1 on HN"
    assert tmux_escape(read_status(path)) == "⚠ ##1 on HN"
    assert list(path.parent.iterdir()) == [path]  # no temp files left behind


def test_status_file_of_a_dead_app(tmp_path):
    path = tmp_path / "status"
    write_status(path, "⚠ x", pid=2 ** 22 + 12345)
    assert read_status(path) == "keeltui not running"
    assert read_status(tmp_path / "missing") == "keeltui not running"


@dataclass
class Row:
    role: str
    content: str
    turn_kind: str | None = None
    status: str = "complete"
    created_at: float = 0.0


def test_format_log_badges_and_no_escapes():
    rows = [Row("user", "hi"), Row("assistant", "yo\x1b[2J"), Row("assistant", "built", "coop"), Row("assistant", "half", status="partial")]
    lines = format_log(rows, "Ada", "Chief")
    assert lines[0].endswith("Ada: hi")
    assert lines[1].endswith("Chief: yo")
    assert lines[2].endswith("[Coop] built")
    assert lines[3].endswith("Chief: half [cut off: the reply did not finish: F5 retries]")
    assert not any("\x1b" in line for line in lines)
    assert any("\x1b[" in line for line in format_log(rows, "Ada", "Chief", color=True))


def test_format_markdown():
    text = format_markdown([Row("user", "hi"), Row("assistant", "nightly ok", "task")], "Ada", "Chief")
    assert "**Ada**" in text and "> **[Scheduled task]**" in text and "> nightly ok" in text


@pytest.mark.parametrize("text, markdown", [
    ("Plain prose, with commas. And questions?", False),
    ("row 41 of the room", False),
    ("Some **bold** text", True),
    ("- a list\n- of items", True),
    ("1. first\n2. second", True),
    ("use `code` here", True),
    ("# Heading", True),
    ("para one\n\npara two", True),
    ("a [link](http://x)", True),
    ("5 - 3 = 2", False),
])
def test_looks_like_markdown(text, markdown):
    from keeltui.text.textsafe import looks_like_markdown

    assert looks_like_markdown(text) is markdown
