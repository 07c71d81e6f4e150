"""The bot's background work, so that shutdown can wait for it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any

log = logging.getLogger(__name__)


class Supervisor:
    """Runs work that must not delay an answer, and knows what is still running.

    ``extra_pending`` names work kept elsewhere (the refresher's edits) that
    waiting for the bot to settle includes too.
    """

    def __init__(self, extra_pending: Callable[[], list[asyncio.Task[Any]]] | None = None) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._extra_pending = extra_pending or list
        # Stopping: no new click or command is taken (each is told why); the
        # ones under way finish. Closing: no new background work either.
        self.stopping = False
        self.closing = False
        # Whether this process may still act for its shards (``app.standby``
        # says, from its leases): checked at each click, as a busy event loop
        # may run a click after the moment the leases stopped covering it.
        self.serving: Callable[[], bool] = lambda: True

    @property
    def refusing(self) -> bool:
        """No new click or command is taken: stopping, closing, or no longer serving."""
        return self.stopping or self.closing or not self.serving()

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any] | None:
        """Run ``coro`` in the background; its failure is logged. None once closing."""
        if self.closing:
            coro.close()
            return None
        task = asyncio.create_task(self._guarded(coro, name), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def running(self) -> list[asyncio.Task[Any]]:
        """The background work and interaction handlers under way now."""
        return [task for task in self._tasks if not task.done()]

    @contextlib.asynccontextmanager
    async def handling(self) -> AsyncIterator[None]:
        """Mark the running interaction handler, so shutdown lets it finish
        (its save and follow-up edits) before the database closes."""
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._tasks.discard(task)

    @staticmethod
    async def _guarded(coro: Awaitable[Any], name: str) -> None:
        try:
            await coro
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("background task %s failed", name)

    async def wait_idle(self, limit: float = 10.0) -> None:
        """Wait until no background work is pending (used by tests and shutdown)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            pending = self.running() + self._extra_pending()
            if not pending:
                return
            await asyncio.wait(pending, timeout=max(0.0, deadline - time.monotonic()))

    async def close(self) -> None:
        """Cancel what is still running; nothing new starts after this."""
        self.closing = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
