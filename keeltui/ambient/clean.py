"""Untrusted text for the ambient side (titles, task lines, judge replies): one line.

The cleaning itself lives in :mod:`keeltui.textsafe`, shared with every surface.
"""

from __future__ import annotations

from keeltui.textsafe import ELLIPSIS, clip, one_line

__all__ = ["ELLIPSIS", "clip", "clean_text"]


def clean_text(value: object, limit: int = 300) -> str:
    """One printable line: escapes and controls removed, spaces collapsed, clipped."""
    return one_line(value, limit)
