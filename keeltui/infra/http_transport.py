"""The brain's HTTP connections on asyncio's own transports: a cheaper read per streamed chunk.

The openai SDK reads through httpx2, httpcore2 and anyio. Measured on a 2 000-chunk reply
5 ms apart (no UI, the same process): ~240-310 µs of CPU a chunk, against ~80 µs for a bare
asyncio read; the difference is anyio's per read: a cancel scope for the read's timeout,
one more turn of the event loop, and the socket added to epoll and taken off again. In the
app that was a third of the CPU a streaming reply costs.

Only the network layer changes (httpcore2's documented network-backend interface): httpcore2
still speaks HTTP/1.1 (framing, chunked bodies, keep-alive, the pool), httpx2 still builds
the requests and follows redirects, and the SDK still sets the timeouts and turns failures
into its errors (httpcore2's errors become httpx2's of the same name, as httpx2's own
transport does). TLS is asyncio's (``loop.start_tls``), with the same verifying context
httpx2 would build.

Not used where the environment names a proxy: httpx2 routes proxies itself, and only for a
client without a transport of its own (:func:`without_proxies`).
"""

from __future__ import annotations

import asyncio
import ssl
import urllib.request
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import httpcore2
import httpx2

READ_AHEAD = 256 * 1024
"""Bytes a connection takes in before it stops reading from the socket until they are read:
a reader that fell behind holds this much, not the whole reply."""


COALESCE_SECS = 0.020
"""While bytes keep coming, a waiting reader is woken at most once in this many seconds,
with all that came meanwhile. A streamed reply's pieces come a few ms apart (200 a second in
the bench) and every wake-up walks httpcore2, h11, httpx2 and the SSE parser: woken at most
50 times a second, the app took ~25 % less CPU while streaming (10.7-12.1 % of a core ->
7.6-8.9 %, four runs each) and the room, drawn ten times a second while a reply streams
(``panes/chief/log_stream.FLUSH_SECS``), shows the same. The first bytes after a quiet spell
(a reply's first piece) wake the reader at once, and so do the connection's end and a close
here; a reply's last piece waits at most this long (the app wrote it 17-21 ms after it was
sent, with the hold and without)."""


def without_proxies() -> bool:
    """No proxy named in the environment (``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY`` and
    their lower-case forms; ``NO_PROXY`` alone names none)."""
    return not {k: v for k, v in urllib.request.getproxies().items() if k != "no" and v}


def _expire(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_exception(TimeoutError())


class _Pipe(asyncio.Protocol):
    """One connection's bytes as they arrive, for one reader at a time."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.buffer = bytearray()
        self.ended = False
        """The peer closed its side, or the connection was lost."""
        self.closed_here = False
        """This side closed it (the pool, a client shutting down): what a read waited for
        will not come. Not an end of the body, which the peer's close can be."""
        self.error: BaseException | None = None
        self._reader: asyncio.Future | None = None
        self._woken_at = float("-inf")
        self._held: asyncio.TimerHandle | None = None
        self._reading_paused = False
        self._writer: asyncio.Future | None = None
        self.writing_paused = False
        self.transport: asyncio.Transport | None = None

    # asyncio's side

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if len(self.buffer) > READ_AHEAD and not self._reading_paused and self.transport is not None:
            self.transport.pause_reading()
            self._reading_paused = True
        self._wake_soon()

    def _wake_soon(self) -> None:
        """Wake the reader now, or COALESCE_SECS after its last wake-up if that was sooner."""
        if self._held is not None or self._reader is None or self._reader.done():
            return
        due = self._woken_at + COALESCE_SECS
        if self._loop.time() >= due:
            self.wake()
        else:
            self._held = self._loop.call_at(due, self.wake)

    def eof_received(self) -> bool:
        self.ended = True
        self.wake()
        return False  # close the transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        self.error = exc
        self.wake()
        self.resume_writing()

    def pause_writing(self) -> None:
        self.writing_paused = True

    def resume_writing(self) -> None:
        self.writing_paused = False
        if self._writer is not None and not self._writer.done():
            self._writer.set_result(None)

    def wake(self) -> None:
        if self._held is not None:
            self._held.cancel()
            self._held = None
        if self._reader is not None and not self._reader.done():
            self._reader.set_result(None)
            self._woken_at = self._loop.time()

    # the stream's side

    async def readable(self, timeout: float | None) -> None:
        """Wait until there are bytes or the end; TimeoutError after ``timeout`` seconds."""
        await self._wait("_reader", timeout)

    async def writable(self, timeout: float | None) -> None:
        """Wait until the transport takes writes again; TimeoutError after ``timeout`` seconds."""
        await self._wait("_writer", timeout)

    async def _wait(self, slot: str, timeout: float | None) -> None:
        """Wait on a future kept in ``slot`` (``_reader`` or ``_writer``), which asyncio's
        side resolves; a timer per wait, not a cancel scope."""
        waiter = self._loop.create_future()
        setattr(self, slot, waiter)
        timer = self._loop.call_later(timeout, _expire, waiter) if timeout is not None else None
        try:
            await waiter
        finally:
            setattr(self, slot, None)
            if timer is not None:
                timer.cancel()

    def take(self, most: int) -> bytes:
        if len(self.buffer) <= most:
            data = bytes(self.buffer)
            self.buffer.clear()
        else:
            data = bytes(self.buffer[:most])
            del self.buffer[:most]
        if self._reading_paused and len(self.buffer) <= READ_AHEAD // 2 and self.transport is not None:
            self._reading_paused = False
            self.transport.resume_reading()
        return data


class AsyncioStream(httpcore2.AsyncNetworkStream):
    """A connection (plain or TLS) as httpcore2 reads and writes it."""

    def __init__(self, transport: asyncio.Transport, pipe: _Pipe) -> None:
        self._transport = transport
        self._pipe = pipe

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        pipe = self._pipe
        if not pipe.buffer and not pipe.ended and not pipe.closed_here:
            try:
                await pipe.readable(timeout)
            except TimeoutError:
                raise httpcore2.ReadTimeout(f"no bytes within {timeout:g}s") from None
        if pipe.closed_here:
            raise httpcore2.ReadError("the connection was closed on this side")
        if pipe.buffer:
            return pipe.take(max_bytes)
        if pipe.error is not None:
            raise httpcore2.ReadError(str(pipe.error) or type(pipe.error).__name__) from pipe.error
        return b""

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        if not buffer:
            return
        if self._transport.is_closing() or self._pipe.ended:
            raise httpcore2.WriteError("the connection is closed")
        self._transport.write(buffer)
        if self._pipe.writing_paused:
            try:
                await self._pipe.writable(timeout)
            except TimeoutError:
                raise httpcore2.WriteTimeout(f"the peer took no bytes within {timeout:g}s") from None
            if self._pipe.error is not None:
                raise httpcore2.WriteError(str(self._pipe.error)) from self._pipe.error

    async def aclose(self) -> None:
        self._pipe.closed_here = True
        self._pipe.wake()
        self._transport.close()

    async def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                        timeout: float | None = None) -> httpcore2.AsyncNetworkStream:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout):
                transport = await loop.start_tls(self._transport, self._pipe, ssl_context,
                                                 server_hostname=server_hostname)
        except TimeoutError:
            self._transport.close()
            raise httpcore2.ConnectTimeout(f"no TLS handshake within {timeout:g}s") from None
        except (OSError, ssl.SSLError, ConnectionError) as exc:
            self._transport.close()
            raise httpcore2.ConnectError(str(exc)) from exc
        if transport is None:  # the connection closed during the handshake
            raise httpcore2.ConnectError("the connection closed during the TLS handshake")
        self._pipe.transport = transport
        return AsyncioStream(transport, self._pipe)

    def get_extra_info(self, info: str) -> Any:
        transport = self._transport
        if info == "ssl_object":
            return transport.get_extra_info("ssl_object")
        if info == "client_addr":
            return transport.get_extra_info("sockname")
        if info == "server_addr":
            return transport.get_extra_info("peername")
        if info == "socket":
            return transport.get_extra_info("socket")
        if info == "is_readable":
            # An idle kept-alive connection is readable only if the server closed it (or
            # sent what it should not have): the pool then opens a new one.
            return bool(self._pipe.buffer) or self._pipe.ended or transport.is_closing()
        return None


