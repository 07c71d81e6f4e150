"""Match results: a finished match's rows, recorded in one transaction, and read back.

Recording a match writes its seats, its hands (with their moves), what it adds
to each human's running figures (``player_stats``, which ``db.leaderboard``
reads) and its ratings (``db.ratings``) together, so no figure ever counts a
match that is not in the history, nor the reverse. The row builders are pure
and shared with ``db.bench``, so the benchmark stores exactly what the bot
stores.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from . import live_tables, ratings
from .errors import StorageError
from .jsontext import to_json
from .models import HandMoves, HandRecord, MatchRecord, SeatRecord
from .session import Session

SQL_INSERT_MATCH: Final = """
INSERT INTO matches (guild_id, channel_id, rules, abandoned, started_at, ended_at)
VALUES (?, ?, ?, ?, ?, ?) RETURNING id
"""
SQL_INSERT_SEAT: Final = """
INSERT INTO match_seats (match_id, seat, player_key, user_id, name, computer, total, won)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
"""
SQL_INSERT_HAND: Final = """
INSERT INTO hands (match_id, number, went_out, rummy, scores, winners, reason)
VALUES (?, ?, ?, ?, ?, ?, ?)
"""
SQL_ADD_PLAYER_STATS: Final = """
INSERT INTO player_stats
    (guild_id, user_id, name, matches_played, matches_won, hands_won, points, rummies)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, user_id) DO UPDATE SET
    name = excluded.name,
    matches_played = player_stats.matches_played + excluded.matches_played,
    matches_won = player_stats.matches_won + excluded.matches_won,
    hands_won = player_stats.hands_won + excluded.hands_won,
    points = player_stats.points + excluded.points,
    rummies = player_stats.rummies + excluded.rummies
"""
SQL_GET_MATCH: Final = """
SELECT guild_id, channel_id, rules, abandoned, started_at, ended_at FROM matches WHERE id = ?
"""
SQL_GET_SEATS: Final = """
SELECT player_key, user_id, name, computer, total, won
FROM match_seats WHERE match_id = ? ORDER BY seat
"""
SQL_GET_HANDS: Final = """
SELECT h.number, h.went_out, h.rummy, h.scores, h.winners, h.reason, m.dealer, m.seed, m.moves
FROM hands AS h
LEFT JOIN hand_moves AS m ON m.match_id = h.match_id AND m.number = h.number
WHERE h.match_id = ? ORDER BY h.number
"""
SQL_INSERT_HAND_MOVES: Final = """
INSERT INTO hand_moves (match_id, number, dealer, seed, moves) VALUES (?, ?, ?, ?, ?)
"""

MatchRow = tuple[int, int, str, int, float, float]
SeatRow = tuple[int, str, int | None, str, int, int | None, int]  # without match_id
HandRow = tuple[int, str | None, int, str, str, str]  # without match_id
StatsRow = tuple[int, int, str, int, int, int, int, int]
MatchRows = tuple[MatchRow, list[SeatRow], list[HandRow], list[StatsRow]]


def match_rows(match: MatchRecord) -> MatchRows:
    """Split a match into its table rows and its leaderboard increments.

    Raises StorageError for what the schema cannot check itself: the player
    keys inside the JSON score and winner lists must be seats of the match.
    Everything else (one seat per key and per user, hand numbers unique and
    positive, who went out seated, computer seats without a user) is left to
    constraints, which check it inside the transaction.
    """
    keys = {seat.player_key for seat in match.seats}
    if not keys:
        raise StorageError("cannot record a match without seats")
    _check_keys(keys, match.totals, "totals")
    _check_keys(keys, match.winners, "winners")
    for hand in match.hands:
        _check_keys(keys, hand.scores, f"hand {hand.number} scores")
        _check_keys(keys, hand.winners, f"hand {hand.number} winners")
    try:
        match_row: MatchRow = (
            match.guild_id,
            match.channel_id,
            to_json(match.rules),
            int(match.abandoned),
            match.started_at,
            match.ended_at,
        )
        hand_rows: list[HandRow] = [
            (
                hand.number,
                hand.went_out,
                int(hand.rummy),
                to_json(hand.scores),
                to_json(list(hand.winners)),
                hand.reason,
            )
            for hand in match.hands
        ]
    except (TypeError, ValueError) as exc:
        raise StorageError(f"cannot serialise match record: {exc}") from exc
    seat_rows: list[SeatRow] = [
        (
            index,
            seat.player_key,
            seat.user_id,
            seat.name,
            int(seat.computer),
            match.totals.get(seat.player_key),
            int(seat.player_key in match.winners),
        )
        for index, seat in enumerate(match.seats)
    ]
    stats_rows = [_stats_row(match, seat) for seat in match.seats if not seat.computer]
    return match_row, seat_rows, hand_rows, stats_rows


def _stats_row(match: MatchRecord, seat: SeatRecord) -> StatsRow:
    """What one match adds to a human's figures (see PlayerStats)."""
    key = seat.player_key
    hands: Sequence[HandRecord] = match.hands
    won = not match.abandoned and key in match.winners
    return (
        match.guild_id,
        # A human seat without a user id fails the seat CHECK before this row
        # is used; -1 only keeps the tuple well-typed until then.
        seat.user_id if seat.user_id is not None else -1,
        seat.name,
        # An abandoned match was never played out: not a match lost.
        int(not match.abandoned),
        int(won),
        sum(key in hand.winners for hand in hands),
        sum(hand.scores.get(key, 0) for hand in hands),
        sum(hand.rummy and hand.went_out == key for hand in hands),
    )


