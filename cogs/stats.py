"""Leaderboards and player statistics, per server."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from db import LeaderboardOrder, LeaderboardPage, PlayerStats

from .ids import ComponentId
from .views import leaderboard_view

if TYPE_CHECKING:
    from .game import GameService, Interaction

ORDERS: dict[str, str] = {"wins": "matches won", "points": "points", "rummies": "rummies"}


def leaderboard_embed(page: LeaderboardPage, order: str, guild_name: str) -> discord.Embed:
    embed = discord.Embed(
        title=f"Rummy leaderboard — {guild_name}",
        description=f"Ranked by {ORDERS.get(order, order)}.",
        colour=discord.Colour.gold(),
    )
    if not page.rows:
        embed.description = "No finished games in this server yet. `/rummy start` to play one!"
        return embed
    lines = [
        f"**{row.rank}.** {row.name} — {row.matches_won}/{row.matches_played} matches won, "
        f"{row.hands_won} hands, {row.points} pts, {row.rummies} rummies"
        for row in page.rows
    ]
    embed.add_field(name="Players", value="\n".join(lines), inline=False)
    embed.set_footer(text=f"Page {page.page} of {page.pages} · {page.total_players} players")
    return embed


def stats_embed(stats: PlayerStats | None, name: str) -> discord.Embed:
    if stats is None:
        return discord.Embed(
            title=f"Rummy stats — {name}",
            description="No finished games in this server yet.",
            colour=discord.Colour.blurple(),
        )
    embed = discord.Embed(title=f"Rummy stats — {stats.name}", colour=discord.Colour.blurple())
    embed.add_field(name="Rank (by wins)", value=f"#{stats.rank}")
    embed.add_field(name="Matches", value=f"{stats.matches_won} won of {stats.matches_played}")
    embed.add_field(name="Hands won", value=str(stats.hands_won))
    embed.add_field(name="Points", value=str(stats.points))
    embed.add_field(name="Rummies", value=str(stats.rummies))
    return embed


def _order(value: str | None) -> LeaderboardOrder:
    if value == "points":
        return "points"
    if value == "rummies":
        return "rummies"
    return "wins"


async def show_leaderboard(game: GameService, interaction: Interaction, order: str) -> None:
    assert interaction.guild_id is not None
    page = await game.db.leaderboard(interaction.guild_id, _order(order), 1)
    guild_name = interaction.guild.name if interaction.guild is not None else "this server"
    await interaction.response.send_message(
        embed=leaderboard_embed(page, order, guild_name),
        view=leaderboard_view(interaction.guild_id, order, page.page, page.pages),
    )


async def leaderboard_page_click(
    game: GameService, interaction: Interaction, parsed: ComponentId
) -> None:
    order, _, number = (parsed.arg or "wins.1").partition(".")
    guild_id = parsed.channel_id
    if guild_id != interaction.guild_id:
        await game.refuse(interaction, "That leaderboard belongs to another server.")
        return
    try:
        wanted = int(number)
    except ValueError:
        wanted = 1
    page = await game.db.leaderboard(guild_id, _order(order), max(1, wanted))
    guild_name = interaction.guild.name if interaction.guild is not None else "this server"
    await interaction.response.edit_message(
        embed=leaderboard_embed(page, order, guild_name),
        view=leaderboard_view(guild_id, order, page.page, page.pages),
    )


async def show_stats(
    game: GameService, interaction: Interaction, member: discord.abc.User | None
) -> None:
    assert interaction.guild_id is not None
    target = member or interaction.user
    stats = await game.db.player_stats(interaction.guild_id, target.id)
    name = getattr(target, "display_name", target.name)
    await interaction.response.send_message(embed=stats_embed(stats, name))
