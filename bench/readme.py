"""README's benchmark summary, rewritten by a full `make bench` run between two markers."""

from __future__ import annotations

from pathlib import Path

START, END = "<!-- bench-table -->", "<!-- /bench-table -->"


def _table(lines: list[str], title: str) -> list[str]:
    """The table rows under the heading that starts with ``title`` (up to the next heading)."""
    start = next((i for i, line in enumerate(lines) if line.startswith(title)), None)
    if start is None:
        return []
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if line.startswith("|"):
            rows.append(line)
    return rows


def block(markdown: str) -> str:
    """From RESULTS.md: the run's facts, the targets table and the side-by-side table."""
    lines = markdown.splitlines()
    out = [line for line in lines if line.startswith(("- **Date**", "- **Machine**"))]
    out += ["", *_table(lines, "## Targets")]
    issue19 = _table(lines, "## Targets (issue 19")
    if issue19:
        out += ["", "Issue 19's targets (the Chief room at any size):", "", *issue19]
    out += ["", "Side by side (medians and ranges, same run):", "",
            *_table(lines, "## Side by side"), "",
            "Gaps, their measured causes and what would close them: under the targets in "
            "[`bench/RESULTS.md`](bench/RESULTS.md)."]
    return "\n".join(out)


def update(readme: Path, markdown: str) -> bool:
    """Replace the text between the markers (or after START up to the next heading); False if no marker."""
    text = readme.read_text()
    if START not in text:
        return False
    head, rest = text.split(START, 1)
    if END in rest:
        tail = rest.split(END, 1)[1]
    else:  # the first run with END: the old summary runs up to the next heading
        cut = rest.find("\n## ")
        tail = rest[cut:] if cut >= 0 else ""
        tail = "\n" + tail.lstrip("\n") if tail else ""
        tail = "\n" + tail
    readme.write_text(f"{head}{START}\n{block(markdown)}\n{END}{tail}")
    return True
