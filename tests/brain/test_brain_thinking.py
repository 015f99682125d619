"""Reasoning through the real openai client and the loopback server: kept out of the text."""

from __future__ import annotations

from keeltui.brain import StreamDone, TextDelta, ThinkingDelta
from keeltui_dev.loopback import Reply
from tests.brain.test_brain import collect, make_brain


async def test_reasoning_content_deltas_are_thinking_not_text(loopback):
    loopback.queue(Reply(reasoning=["Let me ", "count."], chunks=["Three ", "apples."]))
    events = await collect(make_brain(loopback.url))
    assert [e.text for e in events if isinstance(e, ThinkingDelta)] == ["Let me ", "count."]
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Three apples."
    done = events[-1]
    assert isinstance(done, StreamDone)
    assert done.completion.text == "Three apples." and done.completion.thinking == "Let me count."


async def test_a_think_block_cut_across_chunks_is_thinking_not_text(loopback):
    loopback.queue(Reply(chunks=["<th", "ink>\nhmm, ", "seven</th", "ink>\n\n", "Sev", "en."]))
    events = await collect(make_brain(loopback.url))
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert text == "Seven."
    assert "".join(e.text for e in events if isinstance(e, ThinkingDelta)) == "\nhmm, seven"
    assert events[-1].completion.text == "Seven."


async def test_a_complete_call_keeps_thinking_out_of_the_text(loopback):
    loopback.queue(Reply(text="<think>first this</think>\n\nThe summary."),
                   Reply(text="Plain.", reasoning=["deep ", "thought"]))
    brain = make_brain(loopback.url)
    one = await brain.complete("chief", [{"role": "user", "content": "hi"}])
    assert (one.text, one.thinking) == ("The summary.", "first this")
    two = await brain.complete("chief", [{"role": "user", "content": "hi"}])
    assert (two.text, two.thinking) == ("Plain.", "deep thought")


async def test_odd_reasoning_values_are_dropped_not_fatal(loopback):
    import json

    chunk = {"choices": [{"index": 0, "delta": {"reasoning_content": {"x": 1}, "content": "ok"}}]}
    loopback.queue(Reply(raw_body=None, chunks=["ok"]))
    body = f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n"
    loopback.queue(Reply(raw_body=body))
    brain = make_brain(loopback.url)
    await collect(brain)  # the first, ordinary reply
    events = await collect(brain)
    assert events[-1].completion.text == "ok" and events[-1].completion.thinking == ""
