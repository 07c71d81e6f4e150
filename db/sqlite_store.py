"""The SQLite store: one bot process on one database file (the default).

One :class:`SqliteDatabase` per process owns an exclusive lock on the file,
one aiosqlite connection for everything but live-table saves, and a writer
thread with a connection of its own for those (``db.writer``: they are most
of the writes, and players wait on them). Every other unit of work runs under
an ``asyncio.Lock`` on the shared connection.

Durability: WAL mode. Results, stats and settings are written with
``synchronous=FULL``: a recorded match is on disk before the method returns
and survives a power cut. Live-table saves are written with
``synchronous=NORMAL``: each is in the log before the method returns, so a
game in progress survives the bot's process stopping or crashing at any
moment; only a power cut or a crash of the machine itself could lose its last
moves, since the log is flushed to the disk at the next checkpoint (at most
half a second later: ``db.checkpoint``) or FULL commit rather than at every
move. A flush on every move made every table wait for this machine's disk,
which sometimes takes a second to flush. ``python -m db.bench`` shows what
each costs.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import shlex
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar, Final, TypeVar

import aiosqlite

from .checkpoint import Checkpointer
from .database import Database, is_server_url
from .errors import DatabaseDamagedError, StorageError
from .live_tables import live_row, save_statement
from .lock import ProcessLock
from .migrations import LATEST_VERSION, migrate
from .models import LiveTable
from .session import Row, Session
from .writer import LiveTableWriter, PendingSave

log = logging.getLogger(__name__)

T = TypeVar("T")

BUSY_TIMEOUT_MS: Final = 5000
"""How long a statement waits for a lock held by an outside reader or writer
(an operator's ``sqlite3`` shell) before failing with a StorageError."""

# Six parameters a row: far below SQLite's limit of 32,766 in one statement.
MAX_SAVES_PER_COMMIT: Final = 500

# Raw bytes, not TEXT: a damaged row may not even be UTF-8, and must be judged
# by the loader rather than crash the sqlite3 module's decoding.
SQL_LOAD_LIVE_RAW: Final = """
SELECT channel_id, guild_id, message_id, CAST(rules AS BLOB), CAST(state AS BLOB), updated_at
FROM live_tables ORDER BY channel_id
"""


def kept_results_folder(database_path: Path) -> Path:
    """Where the results a database file could not take are kept: beside it."""
    return database_path.with_name(database_path.name + ".unrecorded")


class SqliteSession(Session):
    """The shared aiosqlite connection, as the queries see it."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)

    async def serialise(self, key: int) -> None:
        # BEGIN IMMEDIATE already holds the file's only write lock.
        return None

    async def notify(self, channel: str, payload: str) -> None:
        # The file's lock keeps every other process out: nobody to tell.
        return None

    def transaction(self) -> AbstractAsyncContextManager[None]:
        return _transaction(self._conn)


class SqliteDatabase(Database):
    """The bot's database file; open with ``await Database.open(path)``."""

    path: Path
    load_live_sql: ClassVar[str] = SQL_LOAD_LIVE_RAW

    def __init__(
        self, path: Path, conn: aiosqlite.Connection, lock: ProcessLock, kept_results: Path
    ) -> None:
        # Use Database.open: it takes the lock and migrates before this exists.
        self.path = path
        self.where = str(path)
        self.kept_results = kept_results
        self._conn: aiosqlite.Connection | None = conn
        self._session = SqliteSession(conn)
        self._lock = lock
        self._serial = asyncio.Lock()
        self._writer: LiveTableWriter | None = None  # started by open()
        self._checkpointer: Checkpointer | None = None  # started by open()

    # ------------------------------------------------------------ life cycle

    @classmethod
    def handles(cls, target: str | os.PathLike[str]) -> bool:
        return not is_server_url(target)

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], *, kept_results: Path | None = None
    ) -> SqliteDatabase:
        """Lock the file for this process, connect, check it, and migrate it to the
        latest schema.

        The checks are what lets a bot that started keep working: SQLite's
        integrity check over every page, and a real write transaction.
        Raises DatabaseLockedError if another process holds it,
        DatabaseTooNewError if a newer release wrote it, DatabaseDamagedError
        if the check finds damage, StorageError for any other failure
        (unreadable or unwritable file, not a database, failed migration).
        The parent folder is created if missing, so a fresh deployment only
        needs DATABASE_PATH. ``kept_results``: see :attr:`Database.kept_results`
        (default: beside the file).
        """
        db_path = Path(path)
        try:
            db_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            folder = exc.filename or db_path.parent
            raise StorageError(
                f"cannot create the folder {folder} for the database {db_path}: "
                f"{exc.strerror or exc}."
            ) from exc
        lock = ProcessLock.acquire(db_path)
        conn: aiosqlite.Connection | None = None
        writer: LiveTableWriter | None = None
        try:
            # isolation_level=None: no implicit transactions; every transaction
            # here is an explicit BEGIN IMMEDIATE ... COMMIT.
            conn = await aiosqlite.connect(db_path, isolation_level=None)
            await _configure(conn, db_path)
            await _check_whole(conn, db_path)
            await migrate(conn, db_path)
            await _check_writable(conn, db_path)
            db = cls(db_path, conn, lock, kept_results or kept_results_folder(db_path))
            writer = LiveTableWriter(
                functools.partial(_connect_writer, db_path),
                save_statement,
                MAX_SAVES_PER_COMMIT,
                db._settle_saves,
            )
            await writer.start()
            checkpointer = Checkpointer(functools.partial(_connect_thread, db_path))
            await checkpointer.start()
            db._writer = writer
            db._checkpointer = checkpointer
        except BaseException as exc:
            if writer is not None:
                writer.stop_soon()
            if conn is not None:
                try:
                    await conn.close()
                except Exception:
                    log.debug("closing after a failed open also failed", exc_info=True)
            lock.release()
            if isinstance(exc, sqlite3.Error) and _is_corruption(exc):
                raise DatabaseDamagedError(_damaged(db_path, [str(exc)])) from exc
            if isinstance(exc, sqlite3.Error):
                raise StorageError(f"cannot open the database {db_path}: {exc}") from exc
            raise
        log.info("database %s open at schema version %d", db_path, LATEST_VERSION)
        return db

    async def close(self) -> None:
        """Finish the unit in progress, close the connection, release the lock.

        Safe to call twice.  After it, every method raises StorageError.
        """
        async with self._serial:
            writer, self._writer = self._writer, None
            checkpointer, self._checkpointer = self._checkpointer, None
            conn, self._conn = self._conn, None
            try:
                if writer is not None:
                    await writer.stop()  # the saves already made are written first
                if checkpointer is not None:
                    await checkpointer.stop()
                if conn is not None:
                    try:
                        # Cheap at close and keeps the planner's statistics fresh.
                        await conn.execute("PRAGMA optimize")
                    except sqlite3.Error:
                        log.debug("PRAGMA optimize failed at close", exc_info=True)
                    await conn.close()
            except sqlite3.Error as exc:
                raise StorageError(f"closing {self.path} failed: {exc}") from exc
            finally:
                self._lock.release()

    def abandon(self) -> None:
        """Let go of the database as a crashed process would, for restart tests.

        No waiting and no clean close: the lock is dropped at once (as the
        kernel drops a dead process's ``flock``), and the connection's worker
        thread is told to stop, which rolls back a transaction left open, as
        SQLite's recovery does for a dead writer.  What the next process sees
        is exactly what was committed.  Further calls raise StorageError.
        """
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.stop_soon()
        checkpointer, self._checkpointer = self._checkpointer, None
        if checkpointer is not None:
            checkpointer.stop_soon()
        conn, self._conn = self._conn, None
        if conn is not None:
            # stop() queues the close behind whatever the worker thread already
            # has.  Called from a thread without an event loop it attaches no
            # future, so the worker never reports back to this loop, which a
            # test may close before the worker gets there ("Event loop is
            # closed" in the worker thread otherwise).
            stopper = threading.Thread(target=conn.stop, name="db-abandon")
            stopper.start()
            stopper.join()
        self._lock.release()

    # ------------------------------------------------------------ live tables

    async def save_live_table(self, table: LiveTable) -> None:
        """Insert or replace the saved state of the game in ``table.channel_id``.

        Committed here means in the database's log (see the module's note on
        durability).

        Saves that arrive while another is being written are written together,
        in one transaction (a group commit, on the writer thread of
        ``db.writer``).  Each caller still returns only once its own state is
        written, and a failed commit fails every save in it.
        """
        row = live_row(table)

        writer = self._writer
        if writer is None:
            raise StorageError(
                f"saving the live table in channel {table.channel_id} failed: "
                f"the database {self.path} is closed"
            )
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        writer.submit(PendingSave(table.channel_id, row, done))
        # A cancelled caller cancels only its own future: the row is written all
        # the same, and a failure nobody waits for is logged (_settle_saves).
        await done

    def _settle_saves(self, batch: list[PendingSave], error: BaseException | None) -> None:
        """Tell each caller of a group commit how it went (on the event loop)."""
        if error is None and self._checkpointer is not None:
            self._checkpointer.request()
        for save in batch:
            if error is None:
                if not save.done.done():
                    save.done.set_result(None)
                continue
            failure = _save_error(save.channel_id, self.path, error)
            if save.done.cancelled():
                log.error("%s (its caller had stopped waiting)", failure)
            elif not save.done.done():
                save.done.set_exception(failure)

    def time_commits(self, observe: Callable[[float], None]) -> None:
        if self._writer is not None:
            self._writer.on_commit = observe

    async def _unit(self, what: str, body: Callable[[Session], Awaitable[T]]) -> T:
        # One unit at a time on the shared connection: the statements of one
        # transaction never interleave with another coroutine's.
        async with self._serial:
            if self._conn is None:
                raise StorageError(f"{what} failed: the database {self.path} is closed")
            try:
                return await body(self._session)
            except sqlite3.Error as exc:
                raise StorageError(f"{what} failed on {self.path}: {exc}") from exc
            except ValueError as exc:
                # aiosqlite's word for "this connection was closed underneath us".
                if str(exc) not in ("Connection closed", "no active connection"):
                    raise
                raise StorageError(
                    f"{what} failed: the connection to {self.path} is closed"
                ) from exc


