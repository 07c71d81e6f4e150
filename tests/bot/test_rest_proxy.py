"""Several processes behind one REST rate-limit proxy (``DISCORD_API_BASE``).

Discord's global limit is the bot's, not a process's: large bots put one proxy
in front of every process, which holds the bot-wide budget. The proxy here is
the smallest such thing, a forwarder that spaces requests to the global rate:
the test is of the bot, that every REST call of every process (interaction
answers included) goes through the proxy, and that play works behind it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from fakediscord import FakeDiscord
from fakediscord.core.traffic import RecordedRequest
from tests.bot_process import BotProcess
from tests.ports import free_port

from .conftest import Server
from .test_standby import connected_shards, deal_and_draw, tables_on_shards

# Headers a forwarder must not copy: they describe one hop, not the request.
HOP = {"host", "content-length", "transfer-encoding", "connection", "content-encoding"}


class RateLimitProxy:
    """Forwards every request to the emulator, at most ``rate`` a second in all."""

    def __init__(self, upstream: str, rate: float) -> None:
        self.upstream = upstream
        self.gap = 1.0 / rate
        self.forwarded = 0
        self._next = 0.0
        self._turn = asyncio.Lock()
        self._client: aiohttp.ClientSession | None = None
        self._runner: web.AppRunner | None = None
        self.port = free_port()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def start(self) -> None:
        self._client = aiohttp.ClientSession(auto_decompress=False)
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_route("*", "/api/v10/{path:.*}", self._forward)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._client is not None:
            await self._client.close()

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        async with self._turn:  # one bot-wide budget, whichever process asks
            loop = asyncio.get_running_loop()
            wait = self._next - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            self._next = max(loop.time(), self._next) + self.gap
        assert self._client is not None
        target = self.upstream + "/" + request.match_info["path"]
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
        async with self._client.request(request.method, target, params=request.query,
                                        headers=headers, data=await request.read()) as answer:
            body = await answer.read()
            self.forwarded += 1
            copied = {k: v for k, v in answer.headers.items() if k.lower() not in HOP}
            return web.Response(status=answer.status, headers=copied, body=body)


@pytest.fixture
async def proxy(fake_discord: FakeDiscord) -> AsyncIterator[RateLimitProxy]:
    forwarder = RateLimitProxy(fake_discord.api_base, rate=45)
    await forwarder.start()
    yield forwarder
    await forwarder.stop()


async def test_two_processes_play_behind_one_proxy(
    server: Server, proxy: RateLimitProxy, tmp_path: Path
) -> None:
    emu = server.emu
    seen: list[RecordedRequest] = []
    emu.traffic.on_http.append(seen.append)
    tables = tables_on_shards(server, 2)
    bots = [
        await BotProcess.start(
            emu, tmp_path / f"shard{shard}.sqlite3", tmp_path / f"shard{shard}.log",
            extra_env={"DISCORD_API_BASE": proxy.url, "SHARD_COUNT": "2",
                       "SHARD_IDS": str(shard), "REST_RATE": "35"})
        for shard in (0, 1)
    ]
    try:
        await emu._wait_until(lambda: connected_shards(server) == {0, 1}, 60)
        for channel, players in tables.values():
            mover = await deal_and_draw(channel, players)
            done = await mover.discard(mover.hand()[-1])
            assert "⚠️" not in done.text()
        for bot in bots:
            assert await bot.stop() == 0, bot.log_tail()
    finally:
        for bot in bots:
            await bot.stop()
    # Every request the emulator answered came through the proxy, and none was
    # refused for the global limit.
    assert proxy.forwarded == len(seen) > 0
    assert not [r for r in seen if r.status == 429]
    for bot in bots:
        assert bot.log_counts()[0] == 0, bot.log_tail()
    refused = emu.take_problems()
    assert all("APPLICATION_EMOJI_NAME_ALREADY_TAKEN" in problem for problem in refused), refused

