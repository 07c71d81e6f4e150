"""Storage for the Rummy bot: results, leaderboards, saved live tables.

All SQL of the project lives in this package.  The bot uses :class:`Database`
(``Database.open`` picks the store: an SQLite file, or PostgreSQL) and the
value types below; nothing else here is part of the interface.
"""

from . import postgres_store as _postgres_store  # noqa: F401  (registers the store)
from . import sqlite_store as _sqlite_store  # noqa: F401  (registers the store)
from .database import Database
from .errors import (
    DatabaseDamagedError,
    DatabaseLockedError,
    DatabaseTooNewError,
    SeasonRefused,
    StorageError,
)
from .migrations import LATEST_VERSION
from .models import (
    BrokenTable,
    HandMoves,
    HandRecord,
    HistoryEntry,
    HistoryPage,
    HistorySeat,
    LeaderboardOrder,
    LeaderboardPage,
    LiveTable,
    LoadResult,
    MatchRecord,
    MatchSummary,
    Opponent,
    PlayerStats,
    PlayerTotals,
    RatedPlayer,
    RatingPage,
    RatingProfile,
    Season,
    SeatRecord,
)
from .ratings import PROVISIONAL_BELOW

__all__ = [
    "LATEST_VERSION",
    "PROVISIONAL_BELOW",
    "BrokenTable",
    "Database",
    "DatabaseDamagedError",
    "DatabaseLockedError",
    "DatabaseTooNewError",
    "HandMoves",
    "HandRecord",
    "HistoryEntry",
    "HistoryPage",
    "HistorySeat",
    "LeaderboardOrder",
    "LeaderboardPage",
    "LiveTable",
    "LoadResult",
    "MatchRecord",
    "MatchSummary",
    "Opponent",
    "PlayerStats",
    "PlayerTotals",
    "RatedPlayer",
    "RatingPage",
    "RatingProfile",
    "Season",
    "SeasonRefused",
    "SeatRecord",
    "StorageError",
]
