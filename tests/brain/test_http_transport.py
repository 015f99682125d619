"""The brain's HTTP on asyncio's own connections (keeltui/infra/http_transport.py).

The rest of tests/brain and tests/faults run every request through it (timeouts, a stalled
stream, a refused connection, garbage, a dropped link); these cover what only it does: TLS
on asyncio's transports, proxies left to httpx2, a kept-alive connection the server closed,
a reader that falls behind, and pieces in a run handed to the reader together.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import ssl
import subprocess

import httpcore2
import pytest

from keeltui.brain import BrainUnavailable, TextDelta
from keeltui.infra import http_transport
from keeltui_dev.loopback import LoopbackBrain, Reply
from tests.brain.test_brain import make_brain

MESSAGES = [{"role": "user", "content": "x"}]


@pytest.fixture
def no_proxies(monkeypatch):
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


@contextlib.asynccontextmanager
async def _connected(serve):
    """A stream from :class:`AsyncioBackend` to a local server that runs ``serve``."""
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    stream = await http_transport.AsyncioBackend().connect_tcp("127.0.0.1", port, timeout=5)
    try:
        yield stream
    finally:
        await stream.aclose()
        server.close()
        await server.wait_closed()


def _certificate(tmp_path, name: str) -> tuple[str, str]:
    """A self-signed certificate for 127.0.0.1 (cert, key)."""
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command (Debian package openssl)")
    cert, key = tmp_path / f"{name}.pem", tmp_path / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name}",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )
    return str(cert), str(key)


async def test_the_brain_connects_without_anyio_s_sockets(loopback, monkeypatch, no_proxies):
    """What makes a chunk cheaper: the SDK's default network backend is not what connects."""

    async def refuse(*args, **kwargs):
        raise AssertionError("connected through anyio")

    monkeypatch.setattr(httpcore2.AnyIOBackend, "connect_tcp", refuse)
    loopback.queue(Reply(text="one two three"))
    brain = make_brain(loopback.url)
    pieces = [e.text async for e in brain.stream("chief", MESSAGES) if isinstance(e, TextDelta)]
    assert "".join(pieces) == "one two three"
    await brain.aclose()


async def test_an_https_brain_is_verified_against_the_trust_store(tmp_path, monkeypatch, no_proxies):
    cert, key = _certificate(tmp_path, "brain")
    other, _ = _certificate(tmp_path, "stranger")
    server_side = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_side.load_cert_chain(cert, key)
    with LoopbackBrain(tls=server_side) as brain_server:
        assert brain_server.url.startswith("https://")
        # Trusted: the reply streams over TLS.
        monkeypatch.setenv("SSL_CERT_FILE", cert)
        brain_server.queue(Reply(text="over tls"))
        brain = make_brain(brain_server.url)
        pieces = [e.text async for e in brain.stream("chief", MESSAGES) if isinstance(e, TextDelta)]
        assert "".join(pieces) == "over tls"
        await brain.aclose()
        # Not trusted: no request reaches it, and the owner is told which endpoint failed.
        monkeypatch.setenv("SSL_CERT_FILE", other)
        asked = len(brain_server.requests)
        brain = make_brain(brain_server.url)
        with pytest.raises(BrainUnavailable) as caught:
            await brain.complete("chief", MESSAGES)
        assert brain_server.url in str(caught.value)
        assert len(brain_server.requests) == asked
        await brain.aclose()


async def test_a_proxy_named_in_the_environment_still_carries_the_requests(loopback, monkeypatch, no_proxies):
    """httpx2 routes proxies only for a client without a transport of its own."""
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{loopback.port}")
    loopback.queue(Reply(text="via the proxy"))
    brain = make_brain("http://brain.invalid/v1")  # resolvable only by the proxy
    completion = await brain.complete("chief", MESSAGES)
    assert completion.text == "via the proxy"
    assert len(loopback.requests) == 1
    await brain.aclose()


async def test_a_kept_alive_connection_the_server_closed_is_not_reused(no_proxies):
    """A server that closes an idle connection (as many do after a few seconds): the next
    request opens a new one instead of failing on the dead one."""
    connections = 0
    closed = asyncio.Event()
    body = (b'{"id":"c","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,'
            b'"message":{"role":"assistant","content":"fine"},"finish_reason":"stop"}]}')

    async def serve(reader, writer):
        nonlocal connections
        connections += 1
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        await reader.readexactly(length)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body)
        await writer.drain()
        await asyncio.sleep(0.05)
        writer.close()  # kept alive by the client, closed by the server
        await writer.wait_closed()
        closed.set()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    brain = make_brain(f"http://127.0.0.1:{port}/v1")
    try:
        assert (await brain.complete("chief", MESSAGES)).text == "fine"
        await asyncio.wait_for(closed.wait(), 10)
        await asyncio.sleep(0.1)  # the server's FIN reaches the client's idle connection
        assert (await brain.complete("chief", MESSAGES)).text == "fine"
        assert connections == 2
    finally:
        await brain.aclose()
        server.close()
        await server.wait_closed()


