"""Which table runs in which channel."""

from __future__ import annotations

from collections.abc import Iterator

from .table import Table


class TableRegistry:
    """Channel id -> the one table running there (one game per channel)."""

    def __init__(self) -> None:
        self._tables: dict[int, Table] = {}
        # The table each channel last had, once it left play: a rematch starts
        # from its seats and rules.
        self._ended: dict[int, Table] = {}

    def get(self, channel_id: int) -> Table | None:
        return self._tables.get(channel_id)

    def add(self, table: Table) -> None:
        if table.channel_id in self._tables:
            raise ValueError(f"channel {table.channel_id} already has a table")
        self._tables[table.channel_id] = table

    def remove(self, channel_id: int) -> None:
        table = self._tables.pop(channel_id, None)
        if table is not None:
            self._ended[channel_id] = table

    def ended(self, channel_id: int) -> Table | None:
        """The table that last left play in the channel (since this process started)."""
        return self._ended.get(channel_id)

    def __len__(self) -> int:
        return len(self._tables)

    def __iter__(self) -> Iterator[Table]:
        return iter(list(self._tables.values()))
