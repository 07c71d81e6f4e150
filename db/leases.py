"""Shard leases on PostgreSQL: which process serves which shards.

A lease is a session advisory lock on a connection of its own: the server
holds it exactly as long as that connection lives, so a process that dies,
however it dies, lets go of its shards at once (or, for a host that vanished,
once TCP keepalives give up on it: about 20 seconds). Two processes can never
hold one shard. A process that cannot take its shards waits as a standby and
tries again; ``app.standby`` decides when.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Final

import asyncpg

from .errors import StorageError
from .postgres_link import CONNECT_TIMEOUT, KEEPALIVES, shown_url

log = logging.getLogger(__name__)

# The first key of every lease lock: "SHRD". The second is the shard, or
# WHOLE_BOT for a process that runs every shard of an unsharded bot.
LEASE_LOCK: Final = 0x53485244
WHOLE_BOT: Final = -1


class ShardLeases:
    """The leases one process holds, on one connection."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._conn: asyncpg.Connection | None = None
        self.held: tuple[int, ...] = ()

    async def _connection(self) -> asyncpg.Connection:
        if self._conn is None or self._conn.is_closed():
            try:
                self._conn = await asyncpg.connect(
                    self._url, timeout=CONNECT_TIMEOUT, server_settings=KEEPALIVES
                )
            except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
                raise StorageError(
                    f"cannot reach {shown_url(self._url)} for the shard leases: {exc}"
                ) from exc
        return self._conn

    async def take(self, shards: Sequence[int], *, all_or_none: bool) -> tuple[int, ...]:
        """Take every shard of ``shards`` nobody holds; with ``all_or_none``,
        either all of them or none. The shards now held (in addition to any
        held before)."""
        conn = await self._connection()
        taken: list[int] = []
        try:
            for shard in shards:
                if shard in self.held:
                    continue
                if await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", LEASE_LOCK, shard):
                    taken.append(shard)
                elif all_or_none:
                    for undo in taken:
                        await conn.execute("SELECT pg_advisory_unlock($1, $2)", LEASE_LOCK, undo)
                    return ()
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            # The locks of a broken connection are gone with it.
            await self._drop()
            raise StorageError(f"taking the shard leases failed: {exc}") from exc
        self.held = tuple(sorted((*self.held, *taken)))
        return tuple(taken)

    async def still_held(self) -> bool:
        """Whether the leases are still this process's: their connection is alive,
        or could be made again and every lease taken back before anyone else."""
        if not self.held:
            return True
        conn = self._conn
        if conn is not None and not conn.is_closed():
            try:
                await conn.fetchval("SELECT 1", timeout=CONNECT_TIMEOUT)
                return True
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
                await self._drop()
        wanted, self.held = self.held, ()
        try:
            back = await self.take(wanted, all_or_none=True)
        except StorageError:
            self.held = wanted  # the server is still away: nobody else can take them either
            return True
        if back:
            log.warning("the database connection came back; shard leases %s kept", list(back))
            return True
        return False

    async def release(self) -> None:
        """Let go of every lease (a clean stop: a standby takes over at once)."""
        self.held = ()
        await self._drop()

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            try:
                await conn.close(timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
                conn.terminate()
