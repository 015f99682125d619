"""SSE lines from bytes however the network cuts them (keeltui/text/sse_lines.py)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from keeltui.text.sse_lines import SSELines


def lines_of(chunks: list[bytes]) -> list[str]:
    split = SSELines()
    out: list[str] = []
    for chunk in chunks:
        out += split.feed(chunk)
    return out + split.end()


def test_a_stream_in_one_read_and_in_single_bytes():
    body = 'data: {"a": 1}\n\ndata: {"b": "é"}\r\n\r\ndata: [DONE]\r\r'.encode()
    expected = ['data: {"a": 1}', "", 'data: {"b": "é"}', "", "data: [DONE]", ""]
    assert lines_of([body]) == expected
    assert lines_of([body[i:i + 1] for i in range(len(body))]) == expected  # é and CRLF cut too


def test_only_cr_lf_and_crlf_end_a_line():
    # A raw U+2028, a form feed or a vertical tab inside a JSON string is not a line end
    # (str.splitlines, under httpx's aiter_lines, cuts the payload there).
    body = 'data: {"t": "a\u2028b\x0cc\x0bd\x1ce"}\n'.encode()
    assert lines_of([body]) == ['data: {"t": "a\u2028b\x0cc\x0bd\x1ce"}']


def test_bad_utf8_is_replaced_and_a_last_line_without_its_end_is_kept():
    assert lines_of([b"data: \xff\n", b"data: tail"]) == ["data: \ufffd", "data: tail"]


text_with_ends = st.lists(
    st.tuples(st.text(alphabet=st.characters(blacklist_characters="\r\n"), max_size=12),
              st.sampled_from(["\n", "\r", "\r\n"])),
    max_size=12)


@given(text_with_ends, st.lists(st.integers(0, 200), max_size=8))
def test_any_cut_of_the_bytes_gives_the_same_lines(parts, cuts):
    body = "".join(line + end for line, end in parts).encode()
    points = sorted({min(c, len(body)) for c in cuts})
    chunks = [body[a:b] for a, b in zip([0, *points], [*points, len(body)], strict=True)]
    expected = re.split(r"\r\n|\r|\n", body.decode())[:-1] if body else []
    assert lines_of(chunks) == expected
