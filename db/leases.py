"""Shard leases on PostgreSQL: which process serves which shards.

A lease is a row of ``shard_leases``: its holder, an *epoch*, and the moment
it runs out by the database's clock. The holder renews it well before then;
another process may take it only once it has run out, and taking it raises
its epoch. Two promises follow, whatever the network does:

- **The holder stops first.** A holder counts the lease's life from the moment
  it *sent* its last renewal that the database confirmed, by its own clock, and
  stops serving at :data:`STEP_DOWN` of it. The database counts from when it
  ran that renewal, which is later. So a holder cut off from the database (a
  partition it cannot see, a server restarting) has stopped before the row
  runs out and anyone else may take it; a takeover never depends on when
  PostgreSQL notices a dead connection.
- **A late write is refused.** Every save of a live table carries the epoch it
  was made under (:meth:`ShardLeases.fence`), and the statement writes only
  while that epoch is still the lease's (``db.postgres_store``): a process that
  lost its lease can never overwrite what its successor saved.

A process that stops cleanly lets its leases run out at once
(:meth:`ShardLeases.release`), so a standby takes over within its next check.
One that dies without a word is taken over once its leases run out.
``app.standby`` decides when to take, renew and give up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Final, TypeVar

import asyncpg

from .errors import StorageError
from .postgres_link import CONNECT_TIMEOUT, shown_url
from .session import Session

log = logging.getLogger(__name__)

T = TypeVar("T")

# The shard of every server, for a process that runs every shard of an
# unsharded bot.
WHOLE_BOT: Final = -1
# The share of a lease's life a holder serves on one renewal; the rest is the
# margin for stopping (a gateway to close, an event loop running late).
STEP_DOWN: Final = 0.8

_DB_NOW: Final = "extract(epoch FROM clock_timestamp())"

# Takes every shard asked for whose lease has run out (or was never taken);
# the shards taken, with their new epochs.
SQL_TAKE: Final = f"""
INSERT INTO shard_leases (shard, epoch, holder, expires_at, web_url)
SELECT shard, 1, $2, {_DB_NOW} + $3, $4 FROM unnest($1::bigint[]) AS wanted (shard)
ON CONFLICT (shard) DO UPDATE SET
    epoch = shard_leases.epoch + 1, holder = excluded.holder, expires_at = excluded.expires_at,
    web_url = excluded.web_url
WHERE shard_leases.expires_at < {_DB_NOW}
RETURNING shard, epoch
"""
# Extends the leases still held at the epochs this process took them at, and
# says where it serves the Activity (known only once its server listens).
SQL_RENEW: Final = f"""
UPDATE shard_leases SET expires_at = {_DB_NOW} + $4, web_url = $5
FROM unnest($2::bigint[], $3::bigint[]) AS mine (shard, epoch)
WHERE shard_leases.shard = mine.shard AND shard_leases.epoch = mine.epoch
  AND shard_leases.holder = $1
RETURNING shard_leases.shard
"""
# Where another process serving the shard now serves the Activity.
SQL_SERVED_AT: Final = f"""
SELECT web_url FROM shard_leases
WHERE shard = $1 AND holder <> $2 AND expires_at > {_DB_NOW}
"""
# Lets the leases run out now, for a standby to take at its next check.
SQL_RELEASE: Final = """
UPDATE shard_leases SET expires_at = 0
FROM unnest($2::bigint[], $3::bigint[]) AS mine (shard, epoch)
WHERE shard_leases.shard = mine.shard AND shard_leases.epoch = mine.epoch
  AND shard_leases.holder = $1
