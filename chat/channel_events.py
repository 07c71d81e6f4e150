"""What happens to a table when its message or its channel goes away."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from tables import NotSaved, Table, TableWork

from .table_refresher import TableRefresher
from .table_side import chat_side

log = logging.getLogger(__name__)


class ChannelEvents:
    """Keeps every table visible: a deleted table message is posted again at
    once, and a game whose channel is gone (deleted, hidden from the bot, or
    the bot removed from the server) is ended as abandoned, recorded once."""

    def __init__(self, work: TableWork, refresher: TableRefresher) -> None:
        self.work = work
        self.tables = work.tables
        self.refresher = refresher

    def messages_deleted(self, channel_id: int, message_ids: Iterable[int]) -> None:
        table = self.tables.get(channel_id)
        if table is not None and chat_side(table).message_id in set(message_ids):
            log.info("the table message in channel %s was deleted; posting it again", channel_id)
            self.refresher.move(table)

    async def channel_lost(self, channel_id: int) -> None:
        table = self.tables.get(channel_id)
        if table is not None:
            await self.table_lost(table)

    async def guild_lost(self, guild_id: int) -> None:
        for table in self.tables:
            if table.guild_id == guild_id:
                await self.table_lost(table)

    async def table_lost(self, table: Table) -> None:
        """End the game of a table that can no longer be shown."""
        async with table.lock:
            if self.tables.get(table.channel_id) is not table:
                return  # ended already: recorded once
            try:
                await self.work.close(table)
            except NotSaved:
                log.error("could not record the game of lost channel %s", table.channel_id)
                return
        log.warning("ended the game in channel %s: the channel is lost", table.channel_id)
