"""The editor and pager adapter with real child processes (small shell scripts)."""

from __future__ import annotations

from keeltui.adapters.editor import edit_text, editor_command, pager_command, view_text


def _script(tmp_path, body: str) -> str:
    path = tmp_path / "tool.sh"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o700)
    return str(path)


def test_the_saved_text_comes_back_with_its_line_breaks(tmp_path):
    editor = _script(tmp_path, 'printf "two\\n\\nfour\\n" >> "$1"\n')
    outcome = edit_text("one", {"VISUAL": editor, "PATH": "/usr/bin:/bin"})
    assert outcome.problem == ""
    assert outcome.text == "one\ntwo\n\nfour"


def test_the_draft_file_is_private_and_removed(tmp_path):
    seen = tmp_path / "seen"
    editor = _script(tmp_path, f'stat -c %a "$1" > {seen}; stat -c %a "$(dirname "$1")" >> {seen}; echo "$1" >> {seen}\n')
    edit_text("secret draft", {"EDITOR": editor, "PATH": "/usr/bin:/bin"})
    file_mode, dir_mode, path = seen.read_text().split()
    assert (file_mode, dir_mode) == ("600", "700")
    assert not (tmp_path / path).exists()


def test_an_editor_that_fails_names_itself_and_returns_nothing(tmp_path):
    editor = _script(tmp_path, 'echo garbage > "$1"; exit 3\n')
    outcome = edit_text("keep", {"VISUAL": editor, "PATH": "/usr/bin:/bin"})
    assert outcome.text is None
    assert outcome.problem == "editor: 'tool.sh' failed (exit 3); draft kept"
    assert "\n" not in outcome.problem


def test_commands_come_from_visual_then_editor_then_vi():
    assert editor_command({"VISUAL": "code -w", "EDITOR": "nano"}) == "code -w"
    assert editor_command({"VISUAL": " ", "EDITOR": "nano"}) == "nano"
    assert editor_command({}) == "vi"
    assert pager_command({"PAGER": "most"}) == ("most", False)
    assert pager_command({"PATH": "/nonexistent", "EDITOR": "nano"}) == ("nano", True)


def test_the_pager_gets_a_read_only_copy(tmp_path):
    seen = tmp_path / "seen"
    pager = _script(tmp_path, f'stat -c %a "$1" > {seen}; cat "$1" >> {seen}\n')
    assert view_text("row text", {"PAGER": pager, "PATH": "/usr/bin:/bin"}) == ""
    assert seen.read_text() == "400\nrow text"
    assert view_text("x", {"PAGER": "'unclosed", "PATH": "/usr/bin:/bin"}).startswith("pager: cannot run")
