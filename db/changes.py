"""Changes other processes made, heard as they commit (PostgreSQL's LISTEN).

A process that keeps something of the database in memory (players' choices)
asks to hear of every change another process makes to it: a unit of work that
changes it says so with ``Session.notify`` in its transaction, and PostgreSQL
tells every listener once it commits. A notice sent while a listener's link
was down is lost, so after any gap (the first connection too) the listener is
told ``None``: read everything again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Final

import asyncpg

from .postgres_link import CONNECT_TIMEOUT, KEEPALIVES

log = logging.getLogger(__name__)

# How often the link is checked, and how soon it is made again after a loss:
# a link that died silently would otherwise miss changes for good.
CHECK_EVERY: Final = 5.0

Heard = Callable[[str | None], None]


class ChangeListener:
    """One connection listening on a few channels, for the life of the store."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._heard: dict[str, Heard] = {}
        self._conn: asyncpg.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def listen(self, channel: str, heard: Heard) -> None:
        """Call ``heard`` with each notice's payload on ``channel``, and with
        None whenever notices may have been missed (at first, after a gap)."""
        self._heard[channel] = heard
        self._wake.set()
        if self._task is None:
            self._task = asyncio.create_task(self._keep(), name="database-changes")

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._drop()

    def abandon(self) -> None:
        """Stop at once, as a process that died would."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            conn.terminate()

    async def _keep(self) -> None:
        listening: set[str] = set()
        said_lost = False
        while True:
            try:
                if self._conn is None or self._conn.is_closed():
                    listening = set()
                    self._conn = await asyncpg.connect(
                        self._url, timeout=CONNECT_TIMEOUT, server_settings=KEEPALIVES
                    )
                for channel in self._heard.keys() - listening:
                    await self._conn.add_listener(channel, self._notice)
                    listening.add(channel)
                    self._heard[channel](None)  # anything before now: read it all
                await self._conn.fetchval("SELECT 1", timeout=CONNECT_TIMEOUT)
                if said_lost:
                    log.warning("hearing other processes' changes again")
                    said_lost = False
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                if not said_lost:
                    log.warning("cannot hear other processes' changes for now: %s", exc)
                    said_lost = True
                await self._drop()
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), CHECK_EVERY)

    def _notice(self, _conn: Any, _pid: int, channel: str, payload: object) -> None:
        heard = self._heard.get(channel)
        if heard is not None:
            heard(str(payload))

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            conn.terminate()
