"""An Ollama server on loopback, for oterm: the same replies and the same chunk schedule
as the OpenAI-compatible server every other subject talks to.

oterm lists models with Ollama's native ``/api/tags`` and asks ``/api/show`` about the
one it uses; oterm 0.26 then chats through Ollama's OpenAI-compatible
``/v1/chat/completions`` (pydantic-ai's Ollama provider), older releases through the
native ``/api/chat`` (NDJSON). Both are served here. Each streamed piece updates the
loopback server's counters (``chunks_sent``, ``last_chunk_sent_at``), so a measure
reads lag the same way whichever protocol the subject speaks.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from bench.loop import Switchboard

MODEL = "loop-model:latest"
_DETAILS = {"parent_model": "", "format": "gguf", "family": "llama", "families": ["llama"],
            "parameter_size": "1B", "quantization_level": "Q4_0"}


def _stamp() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000000Z", time.gmtime())


class OllamaShim:
    def __init__(self, board: Switchboard) -> None:
        self.board = board
        shim = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _json(self, body: dict, status: int = 200) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_HEAD(self):
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):
                path = self.path.rstrip("/")
                if path.endswith("/api/tags"):
                    self._json({"models": [{"name": MODEL, "model": MODEL, "modified_at": _stamp(), "size": 1,
                                            "digest": "0" * 64, "details": _DETAILS}]})
                elif path.endswith("/api/version"):
                    self._json({"version": "0.6.0"})
                elif path.endswith("/v1/models"):
                    self._json({"object": "list", "data": [{"id": MODEL, "object": "model", "created": 0,
                                                            "owned_by": "library"}]})
                elif path.endswith("/api/ps"):
                    self._json({"models": []})
                elif path in ("", "/"):
                    self._json({"status": "Ollama is running"})
                else:
                    self._json({"error": "not found"}, 404)

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    request = json.loads(raw or b"{}")
                except ValueError:
                    request = {}
                path = self.path.rstrip("/")
                if path.endswith("/api/show"):
                    self._json({"modelfile": "", "parameters": "", "template": "{{ .Prompt }}",
                                "details": _DETAILS, "model_info": {"general.architecture": "llama"},
                                "capabilities": ["completion"], "modified_at": _stamp()})
                elif path.endswith("/api/chat") or path.endswith("/api/generate"):
                    shim._chat(self, request)
                elif path.endswith("/v1/chat/completions"):
                    shim._openai_chat(self, request)
                else:
                    self._json({"error": "not found"}, 404)

        ThreadingHTTPServer.allow_reuse_address = True
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self._server.server_address[1]}"

    def _chat(self, handler: BaseHTTPRequestHandler, request: dict) -> None:
        streamed = request.get("stream", True) is not False
        reply = self.board.answer({**request, "stream": streamed})
        pieces = reply.chunks if reply.chunks is not None else reply.text.split(" ")
        brain = self.board.brain
        model = request.get("model", MODEL)

        def line(content: str, done: bool) -> bytes:
            body = {"model": model, "created_at": _stamp(), "message": {"role": "assistant", "content": content},
                    "done": done}
            if done:
                body.update(done_reason="stop", total_duration=1, load_duration=1, prompt_eval_count=1,
                            prompt_eval_duration=1, eval_count=max(1, len(pieces)), eval_duration=1)
            return (json.dumps(body) + "\n").encode()

        if not streamed:
            data = line("".join(pieces), True)
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
            return
        handler.send_response(200)
        handler.send_header("Content-Type", "application/x-ndjson")
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.close_connection = True
        try:
            for piece in pieces:
                handler.wfile.write(line(piece, False))
                handler.wfile.flush()
                brain.chunks_sent += 1
                brain.last_chunk_sent_at = time.monotonic()
                if reply.chunk_delay:
                    time.sleep(reply.chunk_delay)
            handler.wfile.write(line("", True))
            handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return

    def _openai_chat(self, handler: BaseHTTPRequestHandler, request: dict) -> None:
        """Ollama's OpenAI-compatible endpoint: SSE chunks like the loopback server's."""
        reply = self.board.answer(request)
        pieces = reply.chunks if reply.chunks is not None else reply.text.split(" ")
        model = request.get("model", MODEL)
        if not request.get("stream"):
            body = {"id": "chatcmpl-shim", "object": "chat.completion", "created": int(time.time()), "model": model,
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": "".join(pieces)},
                                 "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
            data = json.dumps(body).encode()
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
            return
        brain = self.board.brain

        def event(delta: dict | None, finish: str | None = None, usage: bool = False) -> bytes:
            body = {"id": "chatcmpl-shim", "object": "chat.completion.chunk", "created": int(time.time()),
                    "model": model, "system_fingerprint": "fp_ollama",
                    "choices": [] if usage else [{"index": 0, "delta": delta, "finish_reason": finish}]}
            if usage:
                body["usage"] = {"prompt_tokens": 1, "completion_tokens": len(pieces), "total_tokens": len(pieces) + 1}
            return f"data: {json.dumps(body)}\n\n".encode()

        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.close_connection = True
        try:
            handler.wfile.write(event({"role": "assistant", "content": ""}))
            for piece in pieces:
                handler.wfile.write(event({"content": piece}))
                handler.wfile.flush()
                brain.chunks_sent += 1
                brain.last_chunk_sent_at = time.monotonic()
                if reply.chunk_delay:
                    time.sleep(reply.chunk_delay)
            handler.wfile.write(event({}, "stop"))
            if (request.get("stream_options") or {}).get("include_usage"):
                handler.wfile.write(event(None, usage=True))
            handler.wfile.write(b"data: [DONE]\n\n")
            handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return

    def __enter__(self) -> OllamaShim:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
