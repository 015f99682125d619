"""Make untrusted text (window titles, task lines, model replies) safe to show.

Window titles and command output come from programs we do not control. They may
carry terminal escape sequences that would repaint the owner's screen, NUL bytes,
or bidi overrides that reorder what is displayed. Everything that leaves an
evidence source, a task provider or a judge passes through :func:`clean_text`.
Pure: str in, str out.
"""

from __future__ import annotations

import re
import unicodedata

# ESC-introduced sequences first, so their parameter bytes go with them:
# CSI (ESC [ ... final), OSC/DCS/SOS/PM/APC strings (ended by BEL or ST),
# then any other two-byte ESC sequence.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b[\]PX^_].*?(?:\x07|\x1b\\|$)"  # OSC, DCS, SOS, PM, APC
    r"|\x1b[ -/]*[0-~]?",  # any other ESC sequence (or a lone ESC)
    re.DOTALL,
)
# The 8-bit forms of CSI/OSC and friends are C1 controls; strip their bodies too.
_C1_STRINGS = re.compile(r"\x9b[0-?]*[ -/]*[@-~]|[\x90\x98\x9d\x9e\x9f].*?(?:\x07|\x9c|$)", re.DOTALL)
# Whitespace controls become a space so that words either side stay apart.
_SPACES = re.compile(r"[\t\n\r\v\f\x85\u2028\u2029]+")
# Everything else in C0, DEL and C1 goes, as do bidi embeddings/overrides/isolates
# (they can make a title display as something it is not).
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufeff]")
_RUNS = re.compile(r" {2,}")

ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` code points, marked with an ellipsis.

    The cut backs off over combining marks and joiners so that an accent is
    never left dangling without its base character.
    """
    if limit <= 0:
        return ""
    if len(text) <= limit:
        return text
    if limit == 1:
        return ELLIPSIS
    cut = limit - 1
    while cut > 0 and _is_joining(text[cut]):
        cut -= 1
    return text[:cut].rstrip() + ELLIPSIS


def _is_joining(char: str) -> bool:
    """True for a code point that belongs to the character before it."""
    return bool(unicodedata.combining(char)) or char in "\u200d\ufe0e\ufe0f"


def clean_text(value: object, limit: int = 300) -> str:
    """One printable line: escapes and controls removed, spaces collapsed, clipped.

    ``None`` and non-strings are tolerated (they become ``""`` or their ``str``),
    bytes are decoded as UTF-8 with replacement, so callers never need a guard.
    """
    if value is None:
        return ""
    if isinstance(value, (bytes, bytearray)):
        text = bytes(value).decode("utf-8", errors="replace")
    else:
        text = str(value)
    text = _ESCAPES.sub("", text)
    text = _C1_STRINGS.sub("", text)
    text = _SPACES.sub(" ", text)
    text = _CONTROLS.sub("", text)
    # Lone surrogates (from a lossy decode upstream) cannot be encoded for the
    # terminal or SQLite; replace them rather than fail later.
    text = text.encode("utf-8", errors="replace").decode("utf-8")
    text = _RUNS.sub(" ", text).strip()
    return clip(text, limit)
