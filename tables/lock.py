"""A table's lock, which also tells a look from a change.

Every change to a table is made under its lock, saved, and only then
answered; the holder keeps the lock over its answer too, because the order of
answers on a shared message matters. A click that only looks at the table
(Show hand) needs none of that: it must not see a change that may still be
rolled back, and that is all. Waiting for the whole lock made the four
players of a table who open their hands the moment it is dealt wait for the
deal's answer to come back first, and at 200 tables that wait was the largest
part of the opening's slow answers.
"""

from __future__ import annotations

import asyncio
from types import TracebackType


class TableLock:
    """``asyncio.Lock`` plus: whether the holder's changes are all saved."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        # True when the table matches what is saved (or is not being changed):
        # nothing a look could see may be rolled back.
        self._settled = True
        self._watchers: list[asyncio.Future[None]] = []

    def locked(self) -> bool:
        return self._lock.locked()

    async def acquire(self) -> None:
        await self._lock.acquire()
        self._settled = False  # the holder may change the table from now on

    def release(self) -> None:
        self._settled = True
        self._lock.release()
        self._wake()

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()

    def is_settled(self) -> bool:
        """No change in progress could still be undone."""
        return self._settled

    def mark_saved(self) -> None:
        """The holder's changes are saved (or undone): looking is safe again.

        Called once a change is on disk; a holder that changes the table again
        must do so under a new hold of the lock.
        """
        self._settled = True
        self._wake()

    async def settled(self) -> None:
        """Wait until no unsaved change is in progress; then look at once,
        without awaiting anything, so the table cannot change meanwhile."""
        while not self._settled:
            watcher = asyncio.get_running_loop().create_future()
            self._watchers.append(watcher)
            try:
                await watcher
            finally:
                if watcher in self._watchers:
                    self._watchers.remove(watcher)

    def _wake(self) -> None:
        watchers, self._watchers = self._watchers, []
        for watcher in watchers:
            if not watcher.done():
                watcher.set_result(None)
