"""One client over any OpenAI-compatible endpoint.

Ollama, llama.cpp's server, vLLM, LM Studio, OpenRouter, OpenAI: all speak the same
chat-completions protocol, so one ``AsyncOpenAI`` client serves every role. The
``openai`` package costs ~0.4 s to import, so it is imported on first use (after the
app's first frame), never at module import.

Every call reports token usage and the fraction of the role's context window. Errors
are typed: :class:`BrainUnavailable` (nothing answers), :class:`BrainTimeout`,
:class:`BrainHTTPError`, :class:`BrainReplyError` (an answer we cannot use).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any, TYPE_CHECKING
from collections.abc import AsyncIterator

if TYPE_CHECKING:
    from openai import AsyncOpenAI

from keeltui.chief.thinking import THINKING, ThinkSplitter, split_think
from keeltui.config import BrainConfig
from keeltui.infra.lazy_packages import load_reexports_on_use
from keeltui.text.jsonextract import JSONExtractError, extract_json
from keeltui.text.sse_lines import SSELines
from keeltui.values import Usage  # the value type lives in the pure core; re-exported here


class BrainError(Exception):
    """A brain call failed; ``str()`` is one line fit for the status line."""


class BrainUnavailable(BrainError):
    """No endpoint answered at the configured base URL."""


class BrainTimeout(BrainError):
    """The endpoint took longer than ``brain.timeout_secs`` (or a stream stalled)."""


class BrainHTTPError(BrainError):
    def __init__(self, status: int, message: str, detail: str = "", retry_after: float | None = None,
                 said: str = "") -> None:
        self.status = status
        self.said = said or detail
        """The server's own error message, without its code (for the failure's words)."""
        self.retry_after = retry_after
        """Seconds the server asked us to wait (``Retry-After``), when it said."""
        self.detail = detail
        """The server's own error text and code, whole (the message is cut for one line)."""
        super().__init__(message)


# How servers say the prompt did not fit: OpenAI/vLLM/OpenRouter ("maximum context length",
# code context_length_exceeded), llama.cpp ("exceeds the available context size"), others.
_CONTEXT_OVERFLOW = re.compile(
    r"context[ _-]?(?:length|size|window)|maximum context|exceed_context|too many tokens"
    r"|prompt is too long|reduce the length of the messages|input is too long",
    re.IGNORECASE,
)


def is_context_overflow(error: BaseException) -> bool:
    """Whether the endpoint refused the call because the prompt exceeds the model's window."""
    if not isinstance(error, BrainHTTPError) or error.status not in (400, 413, 422):
        return False
    return bool(_CONTEXT_OVERFLOW.search(f"{error.detail} {error}"))


class BrainReplyError(BrainError):
    """The endpoint answered with something we cannot use (empty, no JSON, garbage)."""


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str
    """The raw JSON text the model wrote; see :meth:`parsed`."""

    def parsed(self) -> dict:
        """The arguments as a dict; a broken JSON text raises ValueError."""
        if not self.arguments.strip():
            return {}
        value = json.loads(self.arguments)
        if not isinstance(value, dict):
            raise ValueError("tool arguments must be a JSON object")
        return value

    def as_openai(self) -> dict:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


@dataclass(frozen=True)
class Completion:
    text: str
    usage: Usage
    tool_calls: tuple[ToolCall, ...] = ()
    finish_reason: str | None = None
    model: str = ""
    thinking: str = ""
    """The model's reasoning (``reasoning_content`` or a leading ``<think>`` block), never in ``text``."""


@dataclass(frozen=True)
class ThinkingDelta:
    """A piece of streamed reasoning: shown apart, never part of the reply's text."""

    text: str


@dataclass(frozen=True)
class TextDelta:
    """A piece of streamed reply text."""

    text: str


@dataclass(frozen=True)
class StreamDone:
    """The stream ended; the whole completion."""

    completion: Completion


StreamEvent = TextDelta | ThinkingDelta | StreamDone


