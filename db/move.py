"""Move everything from the SQLite file to PostgreSQL, for a bot outgrowing
one process::

    python -m db.move rummy.sqlite3 postgresql://rummy:secret@db/rummy

With the bot stopped: a bot still running on the file (it holds the file's
lock, ``db.lock``) is refused, as its games would go on after their copy. The
target must be a new, empty database (the bot's
tables are made there first, by the same migrations); every row of every
table is copied in one transaction, so the move either happens whole or
leaves the target as empty as it was. The file is only read, never changed.
Live games move too: started on the new database, the bot picks them up.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

import asyncpg

from .database import Database, is_server_url
from .errors import DatabaseLockedError, StorageError
from .lock import ProcessLock
from .migrations import LATEST_VERSION
from .postgres_link import shown_url

# Parents before children, for the foreign keys.
TABLES = (
    "matches",
    "match_seats",
    "hands",
    "hand_moves",
    "player_stats",
    "live_tables",
    "set_aside_tables",
    "guild_settings",
    "card_emoji",
    "player_prefs",
    "seasons",
    "ratings",
    "match_ratings",
)
# Tables whose id the database hands out: the next one must follow the moved ones.
IDENTITIES = ("matches", "set_aside_tables")


class MoveError(Exception):
    """The move could not be made; nothing was changed. The message says why."""


def read_file(path: Path) -> dict[str, tuple[list[str], list[tuple[object, ...]]]]:
    """Every table's columns and rows, from a file at the latest schema version."""
    if not path.is_file():
        raise MoveError(f"{path} is not a database file")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        if version != LATEST_VERSION:
            raise MoveError(
                f"{path} is at schema version {version}, this release at {LATEST_VERSION}: "
                "start the bot on it once (it migrates the file), stop it, then move it"
            )
        found = {}
        # Table names come from TABLES, never from outside.
        for table in TABLES:
            cursor = conn.execute(f"SELECT * FROM {table}")
            columns = [d[0] for d in cursor.description]
            found[table] = (columns, [tuple(row) for row in cursor])
        return found
    except sqlite3.Error as error:
        raise MoveError(f"cannot read {path}: {error}") from error
    finally:
        conn.close()


async def move(source: Path, target: str) -> dict[str, int]:
    """Copy ``source`` into the empty PostgreSQL database ``target``; rows per table."""
    if not is_server_url(target):
        raise MoveError(f"the target must be a postgresql:// URL, not {target!r}")
    # Held until the move is done: a bot started meanwhile would write games
    # to the file after it was read.
    lock = _lock(source)
    try:
        return await _move(source, target)
    finally:
        lock.release()


def _lock(source: Path) -> ProcessLock:
    """The lock of a stopped bot's file; MoveError if it is not one."""
    if not source.is_file():
        raise MoveError(f"{source} is not a database file")
    try:
        return ProcessLock.acquire(source)
    except DatabaseLockedError as error:
        raise MoveError(f"{error}: a move copies a stopped bot's database") from error


async def _move(source: Path, target: str) -> dict[str, int]:
    rows = read_file(source)
    await (await Database.open(target)).close()  # makes the tables, or says why not
    conn = await asyncpg.connect(target)
    try:
        async with conn.transaction():
            for table in TABLES:
                if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                    raise MoveError(
                        f"{shown_url(target)} already holds rows in {table}: "
                        "the target must be a new, empty database"
                    )
            for table in TABLES:
                columns, values = rows[table]
                if values:
                    await conn.copy_records_to_table(table, records=values, columns=columns)
            for table in IDENTITIES:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                )
    except (asyncpg.PostgresError, OSError) as error:
        where = shown_url(target)
        raise MoveError(f"the move into {where} failed, nothing moved: {error}") from error
    finally:
        await conn.close()
    return {table: len(rows[table][1]) for table in TABLES}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m db.move",
        description="Copy the bot's SQLite database into a new, empty PostgreSQL database.",
    )
    parser.add_argument("source", type=Path, help="the SQLite file (DATABASE_PATH)")
    parser.add_argument("target", help="the PostgreSQL database (DATABASE_URL)")
    args = parser.parse_args(argv)
    try:
        moved = asyncio.run(move(args.source, args.target))
    except (MoveError, StorageError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    counts = ", ".join(f"{table} {count}" for table, count in moved.items() if count)
    print(f"moved {args.source} to {shown_url(args.target)}: {counts or 'no rows'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
