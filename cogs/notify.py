"""Direct messages: they only inform (your cards, your turn), never gate play.

A DM can fail (closed DMs answer 403 with code 50007); the failure is noted on
the table so the player is told once, privately, to use Show hand instead. No
DM is ever awaited by an interaction.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord

from . import render
from .table import Seat, Table

if TYPE_CHECKING:
    from bot import RummyBot

log = logging.getLogger(__name__)

Spawn = Callable[[Coroutine[Any, Any, Any], str], Any]


class Notifier:
    def __init__(self, bot: RummyBot, spawn: Spawn) -> None:
        self.bot = bot
        self.spawn = spawn

    def dealt(self, table: Table) -> None:
        """Send every person at the table their newly dealt hand."""
        for seat in table.humans:
            assert seat.user_id is not None
            text = render.dealt_dm(table, seat.key, f"<#{table.channel_id}>")
            self.spawn(self._send(table, seat.user_id, text), "dm-dealt")

    def your_turn(self, table: Table, seat: Seat) -> None:
        if seat.user_id is None:
            return
        jump = (
            f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"
        )
        self.spawn(
            self._send(table, seat.user_id, render.turn_dm(table, seat.key, jump)), "dm-turn"
        )

    async def _send(self, table: Table, user_id: int, text: str) -> None:
        if user_id in table.dm_closed:
            return
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            await channel.send(text)
        except discord.Forbidden:
            table.dm_closed.add(user_id)
        except discord.HTTPException:
            log.warning("DM to %s failed", user_id, exc_info=True)

    async def restore_failed(self, channel_id: int) -> None:
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await channel.send(
                "⚠️ The Rummy game in this channel could not be restored after a restart. "
                "Its saved state is kept for the bot's admin. `/rummy start` opens a new game."
            )
        except discord.HTTPException:
            log.warning("could not tell channel %s about its lost table", channel_id)
