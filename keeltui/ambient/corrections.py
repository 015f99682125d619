""""That was work": the owner's corrections of drift judgements, as examples for the judge. Pure.

A correction names the episode it overrules (its ``start``) and the windows it was
about. The judge is told the latest ones inside the brief it already reads, quoted
as data (titles are untrusted text), so the brain and the local judge (which counts
a title sharing a word with the brief as on track) both learn from them.
"""

from __future__ import annotations

import json

from keeltui.text.textsafe import one_line

from .timeline import CORRECTION_KIND
from .window import EXCLUDED

EXAMPLES = 8  # the latest corrections the judge is shown
HEADING = "The owner said these windows were work, not drift (corrections of earlier judgements):"


def correction(episode: dict, now: float) -> dict:
    """The record for overruling ``episode`` (a stored or open one: ``start``, ``titles``)."""
    titles = [one_line(str(t), 200) for t in episode.get("titles") or [] if str(t) != EXCLUDED]
    return {"start": float(episode["start"]), "at": now, "titles": titles[-6:],
            "message": one_line(str(episode.get("message") or ""), 200), "focus": str(episode.get("focus") or "")}


def example_titles(records: list[dict]) -> list[str]:
    """The titles of the latest corrections, newest last, each once."""
    titles: list[str] = []
    for record in records:
        data = record.get("data")
        if record.get("kind") != CORRECTION_KIND or not isinstance(data, dict):
            continue
        for title in data.get("titles") or []:
            title = one_line(str(title), 200)
            if title and title in titles:
                titles.remove(title)
            if title:
                titles.append(title)
    return titles[-EXAMPLES * 3:]


def with_examples(frame: str, titles: list[str]) -> str:
    """The brief with the corrections appended (unchanged when there are none)."""
    if not titles:
        return frame
    return f"{frame.rstrip()}\n\n{HEADING}\n{json.dumps(titles, ensure_ascii=False)}".lstrip()
