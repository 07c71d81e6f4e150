"""Shard leases on a real PostgreSQL server: one holder per shard, all or none
for a process with fixed shards, any free ones for a standby; a holder cut off
from the database stops serving before anyone may take its shards, a server
restart gives nothing away, and a write under a lost lease is refused."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time

import asyncpg
import pytest

from db import Database, StorageError
from db.leases import STEP_DOWN, WHOLE_BOT, LeaseLost, ShardLeases
from db.models import LiveTable
from tests.cuttable_link import CuttableLink
from tests.postgres_server import PostgresServer

from .factories import random_matches

TTL = 1.0


async def leased_database(url: str) -> str:
    await (await Database.open(url)).close()  # the schema, with its lease table
    return url


async def take_once_free(leases: ShardLeases, shard: int, *, limit: float = 10.0) -> None:
    """Try to take ``shard`` until it has run out and is taken."""
    for _ in range(int(limit / 0.02)):
        if await leases.take([shard], all_or_none=True):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"shard {shard} never came free")


async def lease_rows(url: str) -> dict[int, tuple[int, str]]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT shard, epoch, holder FROM shard_leases")
    finally:
        await conn.close()
    return {row["shard"]: (row["epoch"], row["holder"]) for row in rows}


async def test_a_shard_has_one_holder_and_comes_free_when_released(
    postgres_server: PostgresServer,
) -> None:
    url = await leased_database(postgres_server.new_database())
    first, second, standby = (ShardLeases(url, ttl=30) for _ in range(3))
    try:
        assert await first.take([0, 1], all_or_none=True) == (0, 1)
        # Shard 1 is held: all or none takes none, and keeps nothing of 2.
        assert await second.take([1, 2], all_or_none=True) == ()
        assert second.held == ()
        assert await second.take([2, 3], all_or_none=True) == (2, 3)
        assert await standby.take([0, 1, 2, 3], all_or_none=False) == ()
        await first.release()  # a clean stop: the leases run out at once
        assert await standby.take([0, 1, 2, 3], all_or_none=False) == (0, 1)
        assert standby.held == (0, 1)
        assert await first.take([0], all_or_none=True) == ()
        # Each takeover raised the shard's epoch.
        rows = await lease_rows(url)
        assert rows[0] == (2, standby.holder) and rows[2] == (1, second.holder)
    finally:
        for leases in (first, second, standby):
            await leases.release()


async def test_a_lease_nobody_renews_runs_out_and_its_holder_has_stopped_by_then(
    postgres_server: PostgresServer,
) -> None:
    url = await leased_database(postgres_server.new_database())
    mine, other = ShardLeases(url, ttl=TTL), ShardLeases(url, ttl=TTL)
    try:
        assert await mine.take([WHOLE_BOT], all_or_none=True) == (WHOLE_BOT,)
        assert 0 < mine.serving_for() <= TTL * STEP_DOWN
        assert await mine.renew(timeout=1.0)
        # Not renewed again: the other process waits until the lease runs out,
        # and every time it may take it, this one has already stopped serving.
        for _ in range(500):
            if await other.take([WHOLE_BOT], all_or_none=True):
                break
            await asyncio.sleep(0.02)
        assert mine.serving_for() <= 0
        # Too late to renew: the lease is another's now.
        assert not await mine.renew(timeout=1.0)
        assert mine.revoked.is_set() and mine.serving_for() == 0
        assert (await lease_rows(url))[WHOLE_BOT] == (2, other.holder)
    finally:
        await mine.release()
        await other.release()


async def test_a_server_restart_gives_no_lease_away(postgres_server: PostgresServer) -> None:
    url = await leased_database(postgres_server.new_database())
    mine, other = ShardLeases(url, ttl=60), ShardLeases(url, ttl=60)
    try:
        assert await mine.take([0, 1], all_or_none=True) == (0, 1)
        postgres_server.stop()
        try:
            with pytest.raises(StorageError):
                await mine.renew(timeout=1.0)
            assert mine.serving_for() > 0  # it may serve on while its lease lasts
        finally:
            postgres_server.start()
        # Back: the leases were never free, so the other process takes nothing,
        # however quick it is, and this one renews them.
        assert await other.take([0, 1], all_or_none=False) == ()
        assert await mine.renew(timeout=5.0) and mine.held == (0, 1)
        assert {shard: holder for shard, (_, holder) in (await lease_rows(url)).items()} == {
            0: mine.holder, 1: mine.holder
        }
    finally:
        await mine.release()
        await other.release()


async def test_a_holder_cut_off_silently_stops_serving_before_its_shards_are_taken(
    postgres_server: PostgresServer,
) -> None:
    url = await leased_database(postgres_server.new_database())
    link = await CuttableLink("127.0.0.1", postgres_server.port).start()
    mine = ShardLeases(link.url(url), ttl=TTL)
    other = ShardLeases(url, ttl=TTL)
    try:
        assert await mine.take([0], all_or_none=True) == (0,)
        assert await mine.renew(timeout=1.0)
        # The link goes silent, and the server drops this holder's session at
        # once: nothing PostgreSQL does frees the lease early.
        link.cut()
        link.drop_server_side()
        with pytest.raises(StorageError):
            await mine.renew(timeout=0.3)
        await take_once_free(other, 0)
        assert mine.serving_for() <= 0, "two processes could serve shard 0"
        # Healed: the old holder learns that it lost the lease.
        link.heal()
        assert not await mine.renew(timeout=5.0)
    finally:
        link.heal()
        await mine.release()
        await other.release()
        await link.close()


def live(channel: int, state: dict[str, int], guild: int = 7 << 22) -> LiveTable:
    return LiveTable(channel, guild, None, {}, state, time.time())


async def test_a_save_held_up_by_a_partition_is_refused_once_the_lease_moved_on(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.new_database()
    link = await CuttableLink("127.0.0.1", postgres_server.port).start()
    old, new = await Database.open(link.url(url)), await Database.open(url)
    old_leases = old.shard_leases(ttl=TTL, shard_count=4)
    new_leases = new.shard_leases(ttl=TTL, shard_count=4)
    assert old_leases is not None and new_leases is not None
    guild = 7 << 22  # on shard 7 % 4 = 3
    try:
        assert await old_leases.take([3], all_or_none=True) == (3,)
        await old.save_live_table(live(1, {"move": 1}, guild))
        # A move is saved just as the link goes silent: the statement is on
        # its way, under the epoch the lease had.
        link.cut()
        late = asyncio.ensure_future(old.save_live_table(live(1, {"move": 0}, guild)))
        # The lease runs out and is taken over; the new holder saves a move.
        await take_once_free(new_leases, 3)
        assert [t.state for t in (await new.load_live_tables()).tables] == [{"move": 1}]
        await new.save_live_table(live(1, {"move": 2}, guild))
        # The link heals and the held-up save arrives: the database refuses it.
        link.heal()
        with pytest.raises(LeaseLost, match="another process serves its shard now"):
            await late
        assert old_leases.revoked.is_set() and old_leases.serving_for() == 0
        # Nothing more is written under the old lease, not even a new table.
        with pytest.raises(LeaseLost):
            await old.save_live_table(live(2, {"move": 9}, guild))
        assert [(t.channel_id, t.state) for t in (await new.load_live_tables()).tables] == [
            (1, {"move": 2})
        ]
        # Nor can it end the game: neither forget the table nor record its match.
        with pytest.raises(LeaseLost):
            await old.delete_live_table(1)
        [match] = random_matches(random.Random(1), 1, users=[1, 2], guilds=[guild])
        with pytest.raises(LeaseLost):
            await old.record_match(dataclasses.replace(match, channel_id=1), remove_live=1)
        assert [t.channel_id for t in (await new.load_live_tables()).tables] == [1]
        assert await new.latest_match(1) is None
        # Its successor can.
        await new.record_match(dataclasses.replace(match, channel_id=1), remove_live=1)
        assert (await new.load_live_tables()).tables == []
        # A server on a shard this process does not hold is refused before any write.
        with pytest.raises(LeaseLost, match="no longer serves shard 0"):
            await new.save_live_table(live(3, {"move": 1}, guild=4 << 22))
    finally:
        link.heal()
        for db in (old, new):
            await db.close()
        await old_leases.release()
        await new_leases.release()
        await link.close()


async def test_asking_where_shards_are_served_never_holds_up_a_renewal(
    postgres_server: PostgresServer,
) -> None:
    url = await leased_database(postgres_server.new_database())
    mine, theirs = (ShardLeases(url, ttl=30, shard_count=2) for _ in range(2))
    theirs.web_url = "http://theirs:8081"
    try:
        assert await mine.take([0], all_or_none=True) == (0,)
        assert await theirs.take([1], all_or_none=True) == (1,)
        guild_of_shard_1 = 1 << 22
        # Pages flood this process, each asking where their server is played...
        lookups = [asyncio.create_task(mine.served_at(guild_of_shard_1, 30.0))
                   for _ in range(1500)]
        await asyncio.sleep(0)
        # ... and the renewal, which keeps it serving, does not wait behind them.
        assert await mine.renew(0.1)
        assert set(await asyncio.gather(*lookups)) == {"http://theirs:8081"}
        assert await mine.served_at(0, 1.0) is None
    finally:
        for leases in (mine, theirs):
            await leases.release()


async def test_how_long_leases_went_unconfirmed_counts_from_the_last_renewal(
    postgres_server: PostgresServer,
) -> None:
    url = await leased_database(postgres_server.new_database())
    leases = ShardLeases(url, ttl=TTL)
    try:
        assert leases.unconfirmed_for() == 0.0  # nothing held, nothing to confirm
        assert await leases.take([WHOLE_BOT], all_or_none=True) == (WHOLE_BOT,)
        # A process frozen with nothing failing meanwhile still knows how long
        # it went without a renewal (it said -0.0 s when stepping down).
        await asyncio.sleep(0.3)
        before_renewal = leases.unconfirmed_for()
        assert before_renewal >= 0.3
        assert await leases.renew(1.0)
        assert leases.unconfirmed_for() < before_renewal
    finally:
        await leases.release()
