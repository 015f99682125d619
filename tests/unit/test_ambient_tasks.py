"""Task providers: Markdown checklist, todo.txt, command; none of them raise."""

from __future__ import annotations

import logging

import pytest

from keeltui.adapters.tasks import (
    CommandTasks,
    MarkdownChecklist,
    NoTasks,
    TodoTxt,
    make_task_provider,
    parse_todotxt_line,
)

CHECKLIST = """\
# Today
- [ ] write the report
* [ ] call the plumber
  - [ ] nested sub-item
- [x] done thing
- [X] also done
- plain bullet
- [ ]
-[ ] no space, not an item
1. [ ] numbered, not supported
- [ ] \x1b[31mcoloured\x1b[0m task
"""


def test_markdown_checklist_unchecked_only(tmp_path):
    path = tmp_path / "today.md"
    path.write_text(CHECKLIST, encoding="utf-8")
    assert MarkdownChecklist(path).today() == [
        "write the report",
        "call the plumber",
        "nested sub-item",
        "coloured task",
    ]


def test_markdown_checklist_missing_file_is_empty(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        assert MarkdownChecklist(tmp_path / "missing.md").today() == []
        assert MarkdownChecklist(tmp_path / "missing.md").today() == []
    assert caplog.records  # said why, once per provider


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("(A) Call mum +family @phone", "Call mum +family @phone"),
        ("(B) 2025-01-02 Write report due:2025-01-31", "Write report"),
        ("2025-01-02 Pay rent", "Pay rent"),
        ("x 2025-01-03 2025-01-01 Done task", ""),
        ("   ", ""),
        ("xylophone practice", "xylophone practice"),  # "x" without a space is a word
        ("(a) lowercase is not a priority", "(a) lowercase is not a priority"),
        ("Plan trip t:2025-02-01 +travel", "Plan trip +travel"),
    ],
)
def test_parse_todotxt_line(line, expected):
    assert parse_todotxt_line(line) == expected


def test_todotxt_provider(tmp_path):
    path = tmp_path / "todo.txt"
    path.write_text("(A) First\nx 2025-01-01 Finished\n\n2025-01-02 Second\n", encoding="utf-8")
    assert TodoTxt(path).today() == ["First", "Second"]
    assert TodoTxt(tmp_path / "nope.txt").today() == []


def test_todotxt_tolerates_bad_bytes(tmp_path):
    path = tmp_path / "todo.txt"
    path.write_bytes(b"Caf\xe9 order\n\x00nul task\n")
    assert TodoTxt(path).today() == ["Caf\ufffd order", "nul task"]


def test_command_tasks_one_per_line():
    assert CommandTasks("printf 'one\\n\\n  two  \\n'").today() == ["one", "two"]


def test_command_tasks_failures_are_empty(caplog):
    with caplog.at_level(logging.WARNING, logger="keeltui.adapters.tasks"):
        assert CommandTasks("exit 3").today() == []
        assert CommandTasks("/nonexistent/tasks-binary").today() == []
        assert CommandTasks("sleep 5", timeout=0.2).today() == []
    assert len(caplog.records) >= 1


def test_make_task_provider():
    assert isinstance(make_task_provider("markdown", "~/today.md"), MarkdownChecklist)
    assert isinstance(make_task_provider("todotxt", "todo.txt"), TodoTxt)
    assert isinstance(make_task_provider("command", "echo hi"), CommandTasks)
    assert isinstance(make_task_provider("none", ""), NoTasks)
    assert isinstance(make_task_provider("markdown", ""), NoTasks)
    assert NoTasks().today() == []
    with pytest.raises(ValueError, match="markdown, todotxt, command, none"):
        make_task_provider("trello", "x")
