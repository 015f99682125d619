"""A small OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks.

The real ``openai`` client talks to it over real sockets: non-streaming and SSE
streaming chat completions, streamed tool calls, HTTP errors, garbage bodies and
stalled streams. Replies are scripted (a queue) or computed (a responder callable).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from collections.abc import Callable


@dataclass
class Reply:
    text: str = ""
    chunks: list[str] | None = None
    """Stream these pieces (default: the text split into words)."""
    chunk_delay: float = 0.0
    gate: threading.Semaphore | None = None
    """Each chunk after the first waits for one ``gate.release()``: a test lets the next
    chunk go only once it has seen the last on screen (no race with a delay)."""
    tool_calls: list[dict] = field(default_factory=list)
    """Each {"name": ..., "arguments": dict | str, "id": optional}."""
    status: int = 200
    raw_body: str | None = None
    """Send this body verbatim (garbage tests)."""
    stall_after: int | None = None
    """Stream this many chunks, then go silent for ``stall_secs`` and drop the connection."""
    stall_secs: float = 5.0
    usage: dict | None = None
    delay: float = 0.0
    """Seconds before the first byte."""
    error_message: str = "scripted failure"
    error_code: str | None = None
    """The error's ``code`` (e.g. ``context_length_exceeded``), for a status other than 200."""
    headers: dict[str, str] = field(default_factory=dict)
    """Extra response headers (e.g. ``Retry-After`` with a 429)."""
    reasoning: list[str] = field(default_factory=list)
    """Stream these pieces as ``reasoning_content`` deltas before the text (a reasoning
    model's thinking, as vLLM and DeepSeek send it); a non-streamed reply carries them joined."""
    reasoning_delay: float = 0.0
    """Seconds between two reasoning pieces (a model that thinks for a while)."""


