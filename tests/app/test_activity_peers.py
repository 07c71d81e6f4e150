"""Where a process tells the bot's other processes it serves the Activity."""

from __future__ import annotations

import asyncio
import logging
import socket

import pytest

from app.activity_peers import ShardLocator, peer_url
from app.settings import ActivitySettings
from db import Database
from db.leases import ShardLeases
from tests.ports import free_port
from tests.postgres_server import PostgresServer


def test_the_address_given_is_used_as_it_is() -> None:
    given = ActivitySettings("s", host="0.0.0.0", port=8081, peer_url="https://rummy-2:8443")
    assert peer_url(given, 8081) == "https://rummy-2:8443"


def test_without_one_it_is_the_address_and_port_the_server_listens_on() -> None:
    assert peer_url(ActivitySettings("s", host="10.0.0.7"), 40123) == "http://10.0.0.7:40123"
    assert peer_url(ActivitySettings("s", host="::1"), 8081) == "http://[::1]:8081"
    # Every interface is no address a peer can connect to: this machine's name is.
    everywhere = peer_url(ActivitySettings("s", host="0.0.0.0"), 8081)
    assert everywhere == f"http://{socket.gethostname()}:8081"


async def leases_of(url: str, shard: int, web_url: str) -> ShardLeases:
    leases = ShardLeases(url, ttl=30, shard_count=2)
    leases.web_url = web_url
    assert await leases.take([shard], all_or_none=True) == (shard,)
    return leases


async def test_pages_asking_at_once_share_one_lookup_and_its_answer_for_a_moment(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.new_database()
    await (await Database.open(url)).close()
    mine, theirs = (await leases_of(url, 0, "http://mine"), await leases_of(url, 1, "http://theirs"))
    try:
        locator = ShardLocator(mine, located_for=0.5)
        elsewhere, here = 1 << 22, 2 << 22
        answers = await asyncio.gather(*(locator.served_at(elsewhere) for _ in range(200)))
        assert set(answers) == {"http://theirs"} and locator.lookups == 1
        assert await locator.served_at(here) is None and locator.lookups == 1
        await asyncio.sleep(0.6)  # the answer is taken as true only so long
        assert await locator.served_at(elsewhere) == "http://theirs"
        assert locator.lookups == 2
    finally:
        await mine.release()
        await theirs.release()


async def test_a_database_that_cannot_say_means_try_again_and_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    port = free_port()
    leases = ShardLeases(f"postgresql://nobody@127.0.0.1:{port}/none", ttl=30, shard_count=2)
    locator = ShardLocator(leases, located_for=0.0)
    with caplog.at_level(logging.WARNING):
        for _ in range(20):
            assert await locator.served_at(1 << 22) == ""
    warned = [r for r in caplog.records if "cannot tell which process" in r.getMessage()]
    assert len(warned) == 1 and locator.lookups == 20
