"""The leaderboard: a server's human players by their running figures.

``player_stats`` holds each human's figures in a server, added to as each
match is recorded (``db.results``). A page of them is one walk of the index of
its order, and a player's rank counts entries of that index: neither sorts,
and neither reads a row it does not show.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from .models import LeaderboardOrder, LeaderboardPage, PlayerStats, PlayerTotals
from .session import Session

_STATS_COLUMNS: Final = "user_id, name, matches_played, matches_won, hands_won, points, rummies"

# Each order: its sort keys, all descending, then the lower user id first.  The
# migration creates one index per entry with exactly these columns; a test
# checks with EXPLAIN QUERY PLAN that SQLite uses it and never sorts.  These
# column names are the only text ever spliced into SQL here: values always go
# through ``?`` parameters.
ORDER_KEYS: Final[dict[str, tuple[str, str, str]]] = {
    "wins": ("matches_won", "hands_won", "points"),
    "points": ("points", "matches_won", "hands_won"),
    "rummies": ("rummies", "matches_won", "points"),
}


def _leaderboard_sql(keys: tuple[str, str, str]) -> str:
    a, b, c = keys
    return (
        f"SELECT {_STATS_COLUMNS} FROM player_stats WHERE guild_id = ? "
        f"ORDER BY {a} DESC, {b} DESC, {c} DESC, user_id LIMIT ? OFFSET ?"
    )


def _rank_sql(keys: tuple[str, str, str]) -> str:
    # Players ahead = strictly better figures, plus equal figures and a lower
    # user id.  Both are ranges of the order's index, so this counts index
    # entries and never touches the table.
    a, b, c = keys
    return (
        "SELECT 1"
        f" + (SELECT COUNT(*) FROM player_stats WHERE guild_id = ? AND ({a}, {b}, {c}) > (?, ?, ?))"
        f" + (SELECT COUNT(*) FROM player_stats WHERE guild_id = ?"
        f" AND {a} = ? AND {b} = ? AND {c} = ? AND user_id < ?)"
    )


SQL_LEADERBOARD: Final = {order: _leaderboard_sql(keys) for order, keys in ORDER_KEYS.items()}
SQL_RANK: Final = {order: _rank_sql(keys) for order, keys in ORDER_KEYS.items()}
SQL_COUNT_PLAYERS: Final = "SELECT COUNT(*) FROM player_stats WHERE guild_id = ?"
SQL_PLAYER: Final = f"SELECT {_STATS_COLUMNS} FROM player_stats WHERE guild_id = ? AND user_id = ?"
# Read through player_stats_by_user: one row per board the person played on.
SQL_TOTALS: Final = (
    "SELECT user_id, MAX(name), COUNT(*), SUM(matches_played), SUM(matches_won),"
    " SUM(hands_won), SUM(points), SUM(rummies)"
    " FROM player_stats WHERE user_id = ? GROUP BY user_id"
)

_STATS_INDEX: Final = {
    name: i for i, name in enumerate(c.strip() for c in _STATS_COLUMNS.split(","))
}


async def page(
    conn: Session, guild_id: int, order: LeaderboardOrder, number: int, per_page: int
) -> LeaderboardPage:
    """Page ``number`` of a server's players in ``order`` (a key of ORDER_KEYS),
    clamped to 1..pages (``Database.leaderboard``)."""
    counted = list(await conn.fetch(SQL_COUNT_PLAYERS, (guild_id,)))
    total = int(counted[0][0])
    pages = max(1, math.ceil(total / per_page))
    shown = min(max(number, 1), pages)
    offset = (shown - 1) * per_page
    rows = await conn.fetch(SQL_LEADERBOARD[order], (guild_id, per_page, offset))
    return LeaderboardPage(
        rows=[_stats(row, offset + i + 1) for i, row in enumerate(rows)],
        page=shown,
        pages=pages,
        total_players=total,
    )


async def player(conn: Session, guild_id: int, user_id: int) -> PlayerStats | None:
    """A player's figures in a server with their rank by wins; None if never played."""
    found = list(await conn.fetch(SQL_PLAYER, (guild_id, user_id)))
    if not found:
        return None
    row = tuple(found[0])
    a, b, c = (row[_STATS_INDEX[key]] for key in ORDER_KEYS["wins"])
    ranked = list(
        await conn.fetch(SQL_RANK["wins"], (guild_id, a, b, c, guild_id, a, b, c, user_id))
    )
    return _stats(row, int(ranked[0][0]))


async def totals(conn: Session, user_id: int) -> PlayerTotals | None:
    """A person's figures over every board; None if they never finished a match."""
    found = list(await conn.fetch(SQL_TOTALS, (user_id,)))
    if not found:
        return None
    user, name, boards, played, won, hands_won, points, rummies = tuple(found[0])
    return PlayerTotals(
        user_id=int(user), name=str(name), boards=int(boards), matches_played=int(played),
        matches_won=int(won), hands_won=int(hands_won), points=int(points),
        rummies=int(rummies),
    )


def _stats(row: Sequence[Any], rank: int) -> PlayerStats:
    user_id, name, played, won, hands_won, points, rummies = row
    return PlayerStats(
        user_id=user_id,
        name=name,
        matches_played=played,
        matches_won=won,
        hands_won=hands_won,
        points=points,
        rummies=rummies,
        rank=rank,
    )
