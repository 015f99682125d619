"""The real openai client against the loopback server: no mocked client anywhere."""

from __future__ import annotations

import json

import pytest

from keeltui.brain import (
    Brain, BrainHTTPError, BrainReplyError, BrainTimeout, BrainUnavailable, StreamDone, TextDelta,
)
from keeltui.config import BrainConfig
from keeltui.text.jsonextract import EmptyReplyError, NoJSONError
from keeltui_dev.loopback import LoopbackBrain, Reply, free_port

TOOLS = [{
    "type": "function",
    "function": {"name": "ask", "description": "ask", "parameters": {
        "type": "object", "properties": {"question": {"type": "string"}}, "required": ["question"]}},
}]


def make_brain(url: str, **overrides) -> Brain:
    settings = dict(base_url=url, model="loop-model", timeout_secs=3.0, context_window=1000)
    settings.update(overrides)
    return Brain(BrainConfig(**settings))


async def collect(brain: Brain, role: str = "chief", **kwargs):
    events = [e async for e in brain.stream(role, [{"role": "user", "content": "hi"}], **kwargs)]
    return events


async def test_stream_text_and_usage(loopback):
    loopback.queue(Reply(text="one two three", usage={"prompt_tokens": 300, "completion_tokens": 200, "total_tokens": 500}))
    brain = make_brain(loopback.url)
    events = await collect(brain)
    deltas = [e.text for e in events if isinstance(e, TextDelta)]
    done = events[-1]
    assert isinstance(done, StreamDone)
    assert "".join(deltas) == "one two three" == done.completion.text
    assert len(deltas) == 3
    assert done.completion.usage.total == 500
    assert done.completion.usage.fraction == pytest.approx(0.5)
    assert loopback.requests[-1]["stream"] is True
    await brain.aclose()


async def test_streamed_tool_calls_are_reassembled(loopback):
    loopback.queue(Reply(tool_calls=[
        {"name": "ask", "arguments": {"question": "What is a derivative, in your words?"}},
        {"name": "ask", "arguments": {"question": "second"}, "id": "call_b"},
    ]))
    brain = make_brain(loopback.url)
    done = (await collect(brain, tools=TOOLS))[-1]
    calls = done.completion.tool_calls
    assert [c.name for c in calls] == ["ask", "ask"]
    assert calls[0].parsed() == {"question": "What is a derivative, in your words?"}
    assert calls[1].id == "call_b"
    assert loopback.requests[-1]["tools"][0]["function"]["name"] == "ask"
    await brain.aclose()


async def test_complete_with_tool_calls(loopback):
    loopback.queue(Reply(text="thinking", tool_calls=[{"name": "ask", "arguments": "{\"question\": \"q\"}"}]))
    brain = make_brain(loopback.url)
    completion = await brain.complete("teacher", [{"role": "user", "content": "x"}], tools=TOOLS)
    assert completion.text == "thinking"
    assert completion.tool_calls[0].parsed() == {"question": "q"}
    assert completion.usage.context_window == 1000
    await brain.aclose()


async def test_per_role_models_reach_the_server(loopback):
    brain = Brain(BrainConfig(base_url=loopback.url, model="base", timeout_secs=3))
    brain.config.models.judge = "tiny-judge"
    await brain.complete("judge", [{"role": "user", "content": "x"}])
    await brain.complete("chief", [{"role": "user", "content": "x"}])
    assert [r["model"] for r in loopback.requests] == ["tiny-judge", "base"]
    await brain.aclose()


@pytest.mark.parametrize("text, expected", [
    ('{"drifting": false}', {"drifting": False}),
    ('```json\n{"drifting": true, "message": "Back to it."}\n```', {"drifting": True, "message": "Back to it."}),
    ('Sure! Here you go: {"a": {"b": 1}} hope that helps', {"a": {"b": 1}}),
])
async def test_judge_extracts_json(loopback, text, expected):
    loopback.queue(Reply(text=text))
    brain = make_brain(loopback.url)
    data, completion = await brain.judge("judge", [{"role": "user", "content": "x"}])
    assert data == expected
    assert completion.usage.total > 0
    await brain.aclose()


