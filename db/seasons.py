"""Rating seasons: the current one, the ended ones, and ending one.

A server's ratings belong to its current season, which has no row of its own:
its number is one more than the last ended season's. Ending a season writes
its row, which keeps its ratings as they are (the archive); the next season
starts with nobody rated.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from .errors import N_, SeasonRefused
from .models import Season
from .session import Session

SQL_CURRENT_SEASON: Final = "SELECT COALESCE(MAX(number), 0) + 1 FROM seasons WHERE guild_id = ?"
SQL_LAST_SEASON_END: Final = "SELECT MAX(ended_at) FROM seasons WHERE guild_id = ?"
SQL_SEASONS: Final = """
SELECT number, name, started_at, ended_at FROM seasons WHERE guild_id = ? ORDER BY number DESC
"""
SQL_SEASON_BY_NAME: Final = """
SELECT number, name, started_at, ended_at FROM seasons
WHERE guild_id = ? AND lower(name) = lower(?)
"""
SQL_SEASON_BY_NUMBER: Final = """
SELECT number, name, started_at, ended_at FROM seasons WHERE guild_id = ? AND number = ?
"""
SQL_ADD_SEASON: Final = """
INSERT INTO seasons (guild_id, number, name, started_at, ended_at) VALUES (?, ?, ?, ?, ?)
"""
SQL_SEASON_RATED: Final = "SELECT 1 FROM ratings WHERE guild_id = ? AND season = ? LIMIT 1"


async def current_season(conn: Session, guild_id: int) -> int:
    rows = list(await conn.fetch(SQL_CURRENT_SEASON, (guild_id,)))
    return int(rows[0][0])


def season_row(row: Iterable[Any]) -> tuple[int, str, float | None, float]:
    number, name, started_at, ended_at = row
    started = None if started_at is None else float(started_at)
    return int(number), str(name), started, float(ended_at)


async def season(conn: Session, guild_id: int, number: int | None) -> Season:
    """Season ``number`` of a server (None: the current one, which has no row)."""
    current = await current_season(conn, guild_id)
    if number is not None and number != current:
        rows = list(await conn.fetch(SQL_SEASON_BY_NUMBER, (guild_id, number)))
        if rows:
            return Season(*season_row(rows[0]))
    ended = list(await conn.fetch(SQL_LAST_SEASON_END, (guild_id,)))
    started = ended[0][0]
    return Season(current, f"Season {current}", None if started is None else float(started), None)


async def ended(conn: Session, guild_id: int) -> list[Season]:
    """The server's ended seasons, latest first."""
    rows = await conn.fetch(SQL_SEASONS, (guild_id,))
    return [Season(*season_row(row)) for row in rows]


async def find(conn: Session, guild_id: int, name: str) -> Season | None:
    """An ended season by name (any letter case) or by number, or None."""
    rows = list(await conn.fetch(SQL_SEASON_BY_NAME, (guild_id, name.strip())))
    if not rows and name.strip().isdigit():
        rows = list(await conn.fetch(SQL_SEASON_BY_NUMBER, (guild_id, int(name.strip()))))
    return Season(*season_row(rows[0])) if rows else None


async def end(conn: Session, guild_id: int, wanted: str, now: float) -> Season:
    """End the current season under ``wanted`` (empty: its default name), or
    raise ``SeasonRefused`` with nothing changed (``Database.end_season``)."""
    async with conn.transaction():
        await conn.serialise(guild_id)
        current = await season(conn, guild_id, None)
        final = wanted or current.name
        if len(final) > 100:
            raise SeasonRefused(N_("A season's name has at most 100 characters."))
        rated = list(await conn.fetch(SQL_SEASON_RATED, (guild_id, current.number)))
        if not rated:
            raise SeasonRefused(
                N_("{season} has no rated match yet: there is nothing to archive."),
                season=current.name,
            )
        taken = list(await conn.fetch(SQL_SEASON_BY_NAME, (guild_id, final)))
        if taken:
            raise SeasonRefused(
                N_("This server already has a season named {season}: choose another name."),
                season=repr(taken[0][1]),
            )
        await conn.execute(
            SQL_ADD_SEASON,
            (guild_id, current.number, final, current.started_at, now),
        )
    return Season(current.number, final, current.started_at, now)
