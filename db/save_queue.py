"""Live-table saves committed in groups, by one task on the event loop.

Every move of every game is a save, and a commit costs the server a flush of
its log: at hundreds of moves a second, one commit per save queued them up
behind each other (10 ms a commit on this machine's disk). Here saves that
arrive while a commit runs go into the next one together, one transaction for
the lot, as ``db.writer`` does on its thread for SQLite. Each caller still
returns only once its own save is committed, and a failed commit fails every
save in it. A commit may also refuse single saves (a fenced save made under
a lease this process no longer holds, ``db.leases``): those fail alone. A save
whose caller is cancelled is written all the same.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .errors import StorageError
from .writer import PendingSave

log = logging.getLogger(__name__)

# Commits the rows; the saves it refused, by channel, with why.
Commit = Callable[[list[tuple[Any, ...]]], Awaitable[Mapping[int, StorageError]]]


class SaveQueue:
    """Saves waiting for the next group commit, and the task that makes them."""

    def __init__(self, commit: Commit, max_rows: int) -> None:
        self._commit = commit
        self._max_rows = max_rows
        self._waiting: list[PendingSave] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()

    def submit(self, channel_id: int, row: tuple[Any, ...]) -> asyncio.Future[None]:
        """Queue a save; the future settles once it is committed (or failed)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(PendingSave(channel_id, row, done))
        self._idle.clear()
        self._wake.set()
        if self._task is None:
            self._task = asyncio.create_task(self._write(), name="live-table-saves")
        return done

    async def drain(self) -> None:
        """Wait until every save queued so far is settled."""
        await self._idle.wait()

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _write(self) -> None:
        while True:
            await self._wake.wait()
            batch = self._waiting[: self._max_rows]
            del self._waiting[: self._max_rows]
            if not self._waiting:
                self._wake.clear()
            error: BaseException | None = None
            refused: Mapping[int, StorageError] = {}
            try:
                refused = await self._commit([save.row for save in batch])
            except StorageError as failed:
                error = failed
            _settle(batch, error, refused)
            if not self._waiting:
                self._idle.set()


def _settle(
    batch: list[PendingSave], error: BaseException | None, refused: Mapping[int, StorageError]
) -> None:
    for save in batch:
        if error is None and save.channel_id not in refused:
            if not save.done.done():
                save.done.set_result(None)
            continue
        failure = refused.get(save.channel_id) or StorageError(
            f"saving the live table in channel {save.channel_id} failed: {error}"
        )
        if save.done.cancelled():
            log.error("%s (its caller had stopped waiting)", failure)
        elif not save.done.done():
            save.done.set_exception(failure)
