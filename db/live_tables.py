"""Live tables: the saved state of every game in progress, and those set aside.

A game is saved after every action (by the store: ``live_row`` and
``save_statement`` are its rows and its statement) and comes back at start-up
(``load``). A row that cannot be read is set aside, kept unchanged in
``set_aside_tables`` with the reason, rather than deleted or left to trip
every start.
"""

from __future__ import annotations

import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from .errors import StorageError
from .jsontext import to_json
from .models import BrokenTable, LiveTable, LoadResult
from .session import Session

log = logging.getLogger(__name__)

SQL_SAVE_LIVE: Final = """
INSERT INTO live_tables (channel_id, guild_id, message_id, rules, state, updated_at)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (channel_id) DO UPDATE SET
    guild_id = excluded.guild_id, message_id = excluded.message_id,
    rules = excluded.rules, state = excluded.state, updated_at = excluded.updated_at
"""


@functools.lru_cache(maxsize=64)
def save_statement(rows: int) -> str:
    """SQL_SAVE_LIVE for ``rows`` tables at once. SQLite keeps the last row of a
    table given twice; PostgreSQL refuses that, so its caller gives each once."""
    values = ", ".join(["(?, ?, ?, ?, ?, ?)"] * rows)
    return SQL_SAVE_LIVE.replace("VALUES (?, ?, ?, ?, ?, ?)", f"VALUES {values}", 1)


SQL_DELETE_LIVE: Final = "DELETE FROM live_tables WHERE channel_id = ?"
SQL_GUILD_OF_LIVE: Final = "SELECT guild_id FROM live_tables WHERE channel_id = ?"

# Checks, inside a transaction, that this process still holds the lease of a
# server's shard (``Database.fenced``), or raises.
Fence = Callable[[Session, int], Awaitable[None]]
SQL_LOAD_LIVE: Final = """
SELECT channel_id, guild_id, message_id, rules, state, updated_at
FROM live_tables ORDER BY channel_id
"""
SQL_SET_ASIDE: Final = """
INSERT INTO set_aside_tables
    (channel_id, guild_id, message_id, rules, state, updated_at, error, set_aside_at)
SELECT channel_id, guild_id, message_id, rules, state, updated_at,
       CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION)
FROM live_tables WHERE channel_id = ?
"""
SQL_LIST_SET_ASIDE: Final = """
SELECT channel_id, guild_id, error FROM set_aside_tables ORDER BY id
"""


def live_row(table: LiveTable) -> tuple[Any, ...]:
    """The live_tables row of a saved game (SQL_SAVE_LIVE's parameters)."""
    try:
        return (
            table.channel_id,
            table.guild_id,
            table.message_id,
            to_json(table.rules),
            to_json(table.state),
            table.updated_at,
        )
    except (TypeError, ValueError) as exc:
        raise StorageError(
            f"cannot serialise the table in channel {table.channel_id}: {exc}"
        ) from exc


async def delete(conn: Session, channel_id: int, fence: Fence | None = None) -> None:
    """Forget the game in ``channel_id``; under ``fence``, only while this
    process still serves its server's shard."""
    if fence is None:
        await conn.execute(SQL_DELETE_LIVE, (channel_id,))
        return
    async with conn.transaction():
        found = await conn.fetch(SQL_GUILD_OF_LIVE, (channel_id,))
        if found:
            await fence(conn, int(found[0][0]))
            await conn.execute(SQL_DELETE_LIVE, (channel_id,))


async def load(conn: Session, sql: str) -> LoadResult:
    """Every saved game ``sql`` reads (the store's SQL_LOAD_LIVE), with the
    unreadable ones set aside in the same transaction (``Database.load_live_tables``)."""
    tables: list[LiveTable] = []
    broken: list[BrokenTable] = []
    async with conn.transaction():
        for row in await conn.fetch(sql):
            item = _parse_live_row(tuple(row))
            if isinstance(item, LiveTable):
                tables.append(item)
                continue
            broken.append(item)
            await conn.execute(SQL_SET_ASIDE, (item.error, time.time(), item.channel_id))
            await conn.execute(SQL_DELETE_LIVE, (item.channel_id,))
    for item in broken:
        log.warning(
            "live table in channel %d set aside (kept in set_aside_tables): %s",
            item.channel_id,
            item.error,
        )
    return LoadResult(tables=tables, broken=broken)


async def set_aside(conn: Session, channel_id: int, error: str) -> bool:
    """Move a channel's saved game to set_aside_tables; whether there was one."""
    async with conn.transaction():
        await conn.execute(SQL_SET_ASIDE, (error, time.time(), channel_id))
        deleted = await conn.execute(SQL_DELETE_LIVE, (channel_id,))
    return deleted > 0


async def set_aside_list(conn: Session) -> list[BrokenTable]:
    rows = await conn.fetch(SQL_LIST_SET_ASIDE)
    return [
        BrokenTable(
            channel_id=int(channel_id),
            guild_id=guild_id if type(guild_id) is int else None,
            error=str(error),
        )
        for channel_id, guild_id, error in rows
    ]


def _parse_live_row(row: tuple[Any, ...]) -> LiveTable | BrokenTable:
    """Judge one saved live table; never raises, a bad row becomes a BrokenTable."""
    channel_id, guild_id, message_id, rules_raw, state_raw, updated_at = row
    guild = guild_id if type(guild_id) is int else None
    try:
        if guild is None:
            raise ValueError(f"guild id {guild_id!r} is not an integer")
        if message_id is not None and type(message_id) is not int:
            raise ValueError(f"message id {message_id!r} is not an integer")
        if not isinstance(updated_at, int | float):
            raise ValueError(f"updated_at {updated_at!r} is not a number")
        rules = _json_object(rules_raw, "rules")
        state = _json_object(state_raw, "state")
    except ValueError as exc:
        return BrokenTable(channel_id=channel_id, guild_id=guild, error=str(exc))
    return LiveTable(
        channel_id=channel_id,
        guild_id=guild,
        message_id=message_id,
        rules=rules,
        state=state,
        updated_at=float(updated_at),
    )


def _json_object(raw: Any, what: str) -> dict[str, Any]:
    if not isinstance(raw, bytes | str):
        raise ValueError(f"{what} is missing")
    try:
        value = json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
    except UnicodeDecodeError as exc:
        raise ValueError(f"{what} is not UTF-8 text: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what} is not valid JSON: {exc}") from None
    except RecursionError:
        raise ValueError(f"{what} is nested too deeply to read") from None
    if not isinstance(value, dict):
        raise ValueError(f"{what} is JSON {type(value).__name__}, not an object")
    return value
