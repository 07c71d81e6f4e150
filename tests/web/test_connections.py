"""The Activity's listening socket, over real sockets on 127.0.0.1, under the
event loop the bot runs on (uvloop) and asyncio's own: past the limit, an idle
connection makes room for a new one, and only when every connection is busy
is the new one answered 503; one untrusted address cannot hold more than its
share; nothing is logged as a failure."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from typing import Any

import pytest
import uvloop
from aiohttp import web

from web.connections import CappedListener, TrustedProxies

Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]
Run = Callable[[Coroutine[Any, Any, None]], None]
ONLY_127_0_0_1 = TrustedProxies([ipaddress.ip_network("127.0.0.1/32")])


@pytest.fixture(params=["uvloop", "asyncio"])
def run(request: pytest.FixtureRequest) -> Iterator[Run]:
    factory = uvloop.new_event_loop if request.param == "uvloop" else asyncio.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        yield runner.run


@pytest.fixture
def quiet(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.WARNING)
    yield
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


class Site:
    """A real aiohttp server behind the capped listener: ``/`` answers at once,
    ``/slow`` holds its request until ``release`` is set, ``/ws`` holds a WebSocket."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.port = 0
        self.listener: CappedListener | None = None

    async def page(self, _request: web.Request) -> web.Response:
        return web.Response(text="the page")

    async def slow(self, _request: web.Request) -> web.Response:
        await self.release.wait()
        return web.Response(text="at last")

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for _message in ws:
            pass
        return ws


@contextlib.asynccontextmanager
async def site(limit: int, trusted: TrustedProxies | None = None,
               per_peer: int | None = None) -> AsyncIterator[Site]:
    served = Site()
    app = web.Application()
    app.router.add_get("/", served.page)
    app.router.add_get("/slow", served.slow)
    app.router.add_get("/ws", served.socket)
    runner = web.AppRunner(app, keepalive_timeout=30)
    await runner.setup()
    assert runner.server is not None
    served.listener = CappedListener(runner.server, limit, trusted, per_peer)
    served.port = await served.listener.start("127.0.0.1", 0)
    try:
        yield served
    finally:
        served.release.set()
        await served.listener.stop()
        await runner.cleanup()


async def connect(port: int, source: str = "127.0.0.1") -> Streams:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def ask(port: int, source: str = "127.0.0.1", kept: list[Streams] | None = None) -> bytes:
    """The status line of one request on a new connection, kept open (in
    ``kept``: a page's keep-alive connection) or closed at once."""
    reader, writer = await connect(port, source)
    try:
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        return await asyncio.wait_for(reader.readline(), 5)
    finally:
        if kept is None:
            writer.close()
        else:
            kept.append((reader, writer))


async def closed_by_server(reader: asyncio.StreamReader, within: float = 1.0) -> bool:
    try:
        return await asyncio.wait_for(reader.read(), within) == b""
    except TimeoutError:
        return False
    except ConnectionError:
        return True


async def hold_busy(port: int, count: int) -> list[Streams]:
    """``count`` connections each in the middle of a request: half held by
    ``/slow``, half WebSockets."""
    held = []
    for number in range(count):
        reader, writer = await connect(port)
        if number % 2:
            writer.write(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        else:
            writer.write(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                         b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                         b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
            assert b"101" in await asyncio.wait_for(reader.readline(), 5)
        held.append((reader, writer))
    await asyncio.sleep(0.1)
    return held


async def closed(held: list[Streams]) -> list[bool]:
    """Which of ``held`` the server closed (all looked at together)."""
    return list(await asyncio.gather(*(closed_by_server(reader) for reader, _w in held)))


def close_all(held: list[Streams]) -> None:
    for _reader, writer in held:
        writer.close()


# --- the limit in all ---------------------------------------------------------------------------
def test_past_the_limit_the_oldest_idle_connection_makes_room(
    run: Run, quiet: None
) -> None:
    async def scenario() -> None:
        async with site(4) as served:
            idle = [await connect(served.port) for _ in range(4)]
            await asyncio.sleep(0.1)
            kept: list[Streams] = []
            answers = [await ask(served.port, kept=kept) for _ in range(3)]
            assert all(answer.startswith(b"HTTP/1.1 200") for answer in answers)
            assert await closed(idle) == [True, True, True, False]  # the oldest went first
            assert served.listener is not None and served.listener.turned_away == 0
            close_all(idle + kept)

    run(scenario())


def test_a_new_connection_is_told_to_come_back_only_when_every_one_is_busy(
    run: Run, quiet: None
) -> None:
    async def scenario() -> None:
        async with site(4) as served:
            busy = await hold_busy(served.port, 4)
            answers = [await ask(served.port) for _ in range(3)]
            assert all(answer.startswith(b"HTTP/1.1 503") for answer in answers)
            assert served.listener is not None and served.listener.turned_away == 3
            assert not any(await closed(busy))
            close_all(busy)
            await asyncio.sleep(0.2)
            assert (await ask(served.port)).startswith(b"HTTP/1.1 200")

    run(scenario())


def test_a_connection_between_two_requests_is_idle_and_those_mid_request_are_not(
    run: Run, quiet: None
) -> None:
    async def scenario() -> None:
        async with site(3) as served:
            # A page's keep-alive connection, its answer read: waiting for the next.
            reader, writer = await connect(served.port)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            assert head.startswith(b"HTTP/1.1 200")
            assert await reader.readexactly(len(b"the page")) == b"the page"
            busy = await hold_busy(served.port, 2)
            assert (await ask(served.port)).startswith(b"HTTP/1.1 200")
            assert await closed_by_server(reader)
            assert not any(await closed(busy))
            close_all([*busy, (reader, writer)])

    run(scenario())


# --- one address --------------------------------------------------------------------------------
def test_an_untrusted_address_past_its_share_loses_its_own_idle_connections(
    run: Run, quiet: None
) -> None:
    async def scenario() -> None:
        async with site(100, ONLY_127_0_0_1, per_peer=3) as served:
            proxy = [await connect(served.port) for _ in range(6)]  # trusted: no share
            flood = [await connect(served.port, "127.0.0.2") for _ in range(5)]
            await asyncio.sleep(0.1)
            assert await closed(flood) == [
                True, True, False, False, False]
            assert not any(await closed(proxy))
            close_all(proxy + flood)

    run(scenario())


def test_an_untrusted_address_whose_share_is_busy_is_turned_away_alone(
    run: Run, quiet: None
) -> None:
    async def scenario() -> None:
        async with site(100, ONLY_127_0_0_1, per_peer=2) as served:
            busy = []
            for _ in range(2):
                reader, writer = await connect(served.port, "127.0.0.2")
                writer.write(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
                busy.append((reader, writer))
            await asyncio.sleep(0.1)
            assert (await ask(served.port, "127.0.0.2")).startswith(b"HTTP/1.1 503")
            assert (await ask(served.port, "127.0.0.3")).startswith(b"HTTP/1.1 200")
            assert (await ask(served.port)).startswith(b"HTTP/1.1 200")
            close_all(busy)

    run(scenario())
