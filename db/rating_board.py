"""Ratings read back: a season's rating leaderboard and a person's profile.

The board lists people only (computers are rated, never listed), established
players first by ordinal, then provisional ones; each query walks the index
of that order. The ratings themselves are written by ``db.ratings`` as each
match is recorded.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Final

from .models import Opponent, RatedPlayer, RatingPage, RatingProfile
from .ratings import ordinal
from .seasons import current_season, season
from .session import Session

_BOARD_COLUMNS: Final = "user_id, name, mu, sigma, ordinal, provisional, matches, wins"
SQL_RATING_BOARD: Final = f"""
SELECT {_BOARD_COLUMNS} FROM ratings
WHERE guild_id = ? AND season = ? AND user_id IS NOT NULL
ORDER BY provisional, ordinal DESC, user_id LIMIT ? OFFSET ?
"""
SQL_RATED_PLAYERS: Final = """
SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND season = ? AND user_id IS NOT NULL
"""
SQL_ESTABLISHED_PLAYERS: Final = """
SELECT EXISTS (SELECT 1 FROM ratings
               WHERE guild_id = ? AND season = ? AND user_id IS NOT NULL AND provisional = 0)
"""
SQL_RATING_OF: Final = f"""
SELECT {_BOARD_COLUMNS} FROM ratings WHERE guild_id = ? AND season = ? AND player = ?
"""
# Players ahead in the board's order: three ranges of its index.
SQL_RATING_RANK: Final = """
SELECT 1
 + (SELECT COUNT(*) FROM ratings WHERE guild_id = ?1 AND season = ?2 AND user_id IS NOT NULL
      AND provisional < ?3)
 + (SELECT COUNT(*) FROM ratings WHERE guild_id = ?1 AND season = ?2 AND user_id IS NOT NULL
      AND provisional = ?3 AND ordinal > ?4)
 + (SELECT COUNT(*) FROM ratings WHERE guild_id = ?1 AND season = ?2 AND user_id IS NOT NULL
      AND provisional = ?3 AND ordinal = ?4 AND user_id < ?5)
"""
# A player's latest rated matches in a season, newest first: the trend.
SQL_TREND: Final = """
SELECT match_id, mu_before, sigma_before, mu_after, sigma_after FROM match_ratings
WHERE guild_id = ? AND user_id = ? AND season = ?
ORDER BY match_id DESC LIMIT ?
"""
# Head to head over a player's latest rated matches: for each opponent, how
# often the player finished ahead of them and behind them.
SQL_OPPONENTS: Final = """
WITH mine AS (
    SELECT match_id, player, place FROM match_ratings
    WHERE guild_id = ?1 AND user_id = ?2 ORDER BY match_id DESC LIMIT ?3
)
SELECT o.player, o.user_id, MAX(o.name),
       SUM(CASE WHEN mine.place < o.place THEN 1 ELSE 0 END),
       SUM(CASE WHEN mine.place > o.place THEN 1 ELSE 0 END), COUNT(*)
FROM mine JOIN match_ratings AS o ON o.match_id = mine.match_id AND o.player <> mine.player
GROUP BY o.player, o.user_id
"""


async def page(
    conn: Session, guild_id: int, season_number: int | None, number: int, per_page: int
) -> RatingPage:
    """Page ``number`` of a season's board (None: the current season), clamped
    to 1..pages (``Database.rating_board``)."""
    chosen = await season(conn, guild_id, season_number)
    counted = list(await conn.fetch(SQL_RATED_PLAYERS, (guild_id, chosen.number)))
    total = int(counted[0][0])
    pages = max(1, math.ceil(total / per_page))
    shown = min(max(number, 1), pages)
    offset = (shown - 1) * per_page
    rows = await conn.fetch(SQL_RATING_BOARD, (guild_id, chosen.number, per_page, offset))
    return RatingPage(
        season=chosen,
        rows=[_rated(row, offset + i + 1) for i, row in enumerate(rows)],
        page=shown,
        pages=pages,
        total_players=total,
    )


async def is_default(conn: Session, guild_id: int) -> bool:
    """Whether someone is no longer provisional this season."""
    number = await current_season(conn, guild_id)
    rows = list(await conn.fetch(SQL_ESTABLISHED_PLAYERS, (guild_id, number)))
    return bool(rows[0][0])


async def profile(
    conn: Session, guild_id: int, user_id: int, trend: int, opponents_over: int
) -> RatingProfile:
    """A person's rating, trend and best and worst opponents (``Database.rating_profile``)."""
    current = await season(conn, guild_id, None)
    key = f"u{user_id}"
    found = list(await conn.fetch(SQL_RATING_OF, (guild_id, current.number, key)))
    rated: RatedPlayer | None = None
    if found:
        row = tuple(found[0])
        ranked = list(
            await conn.fetch(
                SQL_RATING_RANK,
                (guild_id, current.number, row[5], row[4], user_id),
            )
        )
        rated = _rated(row, int(ranked[0][0]))
    latest = list(await conn.fetch(SQL_TREND, (guild_id, user_id, current.number, trend)))
    latest.reverse()
    points = [ordinal(latest[0][1], latest[0][2])] if latest else []
    points += [ordinal(mu, sigma) for *_, mu, sigma in latest]
    opponents = [
        Opponent(
            name=str(name),
            user_id=None if uid is None else int(uid),
            ahead=int(ahead),
            behind=int(behind),
            matches=int(count),
        )
        for _, uid, name, ahead, behind, count in await conn.fetch(
            SQL_OPPONENTS, (guild_id, user_id, opponents_over)
        )
    ]
    return RatingProfile(
        season=current,
        rating=rated,
        trend=points,
        best=_best_opponent(opponents, lambda o: (o.ahead - o.behind, o.matches)),
        worst=_best_opponent(opponents, lambda o: (o.behind - o.ahead, o.matches)),
    )


def _rated(row: Sequence[Any], rank: int) -> RatedPlayer:
    user_id, name, mu, sigma, value, provisional, matches, wins = row
    return RatedPlayer(
        user_id=int(user_id),
        name=str(name),
        mu=float(mu),
        sigma=float(sigma),
        ordinal=float(value),
        provisional=bool(provisional),
        matches=int(matches),
        wins=int(wins),
        rank=rank,
    )


def _best_opponent(
    opponents: Sequence[Opponent], score: Callable[[Opponent], tuple[int, int]]
) -> Opponent | None:
    """The opponent with the highest score (ties: more matches, then by name), if
    that score is above zero: nobody is a best or worst opponent at even."""
    ranked = sorted(opponents, key=lambda o: (score(o), o.name), reverse=True)
    return ranked[0] if ranked and score(ranked[0])[0] > 0 else None