async def test_judge_typed_errors(loopback):
    loopback.queue(Reply(text=""), Reply(text="I think you are fine."))
    brain = make_brain(loopback.url)
    with pytest.raises(EmptyReplyError):
        await brain.judge("judge", [{"role": "user", "content": "x"}])
    with pytest.raises(NoJSONError):
        await brain.judge("judge", [{"role": "user", "content": "x"}])
    await brain.aclose()


async def test_http_error_is_typed(loopback):
    loopback.queue(Reply(status=500, error_message="model melted"), Reply(status=429))
    brain = make_brain(loopback.url)
    with pytest.raises(BrainHTTPError) as caught:
        await brain.complete("chief", [{"role": "user", "content": "x"}])
    assert caught.value.status == 500 and "model melted" in str(caught.value)
    with pytest.raises(BrainHTTPError):
        await collect(brain)
    await brain.aclose()


async def test_garbage_body_is_a_reply_error(loopback):
    loopback.queue(Reply(raw_body="<html>proxy error</html>"))
    brain = make_brain(loopback.url)
    with pytest.raises(BrainReplyError):
        await brain.complete("chief", [{"role": "user", "content": "x"}])
    await brain.aclose()


async def test_stalled_stream_times_out_after_partial_text(loopback):
    loopback.queue(Reply(text="alpha beta gamma delta", stall_after=2, stall_secs=5))
    brain = make_brain(loopback.url, timeout_secs=0.5)
    seen: list[str] = []
    with pytest.raises(BrainTimeout):
        async for event in brain.stream("chief", [{"role": "user", "content": "x"}]):
            if isinstance(event, TextDelta):
                seen.append(event.text)
    assert "".join(seen) == "alpha beta "
    await brain.aclose()


async def test_slow_stream_completes_within_timeout(loopback):
    loopback.queue(Reply(text="a b c d e", chunk_delay=0.05))
    brain = make_brain(loopback.url, timeout_secs=2)
    done = (await collect(brain))[-1]
    assert done.completion.text == "a b c d e"
    await brain.aclose()


async def test_unreachable_endpoint_is_typed():
    brain = make_brain(f"http://127.0.0.1:{free_port()}/v1")
    with pytest.raises(BrainUnavailable) as caught:
        await brain.complete("chief", [{"role": "user", "content": "x"}])
    assert "127.0.0.1" in str(caught.value)
    with pytest.raises(BrainUnavailable):
        await brain.list_models()
    await brain.aclose()


async def test_usage_is_estimated_when_the_server_sends_none():
    def no_usage(request):
        return Reply(text="x" * 400, usage={})
    with LoopbackBrain(responder=no_usage) as server:
        brain = make_brain(server.url)
        completion = await brain.complete("chief", [{"role": "user", "content": "y" * 400}])
        assert completion.usage.estimated
        assert completion.usage.total >= 150
        await brain.aclose()


async def test_api_key_is_sent_as_bearer_and_never_in_errors(loopback):
    brain = Brain(BrainConfig(base_url=loopback.url, timeout_secs=3), api_key="sk-very-secret")
    loopback.queue(Reply(status=500))
    with pytest.raises(BrainHTTPError) as caught:
        await brain.complete("chief", [{"role": "user", "content": "x"}])
    assert {k.lower(): v for k, v in loopback.headers[-1].items()}["authorization"] == "Bearer sk-very-secret"
    assert "sk-very-secret" not in str(caught.value)
    await brain.aclose()


def test_module_import_does_not_import_openai():
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", "import sys, keeltui.brain; print('openai' in sys.modules)"],
        capture_output=True, text=True, check=True,
    )
    assert out.stdout.strip() == "False"


def test_tool_call_arguments_must_be_an_object():
    from keeltui.brain import ToolCall

    with pytest.raises(ValueError):
        ToolCall("c", "ask", "[1, 2]").parsed()
    with pytest.raises(ValueError):
        ToolCall("c", "ask", "{broken").parsed()
    assert ToolCall("c", "ask", "").parsed() == {}
    assert json.loads(ToolCall("c", "ask", '{"a": 1}').as_openai()["function"]["arguments"]) == {"a": 1}


async def test_a_broken_event_in_the_stream_is_a_reply_error(loopback):
    loopback.queue(Reply(raw_body='data: {"choices": [{"delta": {"content": "ok"}}]}\n\ndata: {not json}\n\n'))
    brain = make_brain(loopback.url)
    with pytest.raises(BrainReplyError):
        await collect(brain)
    await brain.aclose()