async def test_a_reader_that_falls_behind_holds_a_bounded_read_ahead():
    """The socket is read ahead of the reader only so far; every byte still arrives, in order."""
    payload = bytes(range(256)) * (16 * 1024)  # 4 MB

    async def serve(reader, writer):
        writer.write(payload)
        await writer.drain()
        writer.close()

    async with _connected(serve) as stream:
        await asyncio.sleep(0.5)  # the reader is busy elsewhere; the bytes keep coming
        held = len(stream._pipe.buffer)
        assert 0 < held <= http_transport.READ_AHEAD + 256 * 1024, held
        got = bytearray()
        while chunk := await stream.read(65536, timeout=5):
            got += chunk
        assert bytes(got) == payload


async def test_a_read_with_nothing_coming_times_out_as_httpcore_says():
    async def serve(reader, writer):
        await asyncio.sleep(2)
        writer.close()

    async with _connected(serve) as stream:
        with pytest.raises(httpcore2.ReadTimeout):
            await stream.read(100, timeout=0.1)
        assert await stream.read(100, timeout=5) == b""  # then the server's close: the end


async def test_a_read_waiting_when_this_side_closes_is_an_error_not_the_end():
    """A client shutting down mid-reply (a signal, the app quitting): the body was cut off
    here, and a close-delimited body must not read as complete."""

    async def serve(reader, writer):
        writer.write(b"first ")
        await asyncio.sleep(5)
        writer.close()

    async with _connected(serve) as stream:
        assert await stream.read(100, timeout=5) == b"first "
        waiting = asyncio.ensure_future(stream.read(100, timeout=5))
        await asyncio.sleep(0.05)
        await stream.aclose()
        with pytest.raises(httpcore2.ReadError):
            await asyncio.wait_for(waiting, 5)
        with pytest.raises(httpcore2.ReadError):
            await stream.read(100, timeout=5)


async def test_pieces_in_a_run_wake_the_reader_together_and_an_end_at_once(monkeypatch):
    """While pieces keep coming, a waiting reader is woken once per COALESCE_SECS with all that
    came meanwhile; the first piece after a quiet spell, and the connection's end, at once."""
    monkeypatch.setattr(http_transport, "COALESCE_SECS", 60.0)  # no hold ends by itself here
    pipe = http_transport._Pipe(asyncio.get_running_loop())
    first = asyncio.ensure_future(pipe.readable(30))
    await asyncio.sleep(0)
    pipe.data_received(b"a")  # a reply's first piece: at once
    await asyncio.wait_for(first, 5)
    assert pipe.take(100) == b"a"
    second = asyncio.ensure_future(pipe.readable(30))
    await asyncio.sleep(0)
    pipe.data_received(b"b")
    pipe.data_received(b"c")
    await asyncio.sleep(0.1)
    assert not second.done()  # held: the reader was woken a moment ago
    pipe.eof_received()  # the end is not held
    await asyncio.wait_for(second, 5)
    assert pipe.take(100) == b"bc"


async def test_a_held_piece_reaches_the_reader_when_the_hold_ends(monkeypatch):
    monkeypatch.setattr(http_transport, "COALESCE_SECS", 0.3)
    loop = asyncio.get_running_loop()
    pipe = http_transport._Pipe(loop)
    first = asyncio.ensure_future(pipe.readable(30))
    await asyncio.sleep(0)
    woken = loop.time()  # the wake-up below is no earlier: the hold ends no earlier than 0.3 s after it
    pipe.data_received(b"a")
    await asyncio.wait_for(first, 5)
    pipe.take(100)
    second = asyncio.ensure_future(pipe.readable(30))
    await asyncio.sleep(0)
    pipe.data_received(b"b")
    await asyncio.wait_for(second, 10)  # nothing else comes: the hold's end wakes it
    assert loop.time() - woken >= 0.299
    assert pipe.take(100) == b"b"


async def test_a_streamed_reply_wakes_its_reader_at_most_once_per_hold(loopback, monkeypatch, no_proxies):
    """200 pieces 5 ms apart through the brain: every piece in order, and the reader woken at
    most once per COALESCE_SECS (plus the reply's start and end), not once a piece."""
    waits = []
    readable = http_transport._Pipe.readable

    async def counting(self, timeout):
        waits.append(timeout)
        return await readable(self, timeout)

    monkeypatch.setattr(http_transport._Pipe, "readable", counting)
    pieces = [f"w{i} " for i in range(200)]
    loopback.queue(Reply(chunks=pieces, chunk_delay=0.005))
    brain = make_brain(loopback.url)
    loop = asyncio.get_running_loop()
    started = loop.time()
    text = "".join([e.text async for e in brain.stream("chief", MESSAGES) if isinstance(e, TextDelta)])
    elapsed = loop.time() - started
    await brain.aclose()
    assert text == "".join(pieces)
    assert len(waits) <= elapsed / http_transport.COALESCE_SECS + 6, (len(waits), elapsed)
