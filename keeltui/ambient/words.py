"""Meaningful words, for the local (no-brain) matchers.

Deliberately crude: lowercase alphanumeric runs, short words and stopwords
dropped, a trailing plural "s" folded. Good enough to tell "report.md — vim"
from "YouTube", and predictable enough to explain in one sentence.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

STOPWORDS = frozenset(
    """
    about above after again against also another because been before being below between
    both could does doing down during each from further have having here hers herself
    himself into itself just more most myself only other ours ourselves over same should
    some such than that their theirs them themselves then there these they this those
    through under until very what when where which while whom will with would your yours
    yourself yourselves make made want need like today todays tomorrow week goal goals
    task tasks life domain domains nothing file none work working thing things stuff
    http https www com org net html untitled window new tab home page frame clipped
    the and for are but not you all any can had her was one our out his has how its
    may who did get got let put say she too use via per off own yet
    """.split()
)
# Frame headings and our own filler sentence must never count as matches.


def fold(word: str) -> str:
    """Fold a simple plural so "reports" meets "report"."""
    if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def meaningful_words(text: str, min_len: int = 4) -> set[str]:
    """The folded, lowercased words of ``text`` that carry meaning."""
    words = set()
    for match in _WORD.finditer(text.lower()):
        word = match.group(0)
        if len(word) >= min_len and word not in STOPWORDS:
            words.add(fold(word))
    return words