"""


# Inside a write's transaction: the lease still at the epoch the process
# holds, kept so (FOR SHARE) until the write commits.
SQL_STILL_HELD: Final = "SELECT 1 FROM shard_leases WHERE shard = ? AND epoch = ? FOR SHARE"


class LeaseLost(StorageError):
    """The database refused a write made under a lease this process no longer holds."""


class ShardLeases:
    """The leases one process holds, and how long it may still serve them."""

    def __init__(self, url: str, *, ttl: float, shard_count: int | None = None) -> None:
        # Renewals never wait behind anything but the lease work itself: asking
        # where a shard is served (a page's hello, at whatever rate pages come)
        # has a connection of its own, so a flood of pages can delay a lookup,
        # never a renewal.
        self._leasing = _Link(url, "the shard leases")
        self._locating = _Link(url, "finding the process of a shard")
        self.ttl = ttl
        self.shard_count = shard_count
        # Each process start is a new holder, so a restarted process never
        # mistakes its predecessor's leases for its own.
        self.holder = uuid.uuid4().hex[:12]
        self.epochs: dict[int, int] = {}
        self._serve_until = 0.0
        # Set the moment this process learns it lost a lease (a refused write),
        # so that it stops without waiting for its next renewal.
        self.revoked = asyncio.Event()
        # Where this process serves the Activity to the others (None: it does not).
        self.web_url: str | None = None

    @property
    def held(self) -> tuple[int, ...]:
        return tuple(sorted(self.epochs))

    def serving_for(self) -> float:
        """Seconds this process may still serve its shards without a renewal."""
        if self.revoked.is_set():
            return 0.0
        return self._serve_until - time.monotonic()

    def unconfirmed_for(self) -> float:
        """Seconds since the last renewal the database confirmed was sent: a
        process frozen meanwhile (stopped, swapped out) had no failure to count
        from, and steps down on this."""
        if not self.epochs:
            return 0.0
        return max(0.0, time.monotonic() - (self._serve_until - self.ttl * STEP_DOWN))

    def shard_of(self, guild_id: int) -> int:
        """The shard a server's events come on (Discord's formula)."""
        if self.shard_count is None:
            return WHOLE_BOT
        return (guild_id >> 22) % self.shard_count

    def fence(self, guild_id: int) -> tuple[int, int]:
        """(shard, epoch) a save for this server is made under; LeaseLost if
        this process holds no lease for it."""
        shard = self.shard_of(guild_id)
        epoch = self.epochs.get(shard)
        if epoch is None or self.serving_for() <= 0:
            raise LeaseLost(f"this process no longer serves shard {shard}")
        return shard, epoch

    async def hold(self, conn: Session, guild_id: int) -> None:
        """In ``conn``'s transaction: go on only while this process holds the
        lease of the server's shard, and keep it from being taken until the
        transaction ends; LeaseLost otherwise."""
        shard, epoch = self.fence(guild_id)
        if not await conn.fetch(SQL_STILL_HELD, (shard, epoch)):
            raise self.refused(f"a write for server {guild_id}")

    def refused(self, what: str) -> LeaseLost:
        """The database refused a fenced write: another process holds the lease now."""
        self.revoked.set()
        return LeaseLost(f"{what} was refused: another process serves its shard now")

    async def take(self, shards: Sequence[int], *, all_or_none: bool) -> tuple[int, ...]:
        """Take every shard of ``shards`` whose lease has run out; with
        ``all_or_none``, either all of them or none. The shards newly held."""
        wanted = [shard for shard in shards if shard not in self.epochs]
        if not wanted:
            return ()
        sent = time.monotonic()

        async def attempt(conn: asyncpg.Connection) -> Mapping[int, int]:
            async with conn.transaction():
                rows = await conn.fetch(SQL_TAKE, wanted, self.holder, self.ttl, self.web_url)
                taken = {int(row["shard"]): int(row["epoch"]) for row in rows}
                if all_or_none and len(taken) < len(wanted):
                    raise _NoneTaken
            return taken

        try:
            taken = await self._leasing.run("taking the shard leases", attempt, CONNECT_TIMEOUT)
        except _NoneTaken:
            return ()
        if taken:
            if not self.epochs:
                self._serve_until = sent + self.ttl * STEP_DOWN
            self.epochs.update(taken)
            log.debug("took the leases of %s at epochs %s", list(taken), taken)
        return tuple(sorted(taken))

    async def renew(self, timeout: float) -> bool:  # noqa: ASYNC109
        """Extend every lease held; False if another process holds any of them
        now. StorageError if the database did not answer within ``timeout``:
        the leases may still be this process's, until :meth:`serving_for` runs out."""
        if not self.epochs:
            return True
        shards = list(self.epochs)
        sent = time.monotonic()

        async def attempt(conn: asyncpg.Connection) -> set[int]:
            rows = await conn.fetch(SQL_RENEW, self.holder, shards,
                                    [self.epochs[s] for s in shards], self.ttl, self.web_url)
            return {int(row[0]) for row in rows}

        kept = await self._leasing.run("renewing the shard leases", attempt, timeout)
        if kept != set(shards):
            self.revoked.set()
            return False
        if not self.revoked.is_set():
            self._serve_until = max(self._serve_until, sent + self.ttl * STEP_DOWN)
        return True

    async def served_at(self, guild_id: int, timeout: float) -> str | None:  # noqa: ASYNC109
        """Where another process serving the server's shard serves the Activity;
        None if this process serves it; "" if nobody does now (a takeover under
        way, or a holder that has not said where yet). StorageError if the
        database did not answer within ``timeout``."""
        shard = self.shard_of(guild_id)
        if shard in self.epochs:
            return None

        async def attempt(conn: asyncpg.Connection) -> str | None:
            found = await conn.fetchval(SQL_SERVED_AT, shard, self.holder)
            return "" if found is None else str(found)

        return await self._locating.run("finding the process of a shard", attempt, timeout)

    async def release(self) -> None:
        """Let every lease run out now (a clean stop: a standby takes over at
        its next check). Best effort: unreachable, they run out by themselves."""
        still_mine = self.serving_for() > 0
        held, self.epochs = self.epochs, {}
        self._serve_until = 0.0
        # Leases this process had stopped serving under are another's, or soon
        # will be: nothing to hand over, and the database may not even answer.
        if still_mine and held and self._leasing.open:

            async def attempt(conn: asyncpg.Connection) -> None:
                await conn.execute(SQL_RELEASE, self.holder, list(held), list(held.values()))

            with contextlib.suppress(StorageError):
                await self._leasing.run("releasing the shard leases", attempt, CONNECT_TIMEOUT)
        self._leasing.drop()
        self._locating.drop()


