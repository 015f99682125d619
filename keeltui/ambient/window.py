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

from keeltui.text.durations import format_duration

from keeltui.text.textsafe import one_line

log = logging.getLogger("keeltui.ambient.window")

TEXT_LIMIT = 300
EXCLUDED = "excluded"


@dataclass(frozen=True)
class WindowSnapshot:
    """The active window at one moment. Fields are cleaned on construction."""

    wm_class: str
    title: str
    at: float
    idle_secs: float | None = None
    """Seconds since the owner last touched keyboard or mouse, when the source knows."""

    def __post_init__(self) -> None:
        # Cleaning here, not in each source, means no code path can build an
        # unclean snapshot (tests and the app included).
        object.__setattr__(self, "wm_class", one_line(self.wm_class, TEXT_LIMIT))
        object.__setattr__(self, "title", one_line(self.title, TEXT_LIMIT))


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


class Seen(str):
    """A window title that carries its time, so a judge can tell a current long stay
    from an old glance: ``secs`` in front, left ``ago`` seconds ago (0: still in front).

    A ``str`` subclass on purpose: everything that reads titles keeps working, and
    whatever wants the time reads the attributes.
    """

    secs: float
    ago: float

    def __new__(cls, title: str, secs: float = 0.0, ago: float = 0.0) -> Seen:
        obj = super().__new__(cls, title)
        obj.secs = max(0.0, float(secs))
        obj.ago = max(0.0, float(ago))
        return obj

    def describe(self) -> str:
        """``"12m in front, now"`` / ``"40s in front, 25m ago"``."""
        when = "now" if self.ago < 1 else f"{format_duration(self.ago)} ago"
        return f"{format_duration(self.secs)} in front, {when}"


def timed_titles(entries: Iterable[tuple[str, float]], now: float) -> list[Seen]:
    """``(title, first seen at)`` in order, as :class:`Seen`: each stayed until the next began."""
    items = list(entries)
    out = []
    for i, (title, start) in enumerate(items):
        end = items[i + 1][1] if i + 1 < len(items) else now
        out.append(Seen(title, end - start, now - end))
    return out


def is_away(snapshot: WindowSnapshot | None, after_secs: float) -> bool:
    """Away from the keyboard: the source knows the idle time and it reached ``after_secs``.

    A source that cannot tell (or ``after_secs`` <= 0, the feature off) is never away.
    """
    if snapshot is None or snapshot.idle_secs is None or after_secs <= 0:
        return False
    return snapshot.idle_secs >= after_secs
