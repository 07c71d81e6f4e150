"""Leaderboards and player figures as embeds."""

from __future__ import annotations

import discord

from db import LeaderboardPage, PlayerStats, PlayerTotals
from presentation.i18n import N_, _, n_, number
from tables.names import shown_name

# What each leaderboard order ranks by, said under its title.
ORDERS: dict[str, str] = {
    "wins": N_("Ranked by matches won."),
    "points": N_("Ranked by points."),
    "rummies": N_("Ranked by rummies."),
}


def leaderboard_embed(page: LeaderboardPage, order: str, guild_name: str) -> discord.Embed:
    embed = discord.Embed(
        title=_("Rummy leaderboard — {server}", server=guild_name),
        description=_(ORDERS[order]) if order in ORDERS else order,
        colour=discord.Colour.gold(),
    )
    if not page.rows:
        embed.description = _(
            "No finished games in this server yet. `/rummy start` to play one!"
        )
        return embed
    lines = [leaderboard_line(row) for row in page.rows]
    embed.add_field(name=_("Players"), value="\n".join(lines), inline=False)
    embed.set_footer(text=page_footer(page.page, page.pages, page.total_players))
    return embed


def leaderboard_line(row: PlayerStats) -> str:
    # Translators: "3/5 matches won": {won} of {n} matches played.
    matches = n_(
        "{won}/{n} matches won", "{won}/{n} matches won", row.matches_played,
        won=number(row.matches_won),
    )
    return _(
        "**{rank}.** {name} — {matches}, {hands}, {points}, {rummies}",
        rank=number(row.rank),
        name=shown_name(row.name),
        matches=matches,
        hands=n_("{n} hand", "{n} hands", row.hands_won),
        points=n_("{n} point", "{n} points", row.points),
        rummies=n_("{n} rummy", "{n} rummies", row.rummies),
    )


def page_footer(page: int, pages: int, players: int) -> str:
    """Which page of a leaderboard this is, of how many players."""
    return n_(
        "Page {page} of {pages} · {n} player",
        "Page {page} of {pages} · {n} players",
        players,
        page=number(page),
        pages=number(pages),
    )


def stats_embed(stats: PlayerStats | None, name: str) -> discord.Embed:
    if stats is None:
        return discord.Embed(
            title=_("Rummy stats — {name}", name=shown_name(name)),
            description=_("{name} has not finished a game here yet.", name=shown_name(name)),
            colour=discord.Colour.blurple(),
        )
    embed = discord.Embed(
        title=_("Rummy stats — {name}", name=shown_name(stats.name)),
        colour=discord.Colour.blurple(),
    )
    # A rank by wins means something only once there is a win to rank.
    rank = f"#{number(stats.rank)}" if stats.matches_won else _("no wins yet")
    embed.add_field(name=_("Rank (by wins)"), value=rank)
    add_figures(embed, stats)
    return embed


def totals_embed(totals: PlayerTotals | None, name: str) -> discord.Embed:
    """A person's figures over every board they played on, for themselves."""
    embed = discord.Embed(
        title=_("Rummy stats — {name}, everywhere", name=shown_name(name)),
        colour=discord.Colour.blurple(),
    )
    if totals is None:
        embed.description = _("You have not finished a game anywhere yet.")
        return embed
    embed.description = n_(
        "Over the {n} server, DM or group DM you played in. Each keeps its own "
        "board: `/rummy stats` there shows your rank.",
        "Over the {n} servers, DMs and group DMs you played in. Each keeps its own "
        "board: `/rummy stats` there shows your rank.",
        totals.boards,
    )
    add_figures(embed, totals)
    return embed


def add_figures(embed: discord.Embed, figures: PlayerStats | PlayerTotals) -> None:
    """A player's matches, hands, points and rummies, on one board or all."""
    embed.add_field(
        name=_("Matches"),
        value=_("{won} won of {played}", won=number(figures.matches_won),
                played=number(figures.matches_played)),
    )
    embed.add_field(name=_("Hands won"), value=number(figures.hands_won))
    embed.add_field(name=_("Points"), value=number(figures.points))
    embed.add_field(name=_("Rummies"), value=number(figures.rummies))