def moves_rows(match: MatchRecord) -> list[tuple[int, int, int, str]]:
    """The kept moves of the match's hands (number, dealer, seed, moves), without match_id."""
    return [
        (hand.number, hand.moves.dealer, hand.moves.seed, hand.moves.moves)
        for hand in match.hands
        if hand.moves is not None
    ]


def _check_keys(keys: set[str], used: Any, what: str) -> None:
    unknown = sorted(set(used) - keys)
    if unknown:
        raise StorageError(f"cannot record match: {what} name unseated players {unknown}")


async def record(
    conn: Session,
    match: MatchRecord,
    rows: MatchRows,
    remove_live: int | None,
    fence: live_tables.Fence | None = None,
) -> int:
    """Store ``match`` (its ``match_rows``) with its ratings, in one transaction
    (``Database.record_match``); its id. Under ``fence``, only while this
    process still serves the server's shard: a process that lost it must not
    record a match its successor goes on playing."""
    match_row, seat_rows, hand_rows, stats_rows = rows
    async with conn.transaction():
        if fence is not None:
            await fence(conn, match.guild_id)
        # Ratings are read, then rewritten: two results of one server
        # recorded at once (two processes, or two connections) take turns.
        await conn.serialise(match.guild_id)
        inserted = await conn.fetch(SQL_INSERT_MATCH, match_row)
        match_id = int(inserted[0][0])
        await conn.executemany(SQL_INSERT_SEAT, [(match_id, *r) for r in seat_rows])
        await conn.executemany(SQL_INSERT_HAND, [(match_id, *r) for r in hand_rows])
        await conn.executemany(SQL_INSERT_HAND_MOVES, [(match_id, *r) for r in moves_rows(match)])
        await conn.executemany(SQL_ADD_PLAYER_STATS, stats_rows)
        # The ratings move with the result or not at all: a match is
        # rated exactly once, however the bot stops and starts.
        await ratings.rate_match(conn, match_id, match)
        if remove_live is not None:
            await live_tables.delete(conn, remove_live)
    return match_id


async def read(conn: Session, match_id: int) -> MatchRecord | None:
    found = list(await conn.fetch(SQL_GET_MATCH, (match_id,)))
    if not found:
        return None
    guild_id, channel_id, rules, abandoned, started_at, ended_at = found[0]
    seats = list(await conn.fetch(SQL_GET_SEATS, (match_id,)))
    hands = await conn.fetch(SQL_GET_HANDS, (match_id,))
    return MatchRecord(
        guild_id=guild_id,
        channel_id=channel_id,
        seats=[
            SeatRecord(player_key=k, user_id=u, name=n, computer=bool(c))
            for k, u, n, c, _total, _won in seats
        ],
        rules=json.loads(rules),
        hands=[
            HandRecord(
                number=number,
                went_out=went_out,
                rummy=bool(rummy),
                scores=json.loads(scores),
                winners=tuple(json.loads(winners)),
                reason=reason,
                moves=None if moves is None else HandMoves(dealer, seed, moves),
            )
            for number, went_out, rummy, scores, winners, reason, dealer, seed, moves in hands
        ],
        totals={k: total for k, _u, _n, _c, total, _w in seats if total is not None},
        winners=tuple(k for k, _u, _n, _c, _t, won in seats if won),
        abandoned=bool(abandoned),
        started_at=started_at,
        ended_at=ended_at,
    )
