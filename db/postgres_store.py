"""The PostgreSQL store: several bot processes on one database server.

Chosen with ``DATABASE_URL=postgresql://...``. The queries are those the
modules of ``db`` write over a ``Session``; here a unit of work borrows a
connection of an asyncpg pool for its time, so units run side by side, each
in its own transaction where it needs one. Units that read and rewrite a
server's ratings take that server's turn (a transaction-scoped advisory
lock), whichever process runs them. Processes hear of each other's changes
to players' choices through LISTEN (``db.changes``).

Durability, as on SQLite. Results, stats, ratings and settings are committed
with the server's own ``synchronous_commit`` (on by default): on its disk
before the method returns. Live-table saves are committed in groups
(``db.save_queue``) with ``synchronous_commit = off`` for their transaction:
each is committed, and seen by every other process (a standby taking over),
before the method returns, so a game survives the bot's process stopping or
crashing at any moment; only a crash of the PostgreSQL server or its machine
could lose the last moves, the server's log reaching the disk a fraction of a
second later (``wal_writer_delay``) rather than at every move. A flush at
every move made every table wait for the disk: ``python -m
tests.bench.load --store postgresql`` shows what each costs.

A connection that breaks (the server restarted, the network dropped) fails
the unit it carried with StorageError, and the pool forgets every connection
of the same age, so the next unit connects afresh: play resumes when the
server is back.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, Final, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from .changes import ChangeListener
from .database import Database, is_server_url
from .errors import StorageError
from .leases import ShardLeases
from .live_tables import Fence, live_row, save_statement
from .migrations import LATEST_VERSION, migration_failed, too_new
from .models import LiveTable
from .postgres_link import COMMAND_TIMEOUT, CONNECT_TIMEOUT, KEEPALIVES, POOL_SIZE, shown_url
from .postgres_schema import POSTGRES_MIGRATIONS
from .save_queue import SaveQueue
from .session import Row, Session
from .settings import PREFS_CHANGED

log = logging.getLogger(__name__)

T = TypeVar("T")

# At most this many saves in one group commit: six parameters a row, far below
# PostgreSQL's 32,767 in one statement.
MAX_SAVES_PER_COMMIT: Final = 500
# The first key of the advisory lock the migrations take: "RUMY".
MIGRATION_LOCK: Final = 0x52554D59

# A connection of its own or one lent by the pool.
Connection = asyncpg.Connection | PoolConnectionProxy

_PLACEHOLDER: Final = re.compile(r"\?(\d*)")

# A group commit of live tables under shard leases (db.leases): a table is
# written only while the epoch it was saved under is still its shard's, and
# the lease row is held (FOR SHARE) until the commit, so a takeover waits for
# a save already under way instead of missing it. The tables written come back.
SQL_SAVE_FENCED: Final = """
INSERT INTO live_tables (channel_id, guild_id, message_id, rules, state, updated_at)
SELECT v.channel_id, v.guild_id, v.message_id, v.rules, v.state, v.updated_at
FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[],
            $6::double precision[], $7::bigint[], $8::bigint[])
     AS v (channel_id, guild_id, message_id, rules, state, updated_at, shard, epoch)
JOIN shard_leases AS lease ON lease.shard = v.shard AND lease.epoch = v.epoch
FOR SHARE OF lease
ON CONFLICT (channel_id) DO UPDATE SET
    guild_id = excluded.guild_id, message_id = excluded.message_id,
    rules = excluded.rules, state = excluded.state, updated_at = excluded.updated_at
RETURNING channel_id
"""


@functools.lru_cache(maxsize=512)
def dollar_params(sql: str) -> str:
    """The statement with asyncpg's ``$n`` for each ``?`` (``?N`` keeps its number)."""
    count = 0

    def number(found: re.Match[str]) -> str:
        nonlocal count
        if found.group(1):
            return f"${found.group(1)}"
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


