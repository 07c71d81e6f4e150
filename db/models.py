"""Plain value types passed in and out of :class:`db.Database`.

They carry no behaviour and no SQL: the cogs build them from the engine's
serialised state and results, the database stores and returns them.  All are
frozen so a record cannot change between being validated and being written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

LeaderboardOrder = Literal["wins", "points", "rummies"]
"""How a leaderboard is sorted: matches won, points scored, or rummies made
(the fourth order, by rating, is a season's: :class:`RatingPage`)."""


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
    dicts); ``user_id`` is the Discord user, None for a computer seat;
    ``level`` the computer's level, which is what a computer is rated as.
    """

    player_key: str
    user_id: int | None
    name: str
    computer: bool
    level: str | None = None


@dataclass(frozen=True)
class HandMoves:
    """How a hand was dealt (its dealer's seat and seed) and every move made in
    it, in ``engine.tape``'s compact text: enough to replay it."""

    dealer: int
    seed: int
    moves: str


@dataclass(frozen=True)
class HandRecord:
    """One finished hand: who went out (and whether with rummy), each seat's score."""

    number: int
    went_out: str | None
    rummy: bool
    scores: dict[str, int]
    winners: tuple[str, ...]
    reason: str
    # None for hands recorded before moves were kept.
    moves: HandMoves | None = None


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
class PlayerTotals:
    """A person's figures summed over every board they played on: each
    server's, each DM's and each group DM's."""

    user_id: int
    name: str  # one of the names their boards keep (a nickname differs by server)
    boards: int
    matches_played: int
    matches_won: int
    hands_won: int
    points: int
    rummies: int


@dataclass(frozen=True)
class LeaderboardPage:
    """One page of a server's leaderboard; ``page`` is the page actually shown."""

    rows: list[PlayerStats]
    page: int
    pages: int
    total_players: int


@dataclass(frozen=True)
class Season:
    """A server's season: ``ended_at`` None for the one being played.
    ``started_at`` is None for a server's first season (it began with the bot)."""

    number: int
    name: str
    started_at: float | None
    ended_at: float | None


@dataclass(frozen=True)
class RatedPlayer:
    """A person's skill rating in one season of one server, with their rank.

    ``ordinal`` (mu - 3 sigma) is what the leaderboard ranks by; a player with
    fewer than five rated matches is ``provisional`` and listed after the rest.
    """

    user_id: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    provisional: bool
    matches: int
    wins: int
    rank: int


@dataclass(frozen=True)
class RatingPage:
    """One page of a season's rating leaderboard; ``page`` is the page shown."""

    season: Season
    rows: list[RatedPlayer]
    page: int
    pages: int
    total_players: int


@dataclass(frozen=True)
class Opponent:
    """How a player did against one opponent over their latest rated matches."""

    name: str
    user_id: int | None
    ahead: int
    behind: int
    matches: int


@dataclass(frozen=True)
class RatingProfile:
    """A person's rating in the current season, its trend, and their opponents.

    ``trend`` holds the ordinal after each of their latest rated matches,
    oldest first, beginning with the ordinal before the first of them.
    """

    season: Season
    rating: RatedPlayer | None
    trend: list[float]
    best: Opponent | None
    worst: Opponent | None


@dataclass(frozen=True)
class HistorySeat:
    """A seat of a match in the history: its final place and total, and the
    change of its rating's ordinal (None: not rated)."""

    name: str
    user_id: int | None
    computer: bool
    place: int
    total: int | None
    won: bool
    rating_change: float | None


@dataclass(frozen=True)
class HistoryEntry:
    """One match in a history list."""

    match_id: int
    channel_id: int
    ended_at: float
    abandoned: bool
    hands: int
    seats: list[HistorySeat]


@dataclass(frozen=True)
class HistoryPage:
    """One page of a history, newest first; ``has_next`` if older ones follow."""

    entries: list[HistoryEntry]
    page: int
    has_next: bool


@dataclass(frozen=True)
class MatchSummary:
    """A recorded match as the history shows it: the record (with each hand's
    moves where kept) and its seats in the history's terms."""

    match_id: int
    record: MatchRecord
    entry: HistoryEntry
