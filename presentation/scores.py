"""Leaderboards and player figures as embeds."""

from __future__ import annotations

import discord

from db import LeaderboardPage, PlayerStats

from .words import plural

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
        f"{plural(row.hands_won, 'hand')}, {plural(row.points, 'point')}, "
        f"{plural(row.rummies, 'rummy', 'rummies')}"
        for row in page.rows
    ]
    embed.add_field(name="Players", value="\n".join(lines), inline=False)
    embed.set_footer(text=f"Page {page.page} of {page.pages} · {page.total_players} players")
    return embed


def stats_embed(stats: PlayerStats | None, name: str) -> discord.Embed:
    if stats is None:
        return discord.Embed(
            title=f"Rummy stats — {name}",
            description=f"{name} has not finished a game in this server yet.",
            colour=discord.Colour.blurple(),
        )
    embed = discord.Embed(title=f"Rummy stats — {stats.name}", colour=discord.Colour.blurple())
    # A rank by wins means something only once there is a win to rank.
    rank = f"#{stats.rank}" if stats.matches_won else "no wins yet"
    embed.add_field(name="Rank (by wins)", value=rank)
    embed.add_field(name="Matches", value=f"{stats.matches_won} won of {stats.matches_played}")
    embed.add_field(name="Hands won", value=str(stats.hands_won))
    embed.add_field(name="Points", value=str(stats.points))
    embed.add_field(name="Rummies", value=str(stats.rummies))
    return embed