class AsyncioBackend(httpcore2.AsyncNetworkBackend):
    """httpcore2's connections opened with asyncio's ``create_connection``. (No
    ``connect_unix_socket``: httpcore2 asks for it only for a pool built with ``uds=``.)"""

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None,
                          socket_options: Iterable[Any] | None = None) -> httpcore2.AsyncNetworkStream:
        loop = asyncio.get_running_loop()
        local = (local_address, 0) if local_address else None
        try:
            async with asyncio.timeout(timeout):
                transport, pipe = await loop.create_connection(lambda: _Pipe(loop), host, port, local_addr=local)
        except TimeoutError:  # before OSError: TimeoutError is one
            raise httpcore2.ConnectTimeout(f"no connection to {host}:{port} within {timeout:g}s") from None
        except OSError as exc:
            raise httpcore2.ConnectError(str(exc) or f"no connection to {host}:{port}") from exc
        sock = transport.get_extra_info("socket")
        for option in socket_options or ():
            sock.setsockopt(*option)  # as httpcore2's own backends do: after the connect
        return AsyncioStream(transport, pipe)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


@contextmanager
def _httpx_errors() -> Iterator[None]:
    """httpcore2's errors as httpx2's of the same name (which the SDK turns into its own)."""
    try:
        yield
    except Exception as exc:
        for cls in type(exc).__mro__:
            if cls.__module__.startswith("httpcore2") and isinstance(getattr(httpx2, cls.__name__, None), type):
                raise getattr(httpx2, cls.__name__)(str(exc)) from exc
        raise


class _Body(httpx2.AsyncByteStream):
    def __init__(self, stream) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _httpx_errors():
            async for part in self._stream:
                yield part

    async def aclose(self) -> None:
        closer = getattr(self._stream, "aclose", None)
        if closer is not None:
            with _httpx_errors():
                await closer()


class AsyncioTransport(httpx2.AsyncBaseTransport):
    """httpx2's transport, with httpcore2's pool on :class:`AsyncioBackend`.

    ``ssl_context`` None: httpcore2 builds its default verifying context when a connection
    first needs TLS (a plain-http endpoint never loads the trust store: ~1 MB)."""

    def __init__(self, ssl_context: ssl.SSLContext | None = None, limits: httpx2.Limits | None = None) -> None:
        limits = limits or httpx2.Limits()
        self._pool = httpcore2.AsyncConnectionPool(
            ssl_context=ssl_context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=AsyncioBackend(),
        )

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        core = httpcore2.Request(
            method=request.method,
            url=httpcore2.URL(scheme=request.url.raw_scheme, host=request.url.raw_host,
                              port=request.url.port, target=request.url.raw_path),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _httpx_errors():
            response = await self._pool.handle_async_request(core)
        return httpx2.Response(status_code=response.status, headers=response.headers,
                               stream=_Body(response.stream), extensions=response.extensions)

    async def aclose(self) -> None:
        await self._pool.aclose()
