"""Which table runs in which channel."""

from __future__ import annotations

from collections.abc import Iterator

from .table import Table


class TableRegistry:
    """Channel id -> the one table running there (one game per channel)."""

    def __init__(self) -> None:
        self._tables: dict[int, Table] = {}

    def get(self, channel_id: int) -> Table | None:
        return self._tables.get(channel_id)

    def add(self, table: Table) -> None:
        if table.channel_id in self._tables:
            raise ValueError(f"channel {table.channel_id} already has a table")
        self._tables[table.channel_id] = table

    def remove(self, channel_id: int) -> None:
        self._tables.pop(channel_id, None)

    def __len__(self) -> int:
        return len(self._tables)

    def __iter__(self) -> Iterator[Table]:
        return iter(list(self._tables.values()))