class PostgresSession(Session):
    """One pooled asyncpg connection, as the queries see it."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [tuple(row) for row in await self._conn.fetch(dollar_params(sql), *params)]

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        status = await self._conn.execute(dollar_params(sql), *params)
        # "DELETE 3", "INSERT 0 1", "UPDATE 2": the last word counts the rows.
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = list(rows)
        if batch:
            await self._conn.executemany(dollar_params(sql), batch)

    async def serialise(self, key: int) -> None:
        await self._conn.execute("SELECT pg_advisory_xact_lock($1)", key)

    async def notify(self, channel: str, payload: str) -> None:
        await self._conn.execute("SELECT pg_notify($1, $2)", channel, payload)

    def transaction(self) -> AbstractAsyncContextManager[None]:
        return _transaction(self._conn)


@asynccontextmanager
async def _transaction(conn: Connection) -> AsyncIterator[None]:
    async with conn.transaction():
        yield


class PostgresDatabase(Database):
    """A PostgreSQL database; open with ``await Database.open(url)``."""

    def __init__(self, url: str, pool: asyncpg.Pool, kept_results: Path) -> None:
        # Use Database.open: it connects and migrates before this exists.
        self.url = url
        self.where = shown_url(url)
        self.kept_results = kept_results
        self._pool: asyncpg.Pool | None = pool
        self._observe_commit: Callable[[float], None] | None = None
        # Units under way: close() lets them finish, as a save made just before
        # it must still be written.
        self._units: set[asyncio.Future[Any]] = set()
        self._saves = SaveQueue(self._commit_saves, MAX_SAVES_PER_COMMIT)
        self._save_conn: asyncpg.Connection | None = None
        self._closing = False
        # Set once this process serves shards under leases: its saves are fenced.
        self._leases: ShardLeases | None = None
        self._changes: ChangeListener | None = None

    @classmethod
    def handles(cls, target: str | os.PathLike[str]) -> bool:
        return is_server_url(target)

    @classmethod
    async def open(
        cls, url: str | os.PathLike[str], *, kept_results: Path | None = None
    ) -> PostgresDatabase:
        """Connect, check the server answers and takes writes, and migrate the
        database to the latest schema.

        Raises DatabaseTooNewError if a newer release wrote it, StorageError
        for anything else (a malformed URL, a server down or refusing the
        user, a database that is not the bot's, a failed migration), with a
        message that says what to check. ``kept_results`` defaults to
        ``rummy-results.unrecorded`` in the working folder.
        """
        target = str(url)
        where = shown_url(target)
        try:
            pool = await asyncpg.create_pool(
                target,
                # None kept open while idle: a server that went away leaves no
                # connection to be re-made in the background, only on demand.
                min_size=0,
                max_size=POOL_SIZE,
                timeout=CONNECT_TIMEOUT,
                command_timeout=COMMAND_TIMEOUT,
                server_settings=KEEPALIVES,
            )
        except (ValueError, asyncpg.InterfaceError) as exc:
            raise StorageError(_connect_error(where, exc)) from exc
        try:
            async with pool.acquire(timeout=CONNECT_TIMEOUT) as conn:
                await migrate(conn, where)
        except BaseException as exc:
            pool.terminate()
            if isinstance(exc, StorageError):
                raise
            if _unreachable(exc) or isinstance(
                exc,
                ValueError
                | asyncpg.InvalidCatalogNameError
                | asyncpg.InvalidAuthorizationSpecificationError,
            ):
                raise StorageError(_connect_error(where, exc)) from exc
            if isinstance(exc, asyncpg.PostgresError):
                raise StorageError(f"cannot prepare the database {where}: {exc}") from exc
            raise
        log.info("database %s open at schema version %d", where, LATEST_VERSION)
        return cls(target, pool, kept_results or Path("rummy-results.unrecorded"))

    def watch_player_prefs(self, heard: Callable[[int | None], None]) -> None:
        if self._changes is None:
            self._changes = ChangeListener(self.url)
        self._changes.listen(
            PREFS_CHANGED, lambda payload: heard(None if payload is None else int(payload))
        )

    async def close(self) -> None:
        if self._changes is not None:
            await self._changes.close()
            self._changes = None
        if self._pool is None:
            return
        self._closing = True  # the saves already made are written first
        await self._saves.drain()
        self._saves.stop()
        if self._save_conn is not None:
            await self._save_conn.close(timeout=COMMAND_TIMEOUT)
            self._save_conn = None
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if self._units:
            await asyncio.wait(self._units)
        try:
            await asyncio.wait_for(pool.close(), COMMAND_TIMEOUT)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            log.warning("closing %s did not finish; connections cut", self.where)
            pool.terminate()

    def abandon(self) -> None:
        if self._changes is not None:
            self._changes.abandon()
            self._changes = None
        self._saves.stop()
        if self._save_conn is not None:
            self._save_conn.terminate()
            self._save_conn = None
        pool, self._pool = self._pool, None
        if pool is not None:
            # Cut, not closed: the server rolls back what was open, as for a
            # process that died.
            pool.terminate()

    async def save_live_table(self, table: LiveTable) -> None:
        """See :meth:`Database.save_live_table`; saves made together are
        committed together (``db.save_queue``)."""
        row = live_row(table)
        if self._pool is None or self._closing:
            raise StorageError(
                f"saving the live table in channel {table.channel_id} failed: "
                f"the database {self.where} is closed"
            )
        if self._leases is not None:
            row = (*row, *self._leases.fence(table.guild_id))
        # The future, not the queue's task, is what a cancelled caller cancels.
        await self._saves.submit(table.channel_id, row)

    async def _commit_saves(self, rows: list[tuple[Any, ...]]) -> Mapping[int, StorageError]:
        """One statement, one round trip, on a connection of its own: under load
        every round trip waits its turn on the bot's busy event loop. The saves
        a fence refused, by channel."""
        latest = list({row[0]: row for row in rows}.values())  # a table once, its last row
        what = f"a group commit of {len(latest)} live tables"
        try:
            conn = await self._save_connection()
            started = time.perf_counter()
            if self._leases is None:
                await conn.execute(
                    dollar_params(save_statement(len(latest))),
                    *(value for row in latest for value in row),
                )
                written = {row[0] for row in latest}
            else:
                columns = (list(column) for column in zip(*latest, strict=True))
                found = await conn.fetch(SQL_SAVE_FENCED, *columns)
                written = {row[0] for row in found}
        except Exception as exc:
            await self._drop_save_connection()
            error = _storage_error(what, self.where, exc)
            if error is None:
                raise
            raise error from exc
        if self._observe_commit is not None:
            self._observe_commit(time.perf_counter() - started)
        refused: dict[int, StorageError] = {}
        for row in latest:
            if row[0] not in written and self._leases is not None:
                refused[row[0]] = self._leases.refused(f"saving the live table in channel {row[0]}")
        return refused

    async def _save_connection(self) -> asyncpg.Connection:
        if self._save_conn is None or self._save_conn.is_closed():
            self._save_conn = await asyncpg.connect(
                self.url,
                timeout=CONNECT_TIMEOUT,
                command_timeout=COMMAND_TIMEOUT,
                # See the module's note on durability.
                server_settings={**KEEPALIVES, "synchronous_commit": "off"},
            )
        return self._save_conn

    async def _drop_save_connection(self) -> None:
        conn, self._save_conn = self._save_conn, None
        if conn is not None and not conn.is_closed():
            conn.terminate()

    def time_commits(self, observe: Callable[[float], None]) -> None:
        self._observe_commit = observe

    def fence(self) -> Fence | None:
        return None if self._leases is None else self._leases.hold

    def shard_leases(self, *, ttl: float, shard_count: int | None) -> ShardLeases:
        self._leases = ShardLeases(self.url, ttl=ttl, shard_count=shard_count)
        return self._leases

    def _start_unit(self, what: str, body: Callable[[Session], Awaitable[T]]) -> asyncio.Future[T]:
        # The pool is taken now, not when the task first runs: a unit asked for
        # before close() is one close() waits for.
        task = asyncio.ensure_future(self._on_pool(self._pool, what, body))
        self._units.add(task)
        task.add_done_callback(self._units.discard)
        return task

    async def _unit(self, what: str, body: Callable[[Session], Awaitable[T]]) -> T:
        return await self._start_unit(what, body)

    async def _on_pool(
        self, pool: asyncpg.Pool | None, what: str, body: Callable[[Session], Awaitable[T]]
    ) -> T:
        if pool is None:
            raise StorageError(f"{what} failed: the database {self.where} is closed")
        try:
            async with pool.acquire(timeout=CONNECT_TIMEOUT) as conn:
                return await body(PostgresSession(conn))
        except Exception as exc:
            if _unreachable(exc):
                # The link is gone (the server restarted or is down): every
                # pooled connection is as old, so none is reused.
                await pool.expire_connections()
            error = _storage_error(what, self.where, exc)
            if error is None:
                raise
            raise error from exc


def _storage_error(what: str, where: str, exc: Exception) -> StorageError | None:
    """The StorageError a failed unit raises for the server's refusals and a
    lost link; None for anything else (raised as it is: a StorageError of the
    unit's own, or a bug)."""
    if _unreachable(exc):
        return StorageError(f"{what} failed: {where} cannot be reached ({exc})")
    if isinstance(exc, asyncpg.PostgresError):
        return StorageError(f"{what} failed on {where}: {exc}")
    return None


def _unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says the server cannot be talked to (down, restarting,
    shutting down, the connection cut), rather than refusing a statement."""
    return isinstance(
        exc,
        OSError
        | TimeoutError
        | asyncpg.InterfaceError
        | asyncpg.InternalClientError
        | asyncpg.PostgresConnectionError
        | asyncpg.OperatorInterventionError,
    )


async def schema_version(conn: Connection) -> int:
    value = await conn.fetchval("SELECT max(version) FROM schema_version")
    return 0 if value is None else int(value)


async def migrate(conn: Connection, where: str, target: int = LATEST_VERSION) -> int:
    """Apply every migration between the database's version and ``target``,
    each in a transaction of its own; the version it is left at."""
    async with conn.transaction():
        # The version and the other tables are read under the lock a migration holds
        # while it runs: read outside it, another process's first migration could
        # land between the two reads and look like someone else's tables.
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version BIGINT PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at DOUBLE PRECISION NOT NULL)"
        )
        current = await schema_version(conn)
        foreign = current == 0 and await _has_other_tables(conn)
    if current > LATEST_VERSION:
        raise too_new(where, current)
    if foreign:
        raise StorageError(
            f"{where} already holds tables but no Rummy schema: it is not a Rummy bot "
            "database. Point DATABASE_URL at a new, empty database."
        )
    for migration in POSTGRES_MIGRATIONS[current:target]:
        try:
            async with conn.transaction():
                # Processes starting together: the first migrates, the others
                # wait here and then find the version already applied.
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                if await schema_version(conn) >= migration.version:
                    continue
                await conn.execute(migration.script)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    time.time(),
                )
        except asyncpg.PostgresError as exc:
            raise migration_failed(migration, where, exc) from exc
        log.info("database %s migrated to version %d: %s", where, migration.version, migration.name)
    return max(current, target)


async def _has_other_tables(conn: Connection) -> bool:
    found = await conn.fetchval(
        "SELECT count(*) FROM information_schema.tables"
        " WHERE table_schema = current_schema() AND table_name <> 'schema_version'"
    )
    return bool(found)


def _connect_error(where: str, exc: BaseException) -> str:
    """The refusal when the server cannot be reached or refuses us: what to check."""
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        hint = "the database does not exist: create it (createdb) or fix the name in DATABASE_URL"
    elif isinstance(
        exc, asyncpg.InvalidAuthorizationSpecificationError | asyncpg.InvalidPasswordError
    ):
        hint = "the server refused the user or password in DATABASE_URL"
    elif isinstance(exc, ValueError):
        hint = "DATABASE_URL is not a valid postgresql:// URL"
    else:
        hint = "check that the server is running and the host and port in DATABASE_URL"
    detail = " ".join(str(exc).split()) or type(exc).__name__
    return f"cannot connect to PostgreSQL at {where}: {detail}; {hint}."
