"""The README's tmux recipe shows the whole status line (issue 21): tmux cuts
``status-right`` at 40 characters unless ``status-right-length`` says otherwise."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tmux_blocks(text: str) -> list[str]:
    return re.findall(r"```tmux\n(.*?)```", text, flags=re.S)


def test_every_tmux_recipe_that_sets_status_right_sets_its_length():
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    recipes = [block for doc in docs for block in _tmux_blocks(doc.read_text())
               if "status-right " in block]
    assert recipes, "the README's tmux recipe is gone"
    for block in recipes:
        length = re.search(r"set -g status-right-length (\d+)", block)
        assert length, f"no status-right-length in:\n{block}"
        assert int(length.group(1)) >= 120  # the status line's longest text (statusfile.py)