def estimate_tokens(messages: list[dict], text: str = "") -> int:
    """A rough count (4 characters a token) for servers that report no usage."""
    size = len(text)
    for message in messages:
        content = message.get("content") or ""
        size += len(content) if isinstance(content, str) else len(json.dumps(content))
        for call in message.get("tool_calls") or ():
            size += len(json.dumps(call))
    return max(1, size // 4)


@dataclass
class _ToolCallBuffer:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class Brain:
    """The model endpoint, one lazily built client for all roles."""

    def __init__(self, config: BrainConfig, api_key: str | None = None) -> None:
        self.config = config
        self._api_key = api_key
        self._client: AsyncOpenAI | None = None  # built on first use (openai imports slowly)
        self._client_lock = threading.Lock()

    # -- plumbing -------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return self.config.base_url

    def model_for(self, role: str) -> str:
        return self.config.model_for(role)

    def window_for(self, role: str) -> int:
        return self.config.window_for(role)

    def client(self):
        with self._client_lock:
            return self._build_client()

    def _build_client(self):
        if self._client is None:
            # The SDK's ~470 type modules load as the client uses them, not all at its import
            # (~10 MB and ~0.4 s less; keeltui.infra.lazy_packages says how).
            load_reexports_on_use("openai.types")
            from openai import AsyncOpenAI

            self._client = AsyncOpenAI(
                base_url=self.config.base_url,
                # Local servers want no key but the client insists on one.
                api_key=self._api_key or "keeltui-no-key",
                max_retries=0,
                timeout=self.config.timeout_secs,
                default_headers=_no_ambient_headers(),
                http_client=_http_client(self.config.base_url, self.config.timeout_secs),
            )
            # The client loads its resources on first use (~20 ms for chat completions): here,
            # off the event loop, not in the first reply's call on the UI thread.
            _ = self._client.chat.completions, self._client.models
        return self._client

    def warm(self) -> None:
        """Import and build the client now (called in the background after the first frame)."""
        self.client()

    async def _ready(self):
        """The client, imported off the event loop: a first call must never freeze the UI."""
        if self._client is None:
            return await asyncio.to_thread(self.client)
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    def _translate(self, exc: Exception) -> BrainError:
        import openai

        where = self.config.base_url
        if isinstance(exc, openai.APITimeoutError):
            return BrainTimeout(f"the brain at {where} did not answer within {self.config.timeout_secs:g}s")
        if isinstance(exc, openai.APIConnectionError):
            return BrainUnavailable(f"no brain answers at {where}")
        if isinstance(exc, openai.APIStatusError):
            whole = _error_detail(exc)
            detail = _short(whole)
            return BrainHTTPError(
                exc.status_code, f"the brain at {where} answered HTTP {exc.status_code}: {detail}",
                detail=f"{whole} {_error_code(exc)}".strip(), retry_after=_retry_after(exc), said=detail,
            )
        if isinstance(exc, (openai.APIResponseValidationError, ValueError, KeyError, TypeError, AttributeError)):
            return BrainReplyError(f"the brain at {where} sent a reply keeltui cannot read: {_short(str(exc))}")
        if isinstance(exc, openai.OpenAIError):
            return BrainError(f"brain error: {_short(str(exc))}")
        if type(exc).__module__.split(".")[0].startswith(("httpx", "httpcore")):
            # Raised while reading a stream raw: a stall past the timeout, or a dropped link.
            if "Timeout" in type(exc).__name__:
                return BrainTimeout(
                    f"the brain at {where} stopped sending for {self.config.timeout_secs:g}s"
                )
            return BrainUnavailable(f"the connection to the brain at {where} broke: {type(exc).__name__}")
        return BrainError(f"brain error: {type(exc).__name__}: {_short(str(exc))}")

    def _usage(self, role: str, raw, messages: list[dict], text: str) -> Usage:
        window = self.window_for(role)
        try:
            return self._reported_usage(raw, window) or Usage(
                estimate_tokens(messages), estimate_tokens([], text), window, estimated=True
            )
        except (TypeError, ValueError, OverflowError):  # a server's usage that is not numbers
            return Usage(estimate_tokens(messages), estimate_tokens([], text), window, estimated=True)

    @staticmethod
    def _reported_usage(raw, window: int) -> Usage | None:
        if isinstance(raw, dict):
            if raw.get("prompt_tokens") is not None:
                return Usage(int(raw.get("prompt_tokens") or 0), int(raw.get("completion_tokens") or 0), window)
        elif raw is not None and getattr(raw, "prompt_tokens", None) is not None:
            return Usage(int(raw.prompt_tokens or 0), int(raw.completion_tokens or 0), window)
        return None

    # -- calls ------------------------------------------------------------------------

    async def stream(
        self,
        role: str,
        messages: list[dict],
        *,
        tools: list[dict] | None = None,
    ) -> AsyncIterator[StreamEvent]:
        """Stream a chat turn: ``TextDelta`` pieces, then one ``StreamDone``.

        The openai client makes the request (auth, timeouts, typed errors); the SSE
        lines are read raw and parsed with ``json.loads``, which costs a fraction of
        building a pydantic object per chunk (a burst of thousands of chunks would
        otherwise lag behind the stream).
        """
        client = await self._ready()
        kwargs: dict[str, Any] = {
            "model": self.model_for(role),
            "messages": messages,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if tools:
            kwargs["tools"] = tools
        text_parts: list[str] = []
        thinking_parts: list[str] = []
        splitter = ThinkSplitter()  # a leading <think> block, however the chunks cut its tags
        calls: dict[int, _ToolCallBuffer] = {}
        raw_usage = None
        finish = None
        model = kwargs["model"]
        seen_data = False
        stray = ""
        try:
            async with client.chat.completions.with_streaming_response.create(**kwargs) as response:
                async for line in _sse_lines(response):
                    event = parse_sse_line(line)
                    if event is None:
                        if line.strip() and not line.startswith((":", "event:", "id:", "retry:")):
                            stray = stray or line
                        continue
                    if event is DONE:
                        break
                    seen_data = True
                    if "error" in event:
                        raise BrainReplyError(
                            f"the brain at {self.base_url} stopped with an error: {_short(_error_text(event['error']))}"
                        )
                    if event.get("usage"):
                        raw_usage = event["usage"]
                    model = event.get("model") or model
                    for choice in event.get("choices") or ():  # shapes checked by parse_sse_line
                        delta = choice.get("delta") or {}
                        reasoning = delta.get("reasoning_content") or delta.get("reasoning")
                        if reasoning:
                            thinking_parts.append(reasoning)
                            yield ThinkingDelta(reasoning)
                        content = delta.get("content")
                        if content:
                            for kind, piece in splitter.feed(content):
                                yield self._piece(kind, piece, text_parts, thinking_parts)
                        for call in delta.get("tool_calls") or ():
                            buffer = calls.setdefault(call.get("index") or 0, _ToolCallBuffer())
                            if call.get("id"):
                                buffer.id = call["id"]
                            function = call.get("function") or {}
                            if function.get("name"):
                                buffer.name += function["name"]
                            if function.get("arguments"):
                                buffer.arguments.append(function["arguments"])
                        if choice.get("finish_reason"):
                            finish = choice["finish_reason"]
        except BrainError:
            raise
        except Exception as exc:  # the raw read also surfaces the HTTP library's own errors
            raise self._translate(exc) from exc
        if not seen_data and stray:
            raise BrainReplyError(
                f"the brain at {self.base_url} sent a reply keeltui cannot read: {_short(stray, 80)}"
            )
        for kind, piece in splitter.finish():
            yield self._piece(kind, piece, text_parts, thinking_parts)
        text = "".join(text_parts)
        tool_calls = tuple(
            ToolCall(b.id or f"call_{i}", b.name, "".join(b.arguments))
            for i, b in sorted(calls.items())
            if b.name
        )
        yield StreamDone(
            Completion(text, self._usage(role, raw_usage, messages, text), tool_calls, finish, model,
                       thinking="".join(thinking_parts))
        )

    @staticmethod
    def _piece(kind: str, piece: str, text_parts: list[str], thinking_parts: list[str]) -> TextDelta | ThinkingDelta:
        if kind == THINKING:
            thinking_parts.append(piece)
            return ThinkingDelta(piece)
        text_parts.append(piece)
        return TextDelta(piece)

    async def complete(
        self,
        role: str,
        messages: list[dict],
        *,
        tools: list[dict] | None = None,
        json_mode: bool = False,
    ) -> Completion:
        """One non-streamed turn (judgements, tool turns, summaries)."""
        client = await self._ready()
        import openai  # already loaded by _ready, off the event loop

        kwargs: dict[str, Any] = {"model": self.model_for(role), "messages": messages}
        if tools:
            kwargs["tools"] = tools
        if json_mode:
            kwargs["response_format"] = {"type": "json_object"}
        try:
            # Read raw, as a stream is: the SDK's typed objects would build pydantic's
            # validators for every completion type at the first call (~0.4 MB held, ~10 ms
            # on the event loop) for the four fields read here.
            response = await client.chat.completions.with_raw_response.create(**kwargs)
            body = json.loads(response.http_response.content)
            if not isinstance(body, dict):
                raise ValueError("a reply that is not a JSON object")
            body = _checked_event(body, part="message")
            if not body.get("choices"):
                raise BrainReplyError(f"the brain at {self.config.base_url} returned no choices")
            choice = body["choices"][0]
            message = choice.get("message") or {}
            thinking, text = split_think(message.get("content") or "")
            reasoning = message.get("reasoning_content") or message.get("reasoning")
            if reasoning:
                thinking = reasoning + thinking
            tool_calls = tuple(
                ToolCall(call.get("id") or "", call["function"].get("name") or "", call["function"].get("arguments") or "")
                for call in (message.get("tool_calls") or ())
                if call.get("function") is not None
            )
            usage = self._usage(role, body.get("usage"), messages, text)
            return Completion(text, usage, tool_calls, choice.get("finish_reason"), body.get("model") or "",
                              thinking=thinking)
        except BrainError:
            raise
        except (openai.OpenAIError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise self._translate(exc) from exc

    async def judge(self, role: str, messages: list[dict]) -> tuple[dict, Completion]:
        """A JSON judgement: the first JSON object in the reply, tolerantly extracted.

        Raises ``EmptyReplyError`` / ``NoJSONError`` (from :mod:`keeltui.text.jsonextract`)
        for replies without a usable object, and ``BrainError`` for transport failures.
        """
        completion = await self.complete(role, messages)
        return extract_json(completion.text), completion

    async def list_models(self) -> list[str]:
        client = await self._ready()
        import openai  # already loaded by _ready, off the event loop

        try:
            page = await client.models.list()
            return [m.id for m in page.data]
        except (openai.OpenAIError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise self._translate(exc) from exc


def _http_client(base_url: str, timeout: float):
    """The SDK's HTTP client on asyncio's own connections (keeltui.infra.http_transport says
    why), or None (the SDK's default) where the environment names a proxy."""
    from keeltui.infra import http_transport

    if not http_transport.without_proxies():
        return None
    import httpx2
    from openai import DefaultAsyncHttpxClient

    # An https endpoint's trust store is loaded here, off the event loop, as the SDK's own
    # client does; a plain-http one never needs it (loaded on a redirect to https, if any).
    tls = httpx2.create_ssl_context() if base_url.lower().startswith("https:") else None
    return DefaultAsyncHttpxClient(timeout=timeout, transport=http_transport.AsyncioTransport(tls))


def _no_ambient_headers() -> dict:
    """Headers the openai client would take from the environment by itself, switched off.

    It reads OPENAI_ORG_ID, OPENAI_PROJECT_ID and OPENAI_CUSTOM_HEADERS on its own; those
    belong to whoever exported them, not to whatever endpoint keeltui talks to. The only
    credential sent is the key keeltui routed (see keeltui.infra.api_keys).
    """
    import os

    from openai import Omit

    names = {"OpenAI-Organization", "OpenAI-Project"}
    for line in os.environ.get("OPENAI_CUSTOM_HEADERS", "").split("\n"):
        name, colon, _ = line.partition(":")
        if colon and name.strip() and name.strip().lower() != "authorization":
            names.add(name.strip())
    return {name: Omit() for name in names}


def _text(value) -> str:
    """Text from the wire as valid Unicode: JSON may carry lone surrogates ("\\ud800"),
    which neither SQLite nor the terminal can encode."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8", errors="replace").decode("utf-8")


def _is_count(value) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _broken(what: str) -> ValueError:
    return ValueError(f"it breaks the stream protocol: {what}")


def _checked_event(event: dict, part: str = "delta") -> dict:
    """A stream chunk shaped as the protocol says, or ValueError (the reply cannot be read);
    with ``part="message"``, a whole (non-streamed) completion.

    Anything a buggy proxy may put in a field (a number for ``content``, an object for
    ``choices``) is a protocol error, never an exception deep in the app. An odd
    ``usage`` or ``model`` is only dropped: it is not worth losing a reply over.
    """
    choices = event.get("choices")
    if choices is not None and not isinstance(choices, list):
        raise _broken(f"choices is {type(choices).__name__}, not a list")
    for choice in choices or ():
        if not isinstance(choice, dict):
            raise _broken(f"a choice is {type(choice).__name__}, not an object")
        delta = choice.get(part)
        if delta is not None and not isinstance(delta, dict):
            raise _broken(f"a {part} is {type(delta).__name__}, not an object")
        delta = delta or {}
        content = delta.get("content")
        if content is not None and not isinstance(content, str):
            raise _broken(f"a chunk's content is {type(content).__name__}, not text")
        if content:
            delta["content"] = _text(content)
        for name in ("reasoning_content", "reasoning"):
            # Reasoning is shown apart and worth no lost reply: an odd value is only dropped.
            value = delta.get(name)
            delta[name] = _text(value) if isinstance(value, str) else None
        calls = delta.get("tool_calls")
        if calls is not None and not (isinstance(calls, list) and all(isinstance(c, dict) for c in calls)):
            raise _broken("tool_calls is not a list of objects")
        for call in calls or ():
            function = call.get("function")
            if function is not None and not isinstance(function, dict):
                raise _broken("a tool call's function is not an object")
            if not _is_count(call.get("index")):
                raise _broken("a tool call's index is not a whole number")
            for value in (call.get("id"), (function or {}).get("name"), (function or {}).get("arguments")):
                if value is not None and not isinstance(value, str):
                    raise _broken("a tool call's id, name or arguments is not text")
        reason = choice.get("finish_reason")
        if reason is not None and not isinstance(reason, str):
            raise _broken("finish_reason is not text")
    usage = event.get("usage")
    if usage is not None and not (
        isinstance(usage, dict) and _is_count(usage.get("prompt_tokens")) and _is_count(usage.get("completion_tokens"))
    ):
        event["usage"] = None  # estimated instead
    if not isinstance(event.get("model"), (str, type(None))):
        event["model"] = None
    return event


DONE = object()
"""What :func:`parse_sse_line` returns for the stream's ``[DONE]`` line."""


async def _sse_lines(response) -> AsyncIterator[str]:
    """The stream's lines, split from its bytes here (keeltui/text/sse_lines.py): the SDK's
    ``iter_lines`` cut a payload at a raw U+2028 (the bytes and their decoding stay httpx's)."""
    split = SSELines()
    async for data in response.http_response.aiter_bytes():
        for line in split.feed(data):
            yield line
    for line in split.end():
        yield line


def parse_sse_line(line: str):
    """One server-sent-events line: its JSON payload (dict), ``DONE``, or None."""
    if not line.startswith("data:"):
        return None
    data = line[5:].strip()
    if not data:
        return None
    if data == "[DONE]":
        return DONE
    value = json.loads(data)  # a broken payload is a ValueError: the reply is unreadable
    if not isinstance(value, dict):
        raise ValueError("a stream event that is not a JSON object")
    return _checked_event(value)


def _error_text(error) -> str:
    if isinstance(error, dict):
        return str(error.get("message") or error)
    return str(error)


def _error_detail(exc) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
        if isinstance(inner, str):
            return inner
    return getattr(exc, "message", "") or str(exc)


def _error_code(exc) -> str:
    body = getattr(exc, "body", None)
    inner = body.get("error", body) if isinstance(body, dict) else None
    if isinstance(inner, dict):
        return " ".join(str(inner.get(k) or "") for k in ("code", "type")).strip()
    return ""


def _retry_after(exc) -> float | None:
    """The ``Retry-After`` seconds of an HTTP answer (a number only; a date is ignored)."""
    try:
        value = exc.response.headers.get("retry-after")
        seconds = float(value) if value is not None else None
    except (AttributeError, TypeError, ValueError):
        return None
    return seconds if seconds is not None and 0 <= seconds < 7 * 24 * 3600 else None


def _short(text: str, limit: int = 160) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


__all__ = [
    "Brain",
    "BrainError",
    "BrainHTTPError",
    "BrainReplyError",
    "BrainTimeout",
    "BrainUnavailable",
    "Completion",
    "JSONExtractError",
    "StreamDone",
    "TextDelta",
    "ThinkingDelta",
    "ToolCall",
    "Usage",
    "is_context_overflow",
]