def _save_error(channel_id: int, path: Path, exc: BaseException) -> StorageError:
    """The error one caller of a failed group commit sees, naming its own table."""
    what = f"saving the live table in channel {channel_id}"
    if isinstance(exc, sqlite3.Error):
        return StorageError(f"{what} failed on {path}: {exc}")
    return StorageError(f"{what} failed: {exc!r}")


async def _configure(conn: aiosqlite.Connection, path: Path) -> None:
    """Per-connection settings; each is checked, since SQLite ignores what it cannot do."""
    await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
    rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
    if str(rows[0][0]).lower() != "wal":
        raise StorageError(
            f"cannot use WAL mode on {path} (journal mode stays {rows[0][0]!r}); "
            "is it on a network file system?"
        )
    # FULL: in WAL mode, fsync the log at every commit, so a recorded score
    # survives a power cut, not only a crash of the process (and so does every
    # live-table save before it in the log).
    await conn.execute("PRAGMA synchronous = FULL")
    await conn.execute("PRAGMA foreign_keys = ON")
    rows = list(await conn.execute_fetchall("PRAGMA foreign_keys"))
    if rows[0][0] != 1:
        raise StorageError(f"this SQLite build cannot enforce foreign keys on {path}")


async def _check_whole(conn: aiosqlite.Connection, path: Path) -> None:
    """SQLite's integrity check over every page and index.

    Start-up reads only a few tables, so damage elsewhere (a page of old
    results) went unnoticed until an action or a leaderboard reached it, and
    new results were written next to it. The full check rather than
    ``quick_check``: it also compares every index with its table, which is
    how a page lost to an old copy of itself shows.
    """
    rows = await conn.execute_fetchall("PRAGMA integrity_check")
    problems = [str(row[0]) for row in rows]
    if problems != ["ok"]:
        raise DatabaseDamagedError(_damaged(path, problems))


