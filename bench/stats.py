"""Samples per series, and the summary the report prints."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field


def percentile(samples: list[float], q: float) -> float | None:
    """The nearest-rank ``q``-th percentile (0 < q <= 100): a value that was measured."""
    if not samples:
        return None
    if not 0 < q <= 100:
        raise ValueError("q is in (0, 100]")
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


@dataclass
class Series:
    samples: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def median(self) -> float | None:
        return statistics.median(self.samples) if self.samples else None

    @property
    def lo(self) -> float | None:
        return min(self.samples) if self.samples else None

    @property
    def hi(self) -> float | None:
        return max(self.samples) if self.samples else None


class Results:
    """Named series of samples, failures and free-form notes, filled by the measures."""

    def __init__(self) -> None:
        self.series: dict[str, Series] = {}
        self.notes: dict[str, list[str]] = {}
        self.facts: dict[str, object] = {}

    def add(self, key: str, value: float) -> None:
        self.series.setdefault(key, Series()).samples.append(float(value))

    def fail(self, key: str, error: str) -> None:
        self.series.setdefault(key, Series()).errors.append(error)

    def note(self, section: str, text: str) -> None:
        if text not in self.notes.setdefault(section, []):
            self.notes[section].append(text)

    def get(self, key: str) -> Series:
        return self.series.get(key, Series())

    def median(self, key: str) -> float | None:
        return self.get(key).median

    def add_round(self, name: str, values: dict[str, float]) -> None:
        """One round of a measure whose subjects ran back to back (``paired_ratio`` reads them)."""
        rounds = self.facts.setdefault(f"rounds.{name}", [])
        assert isinstance(rounds, list)
        rounds.append(dict(values))

    def paired_ratio(self, name: str, key: str, base: str) -> tuple[float | None, int]:
        """The median over rounds of ``key``'s figure over ``base``'s in the same round, and how
        many rounds had both. Why: on a shared machine the pace moves between rounds by more than
        the lines between subjects; each round's two starts share its pace."""
        rounds = self.facts.get(f"rounds.{name}", [])
        assert isinstance(rounds, list)
        ratios = [r[key] / r[base] for r in rounds if r.get(key) is not None and r.get(base)]
        return (statistics.median(ratios) if ratios else None), len(ratios)
