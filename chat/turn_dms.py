"""A gentle word to a player whose turn it is and who is not looking.

The hand message already shows whose turn it is; a DM at every turn only
repeated it. So a turn's DM goes out only if the player has not looked at
the game (clicked anything) for a while after their turn began, at most once
a turn, and only to players who have not turned such DMs off.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from tables import Seat, Table

from .dms import Notifier


class TurnNudges:
    """One pending nudge per table, for the player whose turn it is."""

    def __init__(
        self, notifier: Notifier, after: float, wants_turn_dms: Callable[[int], bool]
    ) -> None:
        self.notifier = notifier
        self.after = after
        self.wants_turn_dms = wants_turn_dms
        self._pending: dict[int, asyncio.Task[None]] = {}

    def turn_started(self, table: Table, seat: Seat) -> None:
        self.cancel(table)
        if seat.user_id is None or not self.wants_turn_dms(seat.user_id):
            return
        task = asyncio.create_task(self._nudge(table, seat, time.time()), name="turn-nudge")
        self._pending[table.channel_id] = task
        task.add_done_callback(lambda done: self._forget(table.channel_id, done))

    def cancel(self, table: Table) -> None:
        task = self._pending.pop(table.channel_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def close(self) -> None:
        tasks = list(self._pending.values())
        self._pending.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _forget(self, channel_id: int, done: asyncio.Task[None]) -> None:
        if self._pending.get(channel_id) is done:
            del self._pending[channel_id]

    async def _nudge(self, table: Table, seat: Seat, started: float) -> None:
        await asyncio.sleep(self.after)
        if table.current_seat is not seat or table.seen_at.get(seat.key, 0.0) >= started:
            return  # played, or looking at the game: no need to call them
        self.notifier.your_turn(table, seat)
