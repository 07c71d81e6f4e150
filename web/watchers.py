"""Who is watching which channel's table from outside the chat (the Activity's
pages), told of every saved change whichever door it came through."""

from __future__ import annotations

from collections.abc import Callable

from game.events import Saved, TableEvent
from tables import Table

# Called with the channel whose table changed (opened, moved, closed).
Watcher = Callable[[int], None]


class TableWatchers:
    """Channel -> the watchers told when its table changes; a watcher must not
    block (it schedules its own work)."""

    def __init__(self) -> None:
        self._by_channel: dict[int, set[Watcher]] = {}

    def watch(self, channel_id: int, watcher: Watcher) -> None:
        self._by_channel.setdefault(channel_id, set()).add(watcher)

    def unwatch(self, channel_id: int, watcher: Watcher) -> None:
        watchers = self._by_channel.get(channel_id)
        if watchers is None:
            return
        watchers.discard(watcher)
        if not watchers:
            del self._by_channel[channel_id]

    def heard(self, table: Table, event: TableEvent) -> None:
        """Every saved change, whatever it was: a page draws the table anew."""
        if isinstance(event, Saved):
            self.changed(table.channel_id)

    def changed(self, channel_id: int) -> None:
        for watcher in list(self._by_channel.get(channel_id, ())):
            watcher(channel_id)

    def count(self) -> int:
        return sum(len(watchers) for watchers in self._by_channel.values())
