"""Text from outside (model replies, window titles, reports) made safe to draw.

Nothing from outside may reach the terminal as an escape sequence or be read as Rich
markup. Stored rows keep the original text; this runs where text is drawn or judged.
"""

from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, and the C1 range (which some terminals
# honour as 8-bit escapes), plus lone surrogates that cannot be encoded.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
# A whole escape sequence (CSI, OSC ... BEL/ST, and two-byte escapes) goes at once,
# so its printable tail does not survive as stray text.
_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"          # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC, ended by BEL or ST (or not at all)
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"   # DCS, SOS, PM, APC
    r"|\x1b[@-Z\\-_]"                   # two-byte escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"           # 8-bit CSI
)


def clean_text(text: str) -> str:
    """Remove escape sequences and control characters; keep newlines and tabs."""
    if not text:
        return ""
    return _CONTROL.sub("", _ESCAPE_SEQUENCE.sub("", text))


def one_line(text: str, limit: int = 200) -> str:
    """Clean, fold whitespace to single spaces, and clip to ``limit`` characters."""
    line = " ".join(clean_text(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
