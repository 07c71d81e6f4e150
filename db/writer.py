"""Live-table saves: group commits on a thread and connection of their own.

Every move in every game is one save, so this is the busiest path to the
disk, and the one players wait on: a click is answered only once its save is
on disk. Through the shared aiosqlite connection a save went caller -> a
committing task -> aiosqlite's thread -> that task again -> caller: four turns
of the event loop, and on a bot busy with hundreds of tables one turn takes
tens of milliseconds. Here the caller hands its row straight to the writing
thread, which wakes at once, and the thread settles the callers' futures when
its commit is done: two turns. Saves that queue up while a commit runs go
into the next one together (a group commit: one statement, one write to the
log; flushing the log to the disk is ``db.checkpoint``'s job).

SQLite lets one writer in at a time, so this connection and the shared one
take turns at the file (``busy_timeout``). No save can pass another unit on
the same table: a table's changes are made under its lock, and each waits for
its save to be on disk before the next change starts.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from .connection_thread import ConnectionThread

log = logging.getLogger(__name__)


@dataclass(eq=False)
class PendingSave:
    """A live-table save queued for the writer thread; ``done`` settles once committed."""

    channel_id: int
    row: tuple[Any, ...]
    done: asyncio.Future[None]


# What the thread reports back: the saves it committed together, and why the
# commit failed (None: it did not).
Settle = Callable[[list[PendingSave], BaseException | None], None]

_STOP: Final = None


class LiveTableWriter(ConnectionThread):
    """A thread with its own SQLite connection, committing queued saves in groups."""

    def __init__(
        self,
        connect: Callable[[], sqlite3.Connection],
        statement: Callable[[int], str],
        max_rows: int,
        settle: Settle,
    ) -> None:
        super().__init__(connect, "db-live-writer")
        self._statement = statement
        self._max_rows = max_rows
        self._settle = settle
        self._queue: queue.SimpleQueue[PendingSave | None] = queue.SimpleQueue()
        self._loop = asyncio.get_running_loop()
        # Told how long each commit took (on this thread): the bot's metrics.
        self.on_commit: Callable[[float], None] | None = None

    def submit(self, save: PendingSave) -> None:
        self._queue.put(save)

    def stop_soon(self) -> None:
        """Ask the thread to finish what is queued and end, without waiting for it."""
        self._queue.put(_STOP)

    # ------------------------------------------------------------ on the thread
    def _serve(self, conn: sqlite3.Connection) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is _STOP:
                break
            batch = [first]
            while len(batch) < self._max_rows:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is _STOP:
                    stopping = True
                    break
                batch.append(more)
            started = time.perf_counter()
            error = self._commit(conn, batch)
            if self.on_commit is not None:
                self.on_commit(time.perf_counter() - started)
            self._report(batch, error)

    def _commit(self, conn: sqlite3.Connection, batch: list[PendingSave]) -> BaseException | None:
        # One statement in autocommit mode: one transaction, every row or
        # none.
        parameters = [value for save in batch for value in save.row]
        try:
            conn.execute(self._statement(len(batch)), parameters)
        except Exception as exc:  # reported to every caller in the batch
            return exc
        return None

    def _report(self, batch: list[PendingSave], error: BaseException | None) -> None:
        try:
            self._loop.call_soon_threadsafe(self._settle, batch, error)
        except RuntimeError:  # the event loop is closed: nobody is left to tell
            log.debug("live-table saves settled after the event loop closed")
