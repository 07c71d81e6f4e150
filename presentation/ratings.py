"""Skill ratings as embeds: a season's rating leaderboard, a player's rating in
their stats, and the rating changes under a finished match's score chart."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from db import PROVISIONAL_BELOW, HistoryEntry, Opponent, RatingPage, RatingProfile, Season
from tables.names import shown_name

from .history import ordinal_place, signed
from .i18n import _, n_, number
from .scores import page_footer

SPARKS = "▁▂▃▄▅▆▇█"


def season_title(season: Season) -> str:
    if season.ended_at is None:
        return _("{season} (current)", season=shown_name(season.name))
    when = f"<t:{int(season.ended_at)}:d>"
    return _("{season}, ended {when}", season=shown_name(season.name), when=when)


def rating_embed(page: RatingPage, guild_name: str) -> discord.Embed:
    embed = discord.Embed(
        title=_("Rummy leaderboard — {server}", server=guild_name),
        description=(
            _("Ranked by rating · {season}", season=season_title(page.season))
            + "\n"
            + n_(
                "Rating: skill minus three times its uncertainty (openskill); players with "
                "fewer than {n} match are provisional.",
                "Rating: skill minus three times its uncertainty (openskill); players with "
                "fewer than {n} matches are provisional.",
                PROVISIONAL_BELOW,
            )
        ),
        colour=discord.Colour.gold(),
    )
    if not page.rows:
        embed.description = _(
            "No rated match in {season} yet. `/rummy start` to play one!",
            season=shown_name(page.season.name),
        )
        return embed
    lines = []
    for row in page.rows:
        # Translators: "3/5 matches won": {wins} of {n} matches played.
        record = n_(
            "{wins}/{n} match won", "{wins}/{n} matches won", row.matches, wins=number(row.wins)
        )
        line = _(
            "**{rank}.** {name} — {rating} · {record}",
            rank=number(row.rank),
            name=shown_name(row.name),
            rating=number(row.ordinal, 1),
            record=record,
        )
        if row.provisional:
            line += " · " + _(
                "*provisional ({matches}/{needed})*",
                matches=number(row.matches),
                needed=number(PROVISIONAL_BELOW),
            )
        lines.append(line)
    embed.add_field(name=_("Players"), value="\n".join(lines)[:1024], inline=False)
    embed.set_footer(text=page_footer(page.page, page.pages, page.total_players))
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
        return _("nobody yet")
    who = shown_name(found.name) if found.user_id is None else f"<@{found.user_id}>"
    return _(
        "{who}: ahead {ahead}, behind {behind} of {matches}",
        who=who,
        ahead=number(found.ahead),
        behind=number(found.behind),
        matches=number(found.matches),
    )


def add_rating_fields(embed: discord.Embed, profile: RatingProfile) -> None:
    """The rating, its trend and the best and worst opponents, under a player's stats."""
    rating = profile.rating
    title = _("Rating · {season}", season=shown_name(profile.season.name))
    if rating is None:
        embed.add_field(name=title, value=_("No rated match this season yet."), inline=False)
    else:
        standing = (
            n_(
                "provisional ({matches}/{n} match)",
                "provisional ({matches}/{n} matches)",
                PROVISIONAL_BELOW,
                matches=number(rating.matches),
            )
            if rating.provisional
            else f"#{number(rating.rank)}"
        )
        embed.add_field(
            name=title,
            value=f"**{number(rating.ordinal, 1)}** (μ {number(rating.mu, 1)}, "
            f"σ {number(rating.sigma, 2)}) · {standing}",
            inline=False,
        )
    if len(profile.trend) > 1:
        change = profile.trend[-1] - profile.trend[0]
        embed.add_field(
            name=_("Trend"),
            value=n_(
                "{sparkline} {change} over the last {n} match",
                "{sparkline} {change} over the last {n} matches",
                len(profile.trend) - 1,
                sparkline=sparkline(profile.trend),
                change=signed(change),
            ),
            inline=False,
        )
    embed.add_field(name=_("Best against"), value=_opponent(profile.best))
    embed.add_field(name=_("Worst against"), value=_opponent(profile.worst))


def result_text(entry: HistoryEntry | None) -> str:
    """The line posted with a finished match's chart: places, points, rating changes."""
    if entry is None:
        return _("Final scores")
    seats = sorted(entry.seats, key=lambda s: s.place)
    parts = []
    for seat in seats:
        change = "" if seat.rating_change is None else f" ({signed(seat.rating_change)})"
        total = number(seat.total or 0)
        parts.append(f"{ordinal_place(seat.place)} {shown_name(seat.name)} {total}{change}")
    return _("Match #{match}: {places}", match=entry.match_id, places=" · ".join(parts))