class _Link:
    """One connection to the database, one query at a time: a query that fails
    or does not answer in time cuts it, and the next one connects anew."""

    def __init__(self, url: str, what: str) -> None:
        self._url = url
        self._what = what
        self._conn: asyncpg.Connection | None = None
        self._one_at_a_time = asyncio.Lock()

    @property
    def open(self) -> bool:
        return self._conn is not None and not self._conn.is_closed()

    async def run(
        self,
        what: str,
        body: Callable[[asyncpg.Connection], Awaitable[T]],
        timeout: float,  # noqa: ASYNC109
    ) -> T:
        """``body`` on this connection within ``timeout`` seconds; the failure,
        whatever it was, is a StorageError."""
        deadline = time.monotonic() + timeout
        try:
            async with asyncio.timeout(timeout):
                await self._one_at_a_time.acquire()
        except TimeoutError as exc:
            raise StorageError(f"{what} failed: the connection for {self._what} is busy") from exc
        try:
            conn = await self._connection(max(0.0, deadline - time.monotonic()))
            return await asyncio.wait_for(body(conn), max(0.0, deadline - time.monotonic()))
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            # Cut rather than closed: closing waits on a server that may be gone.
            self.drop()
            raise StorageError(f"{what} failed: {exc or type(exc).__name__}") from exc
        finally:
            self._one_at_a_time.release()

    async def _connection(self, timeout: float) -> asyncpg.Connection:  # noqa: ASYNC109
        if self._conn is None or self._conn.is_closed():
            try:
                self._conn = await asyncpg.connect(self._url, timeout=timeout)
            except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
                raise StorageError(
                    f"cannot reach {shown_url(self._url)} for {self._what}: {exc}"
                ) from exc
        return self._conn

    def drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            conn.terminate()


class _NoneTaken(Exception):
    """All or none, and not all were free: the transaction is rolled back."""
