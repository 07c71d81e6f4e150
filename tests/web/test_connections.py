"""The Activity's listening socket under the event loop the bot runs on (uvloop):
a connection past the limit is answered 503 and closed, and nothing is logged
as a failure; one under it reaches the server."""

from __future__ import annotations

import asyncio
import logging

import pytest
import uvloop
from aiohttp import web

from web.connections import CappedListener


async def page(_request: web.Request) -> web.Response:
    return web.Response(text="the page")


async def hold_and_overflow(limit: int) -> list[bytes]:
    app = web.Application()
    app.router.add_get("/", page)
    runner = web.AppRunner(app, keepalive_timeout=30)
    await runner.setup()
    assert runner.server is not None
    listener = CappedListener(runner.server, limit)
    port = await listener.start("127.0.0.1", 0)
    held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(limit)]
    await asyncio.sleep(0.1)
    answers = []
    for _ in range(3):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        answers.append(await asyncio.wait_for(reader.read(), 5))
        writer.close()
    for _reader, writer in held:
        writer.close()
    await listener.stop()
    await runner.cleanup()
    assert listener.turned_away == 3
    return answers


def test_past_the_limit_a_connection_is_told_to_come_back_under_uvloop(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        answers = runner.run(hold_and_overflow(4))
    assert all(answer.startswith(b"HTTP/1.1 503") for answer in answers)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
