"""Text from outside (model replies, window titles, reports) made safe to draw.

Nothing from outside may reach the terminal as an escape sequence, repaint the
owner's screen, or reorder what is displayed. Stored rows keep the original text;
this runs where text is drawn, judged or sent to a notifier. Pure: str in, str out.
"""

from __future__ import annotations

import re
import unicodedata

# ESC-introduced sequences first, so their parameter bytes go with them:
# CSI (ESC [ ... final), OSC/DCS/SOS/PM/APC strings (ended by BEL or ST, or the end),
# then any other two-byte ESC sequence (or a lone ESC).
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b[\]PX^_].*?(?:\x07|\x1b\\|$)"
    r"|\x1b[ -/]*[0-~]?",
    re.DOTALL,
)
# The 8-bit forms of CSI/OSC and friends are C1 controls; their bodies go too.
_C1_STRINGS = re.compile(r"\x9b[0-?]*[ -/]*[@-~]|[\x90\x98\x9d\x9e\x9f].*?(?:\x07|\x9c|$)", re.DOTALL)
# C0 (but tab and newline), DEL, C1, and bidi embeddings/overrides/isolates, which
# can make text display as something it is not.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufeff]")
_LINE_BREAKS = re.compile(r"[\t\n\r\v\f\x85\u2028\u2029]+")
_RUNS = re.compile(r" {2,}")

ELLIPSIS = "…"


def _as_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", errors="replace")
    return str(value)


def clean_text(value: object) -> str:
    """Escape sequences and control characters removed; newlines and tabs kept.

    Lone surrogates (from a lossy decode upstream) cannot be encoded for the
    terminal or SQLite: they are replaced rather than left to fail later.
    """
    text = _as_text(value)
    if not text:
        return ""
    text = _C1_STRINGS.sub("", _ESCAPES.sub("", text))
    text = _CONTROLS.sub("", text.replace("\r\n", "\n"))
    return text.encode("utf-8", errors="replace").decode("utf-8")


def _is_joining(char: str) -> bool:
    """True for a code point that belongs to the character before it."""
    return bool(unicodedata.combining(char)) or char in "\u200d\ufe0e\ufe0f"


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` code points, marked with an ellipsis.

    The cut backs off over combining marks and joiners so that an accent is never
    left dangling without its base character.
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


def one_line(value: object, limit: int = 200) -> str:
    """One printable line: cleaned, whitespace folded to single spaces, clipped."""
    text = _LINE_BREAKS.sub(" ", clean_text(value))
    return clip(_RUNS.sub(" ", text).strip(), limit)


_MARKDOWN_HINT = re.compile(r"[*_`#>|\[\]<]|^\s*(?:[-+]\s|\d+[.)]\s)|\n\s*\n", re.MULTILINE)


def looks_like_markdown(text: str) -> bool:
    """Whether ``text`` uses any Markdown syntax (plain prose renders faster as text)."""
    return bool(_MARKDOWN_HINT.search(text))


def from_outside(value: str | bytes) -> str:
    """Bytes or text from outside (stdin, argv, a file) as valid text, for storing.

    Invalid UTF-8 becomes U+FFFD: argv carries undecodable bytes as lone surrogates
    (Python's surrogateescape), which SQLite and the terminal cannot encode.
    """
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", errors="replace")
    try:
        return value.encode("utf-8", errors="surrogateescape").decode("utf-8", errors="replace")
    except UnicodeEncodeError:
        return value.encode("utf-8", errors="replace").decode("utf-8")


SOURCE_KEY_MAX = 120


def check_source_key(value: str) -> str:
    """A report's source key: one printable line of at most ``SOURCE_KEY_MAX`` characters.

    Returns the key (stripped); raises ValueError saying what is wrong with it.
    """
    key = from_outside(value).strip()
    if not key:
        raise ValueError("--source is empty")
    if _LINE_BREAKS.search(key):
        raise ValueError("--source must be one line")
    if _CONTROLS.search(key) or "\x1b" in key:
        raise ValueError("--source must not contain control characters")
    if len(key) > SOURCE_KEY_MAX:
        raise ValueError(f"--source is {len(key)} characters long; at most {SOURCE_KEY_MAX}")
    return key
