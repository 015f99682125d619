"""The lines of a server-sent event stream, from its bytes as the network hands them over.

An SSE line ends with CRLF, LF or CR, and only those: a JSON payload may hold a raw U+2028
or a form feed inside a string, which ``str.splitlines`` (httpx's ``aiter_lines``, under the
openai SDK's ``iter_lines``) cuts in two: the event became unreadable and the reply failed.
Bad UTF-8 is replaced, never fatal (what httpx does).
"""

from __future__ import annotations

import codecs


class SSELines:
    """Feed it the stream's bytes (``feed``), then ``end()``; each returns the complete lines."""

    def __init__(self) -> None:
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._rest = ""
        self._after_cr = False  # the last line ended with CR: an LF that comes first is its pair

    def feed(self, data: bytes) -> list[str]:
        return self._split(self._decode(data))

    def end(self) -> list[str]:
        lines = self._split(self._decode(b"", True))
        if self._rest:
            lines.append(self._rest)
            self._rest = ""
        return lines

    def _split(self, text: str) -> list[str]:
        if not text:
            return []
        if self._after_cr:
            self._after_cr = False
            if text[0] == "\n":
                text = text[1:]
        text = self._rest + text
        if "\r" not in text:  # the common case: LF only
            *lines, self._rest = text.split("\n")
            return lines
        lines = []
        start, end = 0, len(text)
        while start < end:
            lf, cr = text.find("\n", start), text.find("\r", start)
            if lf < 0 and cr < 0:
                break
            if cr < 0 or 0 <= lf < cr:
                lines.append(text[start:lf])
                start = lf + 1
                continue
            lines.append(text[start:cr])
            start = cr + 1
            if start == end:
                self._after_cr = True  # its LF may come in the next read
            elif text[start] == "\n":
                start += 1
        self._rest = text[start:]
        return lines
