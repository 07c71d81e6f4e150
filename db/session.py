"""What the stores' shared queries run on: one connection for one unit of work.

The bot's reads and writes are written once, against this small interface, in
the modules of ``db`` named for what they store (``db.live_tables``,
``db.results``, ``db.leaderboard`` and so on; ``db.database`` lists them);
each store (``db.sqlite_store``, ``db.postgres_store``) gives them a session
on its own engine. SQL is written with ``?`` placeholders (``?N`` where a
value is used twice) in the part of SQL both engines speak alike; a store
translates the placeholders for its driver. Values always go through the
placeholders, never into the text of a statement.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

Row = Sequence[Any]


class Session(abc.ABC):
    """One connection, lent to one unit of work at a time."""

    @abc.abstractmethod
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row the statement returns (a write with RETURNING too)."""

    @abc.abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; how many rows it changed."""

    @abc.abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run a statement once per row of parameters."""

    @abc.abstractmethod
    async def serialise(self, key: int) -> None:
        """Inside a transaction: wait for, then hold until it ends, the turn of
        ``key``, so that units reading and rewriting the same rows (a server's
        ratings) run one after the other, whichever process runs them."""

    @abc.abstractmethod
    async def notify(self, channel: str, payload: str) -> None:
        """Tell the other processes on this database of a change (``payload``
        on ``channel``), once the transaction commits; nothing where one
        process has the store to itself."""

    @abc.abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[None]:
        """A transaction holding the write lock it needs from the start; committed
        when the block ends, rolled back if it raises."""
