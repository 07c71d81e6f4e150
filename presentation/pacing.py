"""Keeps the bot's own REST calls under Discord's global rate limit.

Discord allows a bot 50 requests a second in all (interaction responses and
edits through an interaction token do not count). discord.py only reacts to a
global 429, and while it waits every other request waits too; after five
refusals it gives up, and a lost table edit leaves a channel showing a stale
game. With hundreds of tables playing at once the public table messages and
the "your turn" DMs together go past 50 a second, so the bot paces them itself:
each takes a token from one budget first. Table edits go before DMs; both
collapse while they wait (the refresher draws one edit from the latest state,
the notifier sends only the latest DM), so waiting costs freshness, not a
growing queue.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque

# Below Discord's 50 a second: room for the calls that are not paced (the
# command sync at start-up, moving a table whose message was deleted).
REQUESTS_PER_SECOND = 35.0
BURST = 5

URGENT = 0  # public table edits: what everyone at the table looks at
LATER = 1  # DMs: they only inform


class RequestBudget:
    """A token bucket shared by the bot's paced REST calls, served by priority."""

    def __init__(self, per_second: float = REQUESTS_PER_SECOND, burst: int = BURST) -> None:
        self.per_second = per_second
        self.burst = burst
        self._tokens = float(burst)
        self._stamp = time.monotonic()
        self._waiting: tuple[deque[asyncio.Future[None]], ...] = (deque(), deque())
        self._timer: asyncio.TimerHandle | None = None

    async def take(self, priority: int = URGENT) -> None:
        """Wait for a token; callers of a higher priority are served first."""
        self._refill()
        if self._tokens >= 1 and not any(self._waiting[: priority + 1]):
            self._tokens -= 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[priority].append(future)
        self._arm()
        await future  # a cancelled waiter is skipped when its turn comes

    def _refill(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.per_second)
        self._stamp = now

    def _arm(self) -> None:
        if self._timer is None:
            delay = max(0.0, (1 - self._tokens) / self.per_second)
            self._timer = asyncio.get_running_loop().call_later(delay, self._grant)

    def _grant(self) -> None:
        self._timer = None
        self._refill()
        for queue in self._waiting:
            while queue and self._tokens >= 1:
                future = queue.popleft()
                if not future.done():
                    self._tokens -= 1
                    future.set_result(None)
        if any(self._waiting):
            self._arm()


# How long a waiting player's message lets the game move on before it is
# edited, so that the moves made meanwhile cost it one edit.
FOLLOW_AFTER = 1.0
# A draw from the stock changes nothing a waiting player acts on but the
# stock's count: it rides along with the mover's next move (mostly the discard
# that ends the turn) rather than costing every waiting message an edit of its
# own, and shows by itself after this long.
QUIET_FOLLOW_AFTER = 5.0