def _usage_for(request: dict, text: str, usage: dict | None) -> dict:
    if usage is not None:
        return usage
    prompt = sum(len(json.dumps(m)) for m in request.get("messages", [])) // 4
    completion = max(1, len(text) // 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


class LoopbackBrain:
    """Start with ``with LoopbackBrain() as brain:``; ``brain.url`` is the base URL."""

    def __init__(
        self,
        responder: Callable[[dict], Reply] | None = None,
        default: Reply | None = None,
        models: list[str] | None = None,
        port: int = 0,
        lists_models: bool = True,
        models_delay: float = 0.0,
        tls=None,
    ) -> None:
        """``lists_models`` False: ``/v1/models`` answers 404, as some servers' do;
        ``models_delay``: seconds before it answers (a server that hangs on its list);
        ``tls``: a server-side ``ssl.SSLContext``: the brain answers on https."""
        self.responder = responder
        self.default = default or Reply(text="Hello from the loopback brain.")
        self.models = models or ["loop-model"]
        self.lists_models = lists_models
        self.models_delay = models_delay
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self._queue: list[Reply] = []
        self._lock = threading.Lock()
        self.chunks_sent = 0
        self.last_chunk_sent_at = 0.0
        self.gets = 0
        """GET requests answered so far (an app's start-up check lists the models)."""
        brain = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output clean
                pass

            def do_GET(self):
                with brain._lock:
                    brain.gets += 1
                if brain.models_delay:
                    time.sleep(brain.models_delay)
                try:
                    if self.path.rstrip("/").endswith("/models") and brain.lists_models:
                        body = json.dumps(
                            {"object": "list", "data": [{"id": m, "object": "model", "created": 0, "owned_by": "loop"}
                                                        for m in brain.models]}
                        ).encode()
                        self._send(200, body)
                    else:
                        self._send(404, b'{"error": {"message": "not found"}}')
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client gave up waiting (a hung list, on purpose)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    request = json.loads(raw or b"{}")
                except ValueError:
                    request = {}
                with brain._lock:
                    brain.requests.append(request)
                    brain.headers.append(dict(self.headers.items()))
                reply = brain._next(request)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.raw_body is not None:
                    self._send(reply.status, reply.raw_body.encode())
                    return
                if reply.status != 200:
                    error = {"message": reply.error_message, "type": "server_error"}
                    if reply.error_code:
                        error["code"] = reply.error_code
                    self._send(reply.status, json.dumps({"error": error}).encode(), headers=reply.headers)
                    return
                if request.get("stream"):
                    self._stream(request, reply)
                else:
                    self._complete(request, reply)

            def _send(self, status: int, body: bytes, ctype: str = "application/json", headers=None):
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _complete(self, request: dict, reply: Reply):
                message: dict = {"role": "assistant", "content": reply.text or None}
                if reply.reasoning:
                    message["reasoning_content"] = "".join(reply.reasoning)
                if reply.tool_calls:
                    message["tool_calls"] = [
                        {
                            "id": call.get("id") or f"call_{i}",
                            "type": "function",
                            "function": {
                                "name": call["name"],
                                "arguments": call["arguments"] if isinstance(call["arguments"], str) else json.dumps(call["arguments"]),
                            },
                        }
                        for i, call in enumerate(reply.tool_calls)
                    ]
                body = {
                    "id": "cmpl-loop",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": request.get("model", "loop-model"),
                    "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if reply.tool_calls else "stop"}],
                    "usage": _usage_for(request, reply.text, reply.usage),
                }
                self._send(200, json.dumps(body).encode())

            def _event(self, payload: dict | str):
                data = payload if isinstance(payload, str) else json.dumps(payload)
                self.wfile.write(f"data: {data}\n\n".encode())
                self.wfile.flush()

            def _chunk(self, request: dict, delta: dict, finish: str | None = None) -> dict:
                return {
                    "id": "chunk-loop",
                    "object": "chat.completion.chunk",
                    "created": int(time.time()),
                    "model": request.get("model", "loop-model"),
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
                }

            def _stream(self, request: dict, reply: Reply):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                pieces = reply.chunks if reply.chunks is not None else _split(reply.text)
                try:
                    self._event(self._chunk(request, {"role": "assistant", "content": ""}))
                    for index, piece in enumerate(reply.reasoning):
                        # The gate holds every piece after the first, reasoning and text alike.
                        if index and reply.gate is not None and not reply.gate.acquire(timeout=120):
                            return
                        self._event(self._chunk(request, {"reasoning_content": piece}))
                        if reply.reasoning_delay:
                            time.sleep(reply.reasoning_delay)
                    for index, piece in enumerate(pieces, start=len(reply.reasoning)):
                        if index and reply.gate is not None and not reply.gate.acquire(timeout=120):
                            return  # the test is gone: drop the stream
                        if reply.stall_after is not None and index >= reply.stall_after:
                            time.sleep(reply.stall_secs)
                            return
                        self._event(self._chunk(request, {"content": piece}))
                        brain.chunks_sent += 1
                        brain.last_chunk_sent_at = time.monotonic()
                        if reply.chunk_delay:
                            time.sleep(reply.chunk_delay)
                    for i, call in enumerate(reply.tool_calls):
                        arguments = call["arguments"] if isinstance(call["arguments"], str) else json.dumps(call["arguments"])
                        head = {"index": i, "id": call.get("id") or f"call_{i}", "type": "function",
                                "function": {"name": call["name"], "arguments": ""}}
                        self._event(self._chunk(request, {"tool_calls": [head]}))
                        for start in range(0, len(arguments), 7):
                            piece = {"index": i, "function": {"arguments": arguments[start:start + 7]}}
                            self._event(self._chunk(request, {"tool_calls": [piece]}))
                    finish = "tool_calls" if reply.tool_calls else "stop"
                    self._event(self._chunk(request, {}, finish))
                    if (request.get("stream_options") or {}).get("include_usage"):
                        self._event({
                            "id": "chunk-loop", "object": "chat.completion.chunk", "created": int(time.time()),
                            "model": request.get("model", "loop-model"), "choices": [],
                            "usage": _usage_for(request, "".join(pieces), reply.usage),
                        })
                    self._event("[DONE]")
                except (BrokenPipeError, ConnectionResetError):
                    return

        self._server = _QuietServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        self.scheme = "http"
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
            self.scheme = "https"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def hangups(self) -> int:
        """Answers a client hung up on before they were written."""
        return self._server.hangups

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}/v1"

    def queue(self, *replies: Reply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def _next(self, request: dict) -> Reply:
        if self.responder is not None:
            return self.responder(request)
        with self._lock:
            if self._queue:
                return self._queue.pop(0)
        return self.default

    def start(self) -> LoopbackBrain:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> LoopbackBrain:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class _QuietServer(ThreadingHTTPServer):
    """A client that hangs up mid-answer (a test stopping a reply, an app killed with -9) is
    an ordinary event here, not a traceback on the test's output."""

    allow_reuse_address = True
    hangups = 0
    """How many answers a client hung up on (the tests wait on it)."""

    def handle_error(self, request, client_address) -> None:
        import sys

        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            self.hangups += 1
            return
        super().handle_error(request, client_address)


def _split(text: str) -> list[str]:
    """Word-sized pieces that keep their spaces, so joined they are the text."""
    pieces: list[str] = []
    current = ""
    for char in text:
        current += char
        if char == " ":
            pieces.append(current)
            current = ""
    if current:
        pieces.append(current)
    return pieces


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


if __name__ == "__main__":  # a server for manual runs: python -m keeltui_dev.loopback
    with LoopbackBrain() as b:
        print(b.url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