async def test_a_raw_line_separator_inside_a_payload_is_text_not_a_line_end(loopback):
    # JSON may carry U+2028, a form feed or a vertical tab unescaped in a string (servers
    # that write UTF-8 as it is). The SDK's iter_lines (str.splitlines) cut the event there
    # and the reply failed as unreadable; SSE lines end only at CR, LF or CRLF.
    words = "one\u2028two\x0cthree\x0bfour"
    body = "data: " + json.dumps({"choices": [{"delta": {"content": words}}]}, ensure_ascii=False) + "\r\n\r\n"
    body += 'data: {"choices": [{"delta": {"content": " é"}, "finish_reason": "stop"}]}\r\rdata: [DONE]\n\n'
    loopback.queue(Reply(raw_body=body))
    brain = make_brain(loopback.url)
    events = await collect(brain)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == words + " é"
    await brain.aclose()


async def test_an_error_event_mid_stream_is_a_reply_error(loopback):
    loopback.queue(Reply(raw_body='data: {"error": {"message": "out of memory"}}\n\n'))
    brain = make_brain(loopback.url)
    with pytest.raises(BrainReplyError, match="out of memory"):
        await collect(brain)
    await brain.aclose()


def test_the_first_call_never_imports_openai_on_the_event_loop(loopback):
    """The client is imported in a thread: the loop keeps ticking through a first call."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(f"""
        import asyncio, sys, threading
        from keeltui.brain import Brain
        from keeltui.config import BrainConfig
        loop_thread = threading.get_ident()
        seen = []
        class Watch:
            def find_spec(self, name, path=None, target=None):
                if name == "openai" and threading.get_ident() == loop_thread:
                    seen.append(name)
                return None
        sys.meta_path.insert(0, Watch())
        async def main():
            brain = Brain(BrainConfig(base_url="{loopback.url}", timeout_secs=3))
            async for _ in brain.stream("chief", [{{"role": "user", "content": "x"}}]):
                pass
            await brain.aclose()
        asyncio.run(main())
        print(seen)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_client_hanging_up_is_no_traceback_on_the_servers_output(capfd):
    # A reply the client gave up on (a stopped reply, an app killed mid-answer) made the
    # loopback server print a BrokenPipe traceback into the suite's output.
    import socket
    import time as _time

    from keeltui_dev.loopback import LoopbackBrain, Reply

    with LoopbackBrain() as server:
        server.queue(*[Reply(text="x" * 200_000, delay=0.3) for _ in range(3)])
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", server.port)) as sock:
                body = b'{"model": "loop-model", "messages": []}'
                sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                             b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        deadline = _time.monotonic() + 30
        while server.hangups < 3 and _time.monotonic() < deadline:
            _time.sleep(0.05)
        assert server.hangups == 3
    assert "Traceback" not in capfd.readouterr().err


WARM = """
import sys
from keeltui.brain import Brain
from keeltui.config import BrainConfig
Brain(BrainConfig(base_url="http://127.0.0.1:9/v1", model="m")).warm()
print("openai.resources.chat.completions" in sys.modules, "openai.resources.models" in sys.modules)
"""


def test_warming_the_client_loads_what_a_first_reply_uses():
    # The client loads its resources on first use (~20 ms for chat completions). Warmed on a
    # thread after the first frame, they must be loaded then, not by the first reply's call
    # on the UI thread.
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", WARM], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]


async def test_a_completion_is_read_without_the_sdk_s_typed_objects(loopback):
    """The SDK's typed completion would build pydantic's validators for every completion type
    at the first call (memory held for good, time on the event loop): it is read raw."""
    from openai.types.chat import ChatCompletion

    loopback.queue(Reply(text="<think>first</think>the answer", reasoning=["weighing "],
                         tool_calls=[{"name": "note", "arguments": {"a": 1}, "id": "call-1"}]))
    brain = make_brain(loopback.url)
    completion = await brain.complete("chief", [{"role": "user", "content": "x"}])
    assert completion.text == "the answer" and completion.thinking == "weighing first"
    assert completion.tool_calls[0].name == "note" and completion.tool_calls[0].parsed() == {"a": 1}
    assert completion.tool_calls[0].id == "call-1" and not completion.usage.estimated
    assert ChatCompletion.__pydantic_complete__ is False
    await brain.aclose()
