"""Leaderboards and player statistics, per server."""

from __future__ import annotations

import discord

from db import Database, LeaderboardOrder
from presentation import actions
from presentation.actions import ComponentId
from presentation.components import leaderboard_controls
from presentation.scores import leaderboard_embed, stats_embed
from transport import callbacks
from transport.private import Interaction

from .router import Handlers, refuse


def _order(value: str | None) -> LeaderboardOrder:
    if value == "points":
        return "points"
    if value == "rummies":
        return "rummies"
    return "wins"


def _guild_name(interaction: Interaction) -> str:
    return interaction.guild.name if interaction.guild is not None else "this server"


class Stats:
    """`/rummy leaderboard`, its page buttons, and `/rummy stats`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def bind(self, handlers: Handlers) -> None:
        handlers.server_wide[actions.LEADERBOARD_PAGE] = self.leaderboard_page

    async def leaderboard(self, interaction: Interaction, order: str) -> None:
        assert interaction.guild_id is not None
        page = await self.db.leaderboard(interaction.guild_id, _order(order), 1)
        await interaction.response.send_message(
            embed=leaderboard_embed(page, order, _guild_name(interaction)),
            view=leaderboard_controls(interaction.guild_id, order, page.page, page.pages),
        )

    async def leaderboard_page(self, interaction: Interaction, parsed: ComponentId) -> None:
        order, _, number = (parsed.arg or "wins.1").partition(".")
        guild_id = parsed.scope
        if guild_id != interaction.guild_id:
            await refuse(interaction, "That leaderboard belongs to another server.")
            return
        try:
            wanted = int(number)
        except ValueError:
            wanted = 1
        page = await self.db.leaderboard(guild_id, _order(order), max(1, wanted))
        await callbacks.update_message(
            interaction,
            embed=leaderboard_embed(page, order, _guild_name(interaction)),
            controls=leaderboard_controls(guild_id, order, page.page, page.pages),
        )

    async def player(self, interaction: Interaction, member: discord.abc.User | None) -> None:
        assert interaction.guild_id is not None
        target = member or interaction.user
        stats = await self.db.player_stats(interaction.guild_id, target.id)
        name = getattr(target, "display_name", target.name)
        await interaction.response.send_message(embed=stats_embed(stats, name))
