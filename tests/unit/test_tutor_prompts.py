"""Prompt composition: numbered fragments only, shared first, in numeric order."""

from __future__ import annotations

from pathlib import Path

import pytest

from keeltui.tutor.prompts import DEFAULT_PROMPTS_DIR, compose_prompt, fragment_paths


def numbered(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.md") if p.name[0].isdigit())


@pytest.mark.parametrize("agent", ["prober", "teacher"])
def test_the_readme_never_composes(agent: str) -> None:
    readme = (DEFAULT_PROMPTS_DIR / "README.md").read_text(encoding="utf-8")
    prompt = compose_prompt(agent)
    assert readme.strip()
    for line in readme.splitlines():
        if len(line.strip()) > 20:  # any substantive README line would be a leak
            assert line not in prompt
    assert all(path.name != "README.md" for path in fragment_paths(agent))


@pytest.mark.parametrize("agent", ["prober", "teacher"])
def test_every_numbered_fragment_composes_verbatim_in_order(agent: str) -> None:
    expected = numbered(DEFAULT_PROMPTS_DIR / "shared") + numbered(DEFAULT_PROMPTS_DIR / agent)
    assert len(expected) >= 3
    assert fragment_paths(agent) == expected
    prompt = compose_prompt(agent)
    positions = []
    for path in expected:
        text = path.read_text(encoding="utf-8").strip("\n")
        assert text in prompt, path
        positions.append(prompt.index(text))
    assert positions == sorted(positions)
    assert prompt == "\n\n".join(p.read_text(encoding="utf-8").strip("\n") for p in expected)


def test_agents_get_their_own_fragments_only() -> None:
    prober, teacher = compose_prompt("prober"), compose_prompt("teacher")
    assert "probe_done(strands, edge)" in prober and "probe_done(strands, edge)" not in teacher
    assert "plan_init(mermaid)" in teacher and "plan_init(mermaid)" not in prober


def test_teacher_prompt_states_the_contract() -> None:
    teacher = compose_prompt("teacher")
    assert "slugs" in teacher  # the one strict rule
    assert "end your turn" in teacher  # waits for the verdict
    assert "node_id" in teacher  # tags each quiz


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_temporary_prompts_dir(tmp_path: Path) -> None:
    write(tmp_path / "README.md", "README: never sent")
    write(tmp_path / "shared" / "10-base.md", "shared ten\n")
    write(tmp_path / "shared" / "README.md", "shared readme")
    write(tmp_path / "shared" / "notes.md", "notes")
    write(tmp_path / "prober" / "100-last.md", "prober hundred\n\n")
    write(tmp_path / "prober" / "9-first.md", "\nprober nine")
    write(tmp_path / "prober" / "20-b.md", "prober twenty b")
    write(tmp_path / "prober" / "20-a.md", "prober twenty a\n  indented line kept\n")
    write(tmp_path / "prober" / "20-draft.txt", "not markdown")
    write(tmp_path / "prober" / "x10-bad.md", "no numeric prefix")
    write(tmp_path / "prober" / "10.md", "no dash")
    write(tmp_path / "prober" / "30-dir.md" / "inner.md", "a directory, not a fragment")
    write(tmp_path / "teacher" / "10-teach.md", "teacher ten")

    assert compose_prompt("prober", tmp_path) == (
        "shared ten\n\nprober nine\n\nprober twenty a\n  indented line kept\n\n"
        "prober twenty b\n\nprober hundred"
    )
    assert compose_prompt("teacher", tmp_path) == "shared ten\n\nteacher ten"


def test_missing_shared_dir_is_fine(tmp_path: Path) -> None:
    write(tmp_path / "teacher" / "10-only.md", "only")
    assert compose_prompt("teacher", tmp_path) == "only"


def test_no_fragments_is_an_error(tmp_path: Path) -> None:
    write(tmp_path / "prober" / "README.md", "docs only")
    with pytest.raises(ValueError, match="no prompt fragments"):
        compose_prompt("prober", tmp_path)


@pytest.mark.parametrize("agent", ["chief", "../prober", "shared", ""])
def test_unknown_agents_are_refused(agent: str) -> None:
    with pytest.raises(ValueError, match="unknown agent"):
        compose_prompt(agent)
