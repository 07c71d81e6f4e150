"""Live tables: their state, their locks, the unit of work that changes and
saves them, and what the database keeps of them."""

from .lock import TableLock
from .place import Place
from .registry import TableRegistry
from .table import (
    MAX_SEATS,
    MIN_SEATS,
    MISSED_TURNS_BEFORE_AUTOPILOT,
    LogLine,
    Seat,
    Stage,
    Table,
)
from .work import NOT_SAVED, FollowUp, NotSaved, Refusal, TableChange, TableWork

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "MISSED_TURNS_BEFORE_AUTOPILOT",
    "NOT_SAVED",
    "FollowUp",
    "LogLine",
    "NotSaved",
    "Place",
    "Refusal",
    "Seat",
    "Stage",
    "Table",
    "TableChange",
    "TableLock",
    "TableRegistry",
    "TableWork",
]