async def _check_writable(conn: aiosqlite.Connection, path: Path) -> None:
    """Write one real transaction, so that a file the bot may not write (or a
    full disk) stops it at start rather than letting it refuse every move.

    Setting the schema version to the value it has rewrites the header page: a
    real page written through SQLite's log, which changes nothing.
    """
    try:
        async with _transaction(conn):
            await conn.execute(f"PRAGMA user_version = {LATEST_VERSION:d}")
    except sqlite3.Error as exc:
        raise StorageError(
            f"cannot write to the database {path}: {exc}; the bot's user must be able to "
            "write the file and its folder: check the owner and permissions of both, "
            "and the free space on the disk."
        ) from exc


def _is_corruption(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    # Extended codes (SQLITE_CORRUPT_INDEX and the like) keep the primary code in the low byte.
    return isinstance(code, int) and code & 0xFF == sqlite3.SQLITE_CORRUPT


def _damaged(path: Path, problems: Sequence[str]) -> str:
    """The refusal for a damaged file, on one line: what SQLite found and how to recover."""
    # SQLite's report spreads over lines and opens with the schema's name.
    first = " ".join(problems[0].replace("*** in database main ***", "").split())
    more = f"; {len(problems) - 1} more problems found" if len(problems) > 1 else ""
    return (
        f"the database {path} is damaged ({first}{more}); the bot will not start on it. "
        "Restore your latest backup of it, or recover what SQLite can read with: "
        f'sqlite3 {shlex.quote(str(path))} ".recover" | sqlite3 repaired.sqlite3 '
        "and set DATABASE_PATH to repaired.sqlite3."
    )


def _connect_writer(path: Path) -> sqlite3.Connection:
    """The live-table writer's connection: it leaves checkpoints to ``db.checkpoint``."""
    conn = _connect_thread(path)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    return conn


def _connect_thread(path: Path) -> sqlite3.Connection:
    """A connection for a thread of the database's own, with the settings
    ``_configure`` checks."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StorageError(f"{path} left WAL mode (journal mode {mode!r})")
        # NORMAL, not FULL: see the module's note on durability.
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        conn.close()
        raise
    return conn


@asynccontextmanager
async def _transaction(conn: aiosqlite.Connection) -> AsyncIterator[None]:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error.

    IMMEDIATE takes the write lock up front, so a transaction cannot fail
    half-way with "database is locked" after it has read what it acts on.
    """
    await conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        await conn.execute("COMMIT")
    except BaseException:
        try:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
        except Exception:  # the first error is the one to report
            log.debug("rollback after a failed transaction also failed", exc_info=True)
        raise
