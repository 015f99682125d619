"""The thinking splitter over any chunking, its label and its block (pure)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from keeltui.chief.thinking import (
    ANSWER, THINKING, LiveThinking, ThinkSplitter, split_think, thinking_block, thought_label,
)


@pytest.mark.parametrize("text, thinking, answer", [
    ("plain answer", "", "plain answer"),
    ("<think>why</think>because", "why", "because"),
    ("<think>\nstep 1\nstep 2\n</think>\n\nThe answer.", "\nstep 1\nstep 2\n", "The answer."),
    ("  \n<think>lead</think>  x", "lead", "x"),
    ("<think>never closed", "never closed", ""),
    ("<think></think>only answer", "", "only answer"),
    ("answer then <think>not thinking</think>", "", "answer then <think>not thinking</think>"),
    ("<thinking>is not the tag</thinking>", "", "<thinking>is not the tag</thinking>"),
    ("<thi", "", "<thi"),
    ("   ", "", "   "),
    ("", "", ""),
    ("<think>a </think b</think>c", "a </think b", "c"),
    ("<think>x</think>\n\n", "x", ""),
])
def test_split_think_of_a_whole_reply(text, thinking, answer):
    assert split_think(text) == (thinking, answer)


def _stream(chunks: list[str]) -> tuple[str, str, list[tuple[str, str]]]:
    splitter = ThinkSplitter()
    pieces = [p for chunk in chunks for p in splitter.feed(chunk)] + splitter.finish()
    thinking = "".join(t for kind, t in pieces if kind == THINKING)
    answer = "".join(t for kind, t in pieces if kind == ANSWER)
    return thinking, answer, pieces


@pytest.mark.parametrize("chunks", [
    ["<", "th", "ink>", "rea", "son</", "thi", "nk>", "\n\n", "Ans", "wer"],
    ["<think>reason</think>Answer"],
    ["<think>reason</", "think>", "Answer"],
    ["\n", "<think", ">reason<", "/think>\n", "\nAnswer"],
])
def test_a_tag_split_across_chunks_is_still_a_tag(chunks):
    thinking, answer, pieces = _stream(chunks)
    assert (thinking, answer) == ("reason", "Answer")
    assert not any("<" in text for _, text in pieces), pieces


def test_the_answer_streams_as_it_comes_without_a_think_block():
    splitter = ThinkSplitter()
    assert splitter.feed("Hello ") == [(ANSWER, "Hello ")]
    assert splitter.feed("<think>") == [(ANSWER, "<think>")]


def test_thinking_streams_before_its_end_tag_arrives():
    splitter = ThinkSplitter()
    assert splitter.feed("<think>step one ") == [(THINKING, "step one ")]
    # "</th" may become the end tag: held back, never shown as thinking.
    assert splitter.feed("step two </th") == [(THINKING, "step two ")]
    assert splitter.feed("ink>Done") == [(ANSWER, "Done")]


_ALPHABET = st.sampled_from(["<think>", "</think>", "<", ">", "/", "t", "h", "i", "n", "k", " ", "\n", "a", "é", "<th"])


@settings(max_examples=400, deadline=None)
@given(parts=st.lists(_ALPHABET, max_size=30), cuts=st.lists(st.integers(min_value=0, max_value=200), max_size=12))
def test_any_chunking_splits_as_the_whole_reply_does(parts, cuts):
    text = "".join(parts)
    points = sorted({min(c, len(text)) for c in cuts})
    chunks = [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=False)]
    thinking, answer, _ = _stream(chunks)
    assert (thinking, answer) == split_think(text)


@settings(max_examples=200, deadline=None)
@given(thinking=st.text(max_size=40).filter(lambda t: "</think>" not in t),
       answer=st.text(max_size=40).filter(lambda a: a == a.lstrip()),
       size=st.integers(min_value=1, max_value=9))
def test_any_block_comes_back_whole_in_any_chunk_size(thinking, answer, size):
    text = f"<think>{thinking}</think>\n\n{answer}"
    chunks = [text[i:i + size] for i in range(0, len(text), size)]
    got_thinking, got_answer, _ = _stream(chunks)
    assert got_thinking == thinking and got_answer == answer


@pytest.mark.parametrize("seconds, label", [
    (None, "thought"), (0.2, "thought for 1 s"), (12.4, "thought for 12 s"),
    (60, "thought for 1 min"), (125, "thought for 2 min 5 s"),
])
def test_thought_label(seconds, label):
    assert thought_label(seconds) == label


def test_the_block_is_folded_to_one_line_live_shows_the_newest_lines():
    assert thinking_block("", 3, live=False, unfolded=False) is None
    text = "one\ntwo\nthree\nfour"
    assert thinking_block(text, 12, live=False, unfolded=False).plain == "▸ thought for 12 s"
    assert thinking_block(text, 12, live=False, unfolded=True).plain == "▾ thought for 12 s\none\ntwo\nthree\nfour"
    assert thinking_block(text, 3.2, live=True, unfolded=False).plain == "▾ thinking… 3 s\ntwo\nthree\nfour"
    # Escapes in a model's thinking never reach the terminal.
    assert "\x1b" not in thinking_block("a\x1b[2Jb", 1, live=False, unfolded=True).plain


def test_live_thinking_is_timed_from_its_first_piece_to_the_answer():
    now = [100.0]
    live = LiveThinking(clock=lambda: now[0])
    assert live.seconds() is None
    live.append("hmm")
    now[0] = 104.0
    assert live.seconds() == 4.0
    live.end()
    now[0] = 200.0
    assert live.seconds() == 4.0 and live.ended and live.text == "hmm"
