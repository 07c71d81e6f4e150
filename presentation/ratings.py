"""Skill ratings as embeds: a season's rating leaderboard, a player's rating in
their stats, and the rating changes under a finished match's score chart."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from db import PROVISIONAL_BELOW, HistoryEntry, Opponent, RatingPage, RatingProfile, Season

from .history import ordinal_place, signed
from .words import plural

SPARKS = "▁▂▃▄▅▆▇█"


def season_title(season: Season) -> str:
    if season.ended_at is None:
        return f"{season.name} (current)"
    return f"{season.name}, ended <t:{int(season.ended_at)}:d>"


def rating_embed(page: RatingPage, guild_name: str) -> discord.Embed:
    embed = discord.Embed(
        title=f"Rummy leaderboard — {guild_name}",
        description=(
            f"Ranked by rating · {season_title(page.season)}\n"
            "Rating: skill minus three times its uncertainty (openskill); "
            f"players with fewer than {PROVISIONAL_BELOW} matches are provisional."
        ),
        colour=discord.Colour.gold(),
    )
    if not page.rows:
        embed.description = f"No rated match in {page.season.name} yet. `/rummy start` to play one!"
        return embed
    lines = []
    for row in page.rows:
        line = (
            f"**{row.rank}.** {row.name} — {row.ordinal:.1f} · "
            f"{row.wins}/{plural(row.matches, 'match', 'matches')} won"
        )
        if row.provisional:
            line += f" · *provisional ({row.matches}/{PROVISIONAL_BELOW})*"
        lines.append(line)
    embed.add_field(name="Players", value="\n".join(lines)[:1024], inline=False)
    embed.set_footer(text=f"Page {page.page} of {page.pages} · {page.total_players} players")
    return embed


def sparkline(points: Sequence[float]) -> str:
    """The points as a row of bars, lowest to highest."""
    if not points:
        return ""
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    return "".join(SPARKS[round((p - low) / span * (len(SPARKS) - 1))] for p in points)


def _opponent(found: Opponent | None) -> str:
    if found is None:
        return "nobody yet"
    who = found.name if found.user_id is None else f"<@{found.user_id}>"
    return f"{who}: ahead {found.ahead}, behind {found.behind} of {found.matches}"


def add_rating_fields(embed: discord.Embed, profile: RatingProfile) -> None:
    """The rating, its trend and the best and worst opponents, under a player's stats."""
    rating = profile.rating
    if rating is None:
        embed.add_field(
            name=f"Rating · {profile.season.name}",
            value="No rated match this season yet.",
            inline=False,
        )
    else:
        standing = (
            f"provisional ({rating.matches}/{PROVISIONAL_BELOW} matches)"
            if rating.provisional
            else f"#{rating.rank}"
        )
        embed.add_field(
            name=f"Rating · {profile.season.name}",
            value=(
                f"**{rating.ordinal:.1f}** (μ {rating.mu:.1f}, σ {rating.sigma:.2f}) · {standing}"
            ),
            inline=False,
        )
    if len(profile.trend) > 1:
        change = profile.trend[-1] - profile.trend[0]
        embed.add_field(
            name="Trend",
            value=(
                f"{sparkline(profile.trend)} {signed(change)} over the last "
                f"{plural(len(profile.trend) - 1, 'match', 'matches')}"
            ),
            inline=False,
        )
    embed.add_field(name="Best against", value=_opponent(profile.best))
    embed.add_field(name="Worst against", value=_opponent(profile.worst))


def result_text(entry: HistoryEntry | None) -> str:
    """The line posted with a finished match's chart: places, points, rating changes."""
    if entry is None:
        return "Final scores"
    seats = sorted(entry.seats, key=lambda s: s.place)
    parts = []
    for seat in seats:
        change = "" if seat.rating_change is None else f" ({signed(seat.rating_change)})"
        parts.append(f"{ordinal_place(seat.place)} {seat.name} {seat.total or 0}{change}")
    return f"Match #{entry.match_id}: " + " · ".join(parts)
