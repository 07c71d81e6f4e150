"""Recorded matches read back for the history: pages of a server's or a
member's matches, newest first, with places, totals and rating changes.

A page is one index walk for its match ids (``matches_by_guild`` for a
server, ``match_seats_by_user`` for a member) and one lookup per part for
those ids: no count of a server's whole history is ever made, so a page costs
the same at ten matches and at a million. Whether an older page follows is
read as one more row than the page holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .models import HistoryEntry, HistoryPage, HistorySeat, MatchRecord, MatchSummary
from .ratings import ordinal, places
from .session import Session

SQL_SERVER_PAGE: Final = """
SELECT id, channel_id, abandoned, ended_at FROM matches WHERE guild_id = ?
ORDER BY ended_at DESC, id DESC LIMIT ? OFFSET ?
"""
SQL_MEMBER_PAGE: Final = """
SELECT m.id, m.channel_id, m.abandoned, m.ended_at
FROM match_seats AS s JOIN matches AS m ON m.id = s.match_id
WHERE s.user_id = ? AND m.guild_id = ?
ORDER BY s.match_id DESC LIMIT ? OFFSET ?
"""
SQL_ONE_MATCH: Final = """
SELECT id, channel_id, abandoned, ended_at FROM matches WHERE id = ? AND guild_id = ?
"""
SQL_LATEST_IN_CHANNEL: Final = """
SELECT id FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1
"""


def _in(count: int) -> str:
    return ", ".join("?" * count)


async def entries(conn: Session, rows: Sequence[Sequence[Any]]) -> list[HistoryEntry]:
    """The history entries of these ``matches`` rows (id, channel, abandoned, end)."""
    ids = [int(row[0]) for row in rows]
    if not ids:
        return []
    marks = _in(len(ids))
    seats: dict[int, list[tuple[Any, ...]]] = {i: [] for i in ids}
    for row in await conn.fetch(
        "SELECT match_id, player_key, user_id, name, computer, total, won FROM match_seats"
        f" WHERE match_id IN ({marks}) ORDER BY match_id, seat",
        ids,
    ):
        seats[int(row[0])].append(tuple(row[1:]))
    hands = {
        int(match_id): int(count)
        for match_id, count in await conn.fetch(
            f"SELECT match_id, COUNT(*) FROM hands WHERE match_id IN ({marks}) GROUP BY match_id",
            ids,
        )
    }
    changes: dict[tuple[int, int], float] = {}
    for match_id, user_id, mu0, s0, mu1, s1 in await conn.fetch(
        "SELECT match_id, user_id, mu_before, sigma_before, mu_after, sigma_after"
        f" FROM match_ratings WHERE match_id IN ({marks}) AND user_id IS NOT NULL",
        ids,
    ):
        changes[(int(match_id), int(user_id))] = ordinal(mu1, s1) - ordinal(mu0, s0)
    result = []
    for match_id, channel_id, abandoned, ended_at in rows:
        mine = seats[int(match_id)]
        totals = {key: total for key, _u, _n, _c, total, _w in mine if total is not None}
        place_of = places(totals, [key for key, *_ in mine])
        result.append(
            HistoryEntry(
                match_id=int(match_id),
                channel_id=int(channel_id),
                ended_at=float(ended_at),
                abandoned=bool(abandoned),
                hands=hands.get(int(match_id), 0),
                seats=[
                    HistorySeat(
                        name=str(name),
                        user_id=None if user_id is None else int(user_id),
                        computer=bool(computer),
                        place=place_of[key],
                        total=None if total is None else int(total),
                        won=bool(won) and not abandoned,
                        rating_change=None
                        if user_id is None
                        else changes.get((int(match_id), int(user_id))),
                    )
                    for key, user_id, name, computer, total, won in mine
                ],
            )
        )
    return result


async def page(
    conn: Session, guild_id: int, user_id: int | None, number: int, per_page: int
) -> HistoryPage:
    """Page ``number`` (from 1) of a server's history, or of one member's in it."""
    offset = (number - 1) * per_page
    if user_id is None:
        rows = await conn.fetch(SQL_SERVER_PAGE, (guild_id, per_page + 1, offset))
    else:
        rows = await conn.fetch(SQL_MEMBER_PAGE, (user_id, guild_id, per_page + 1, offset))
    found = [tuple(row) for row in rows]
    return HistoryPage(
        entries=await entries(conn, found[:per_page]),
        page=number,
        has_next=len(found) > per_page,
    )


async def one(conn: Session, guild_id: int, match_id: int) -> HistoryEntry | None:
    """The history entry of one match of this server, or None."""
    rows = [tuple(row) for row in await conn.fetch(SQL_ONE_MATCH, (match_id, guild_id))]
    found = await entries(conn, rows)
    return found[0] if found else None


async def summary(
    conn: Session, guild_id: int, match_id: int, record: MatchRecord
) -> MatchSummary | None:
    """The summary of a match of this server, from its ``record``; None if the
    history has no such match."""
    entry = await one(conn, guild_id, match_id)
    return None if entry is None else MatchSummary(match_id, record, entry)


async def latest_in_channel(conn: Session, channel_id: int) -> int | None:
    rows = list(await conn.fetch(SQL_LATEST_IN_CHANNEL, (channel_id,)))
    return int(rows[0][0]) if rows else None
