"""Shard leases on a real PostgreSQL server: one holder per shard, all or none
for a process with fixed shards, any free ones for a standby, and what a
server restart does to them."""

from __future__ import annotations

from db.leases import ShardLeases
from tests.postgres_server import PostgresServer


async def test_a_shard_has_one_holder_and_comes_free_when_it_goes(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.new_database()
    first, second, standby = ShardLeases(url), ShardLeases(url), ShardLeases(url)
    try:
        assert await first.take([0, 1], all_or_none=True) == (0, 1)
        # Shard 1 is held: all or none takes none, and keeps nothing of 2.
        assert await second.take([1, 2], all_or_none=True) == ()
        assert await second.take([2, 3], all_or_none=True) == (2, 3)
        assert await standby.take([0, 1, 2, 3], all_or_none=False) == ()
        await first.release()  # as the process dies, its connection goes
        assert await standby.take([0, 1, 2, 3], all_or_none=False) == (0, 1)
        assert standby.held == (0, 1)
        assert await first.take([0], all_or_none=True) == ()
    finally:
        for leases in (first, second, standby):
            await leases.release()


async def test_after_a_server_restart_the_leases_are_taken_back_or_given_up(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.new_database()
    mine, other = ShardLeases(url), ShardLeases(url)
    try:
        assert await mine.take([0, 1], all_or_none=True) == (0, 1)
        postgres_server.stop()
        try:
            # Away: nobody can take them either; this process keeps serving.
            assert await mine.still_held()
        finally:
            postgres_server.start()
        assert await mine.still_held() and mine.held == (0, 1)  # taken back first
        # Another restart, and this time another process is quicker.
        postgres_server.stop()
        postgres_server.start()
        assert await other.take([0, 1], all_or_none=True) == (0, 1)
        assert not await mine.still_held()
    finally:
        await mine.release()
        await other.release()
