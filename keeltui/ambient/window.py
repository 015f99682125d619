"""What the sentinel and focus mode see of a window: a cleaned snapshot, and privacy.

Pure values: the adapters in :mod:`keeltui.adapters.evidence` build snapshots from
X11, tmux or a command; everything downstream (judges, focus, the sentinel) only
sees these.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from .clean import clean_text

log = logging.getLogger("keeltui.ambient.window")

TEXT_LIMIT = 300
EXCLUDED = "excluded"


@dataclass(frozen=True)
class WindowSnapshot:
    """The active window at one moment. Fields are cleaned on construction."""

    wm_class: str
    title: str
    at: float

    def __post_init__(self) -> None:
        # Cleaning here, not in each source, means no code path can build an
        # unclean snapshot (tests and the app included).
        object.__setattr__(self, "wm_class", clean_text(self.wm_class, TEXT_LIMIT))
        object.__setattr__(self, "title", clean_text(self.title, TEXT_LIMIT))


# --------------------------------------------------------------------- privacy


def compile_exclusions(patterns: Iterable[str]) -> list[re.Pattern[str]]:
    """Compile case-insensitive exclusion regexes; ValueError names a bad one."""
    compiled = []
    for pattern in patterns:
        try:
            compiled.append(re.compile(str(pattern), re.IGNORECASE))
        except re.error as exc:
            raise ValueError(f"bad exclusion pattern {pattern!r}: {exc}") from None
    return compiled


@functools.lru_cache(maxsize=32)
def _compiled(patterns: tuple[str, ...]) -> list[re.Pattern[str]] | None:
    try:
        return compile_exclusions(patterns)
    except ValueError as exc:
        log.warning("%s; hiding every title until it is fixed", exc)
        return None


def apply_exclusions(snapshot: WindowSnapshot, patterns: Iterable[str | re.Pattern[str]]) -> WindowSnapshot:
    """``snapshot`` with its title replaced by ``excluded`` if a pattern matches.

    A pattern may match the title or the class (so a password manager can be
    hidden by its class); only the title is replaced, the class stays so the
    judges still know what kind of window it was. A pattern that does not
    compile fails closed: every title is hidden, because privacy beats insight.
    """
    items = list(patterns)
    if not items:
        return snapshot
    if all(isinstance(p, re.Pattern) for p in items):
        compiled: list[re.Pattern[str]] | None = items  # type: ignore[assignment]
    else:
        key = tuple(p.pattern if isinstance(p, re.Pattern) else str(p) for p in items)
        compiled = _compiled(key)
    if compiled is None or any(p.search(snapshot.title) or p.search(snapshot.wm_class) for p in compiled):
        return replace(snapshot, title=EXCLUDED)
    return snapshot
