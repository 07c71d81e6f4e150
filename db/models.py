"""Plain value types passed in and out of :class:`db.Database`.

They carry no behaviour and no SQL: the cogs build them from the engine's
serialised state and results, the database stores and returns them.  All are
frozen so a record cannot change between being validated and being written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

LeaderboardOrder = Literal["wins", "points", "rummies"]
"""How a leaderboard is sorted: matches won, points scored, or rummies made."""


@dataclass(frozen=True)
class LiveTable:
    """A game in progress, saved after every action so a restart loses nothing.

    ``state`` is the engine's JSON-ready ``to_dict()``; ``rules`` the house
    rules the table was started with; ``message_id`` the public table message
    whose buttons must keep working after a restart (None before it is sent).
    """

    channel_id: int
    guild_id: int
    message_id: int | None
    rules: dict[str, Any]
    state: dict[str, Any]
    updated_at: float


@dataclass(frozen=True)
class BrokenTable:
    """A saved live table that could not be read back and was set aside.

    The row is kept in the set-aside table (never deleted) so it can be
    inspected or repaired; ``guild_id`` is None when even that column was
    unreadable.  The bot uses this to tell the channel its game is lost.
    """

    channel_id: int
    guild_id: int | None
    error: str


@dataclass(frozen=True)
class LoadResult:
    """Everything :meth:`db.Database.load_live_tables` found at start-up."""

    tables: list[LiveTable]
    broken: list[BrokenTable]


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a finished match.

    ``player_key`` is the engine's id for the seat (the key of the score
    dicts); ``user_id`` is the Discord user, None for a computer seat.
    """

    player_key: str
    user_id: int | None
    name: str
    computer: bool


@dataclass(frozen=True)
class HandRecord:
    """One finished hand: who went out (and whether with rummy), each seat's score."""

    number: int
    went_out: str | None
    rummy: bool
    scores: dict[str, int]
    winners: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class MatchRecord:
    """A finished (or abandoned) match, recorded once with all its hands.

    ``totals`` and ``winners`` are keyed by ``player_key``.  An abandoned match
    counts as played for its human seats but is won by nobody, whatever
    ``winners`` says.
    """

    guild_id: int
    channel_id: int
    seats: list[SeatRecord]
    rules: dict[str, Any]
    hands: list[HandRecord]
    totals: dict[str, int]
    winners: tuple[str, ...]
    abandoned: bool
    started_at: float
    ended_at: float


@dataclass(frozen=True)
class PlayerStats:
    """A human player's figures in one server, with their rank in the chosen order."""

    user_id: int
    name: str
    matches_played: int
    matches_won: int
    hands_won: int
    points: int
    rummies: int
    rank: int


@dataclass(frozen=True)
class LeaderboardPage:
    """One page of a server's leaderboard; ``page`` is the page actually shown."""

    rows: list[PlayerStats]
    page: int
    pages: int
    total_players: int
