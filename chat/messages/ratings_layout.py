"""Skill ratings as embeds: a season's rating leaderboard, a player's rating in
their stats, and the rating changes under a finished match's score chart."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from db import PROVISIONAL_BELOW, HistoryEntry, Opponent, RatingPage, RatingProfile, Season
from presentation.i18n import N_, _, n_, number
from tables.names import shown_name

from .history_layout import ordinal_place, signed
from .scores_layout import page_footer

SPARKS = "▁▂▃▄▅▆▇█"
# How sure a rating is, in words, from its sigma (the model's doubt about the
# skill: 8.3 for a new player, about 7 after five matches, 5 after twenty-five):
# the least sigma each wording needs, highest first.
CERTAINTY: tuple[tuple[float, str], ...] = (
    # Translators: how sure a player's rating is, under it in their stats.
    (7.0, N_("Certainty: low (few matches yet)")),
    (5.0, N_("Certainty: settling")),
    (0.0, N_("Certainty: sure")),
)
# Under a finished match's places, once, when a rating changed.
RATING_FOOTNOTE = N_(
    "Rating: a skill estimate from the places of each match, starting at 0; it moves less "
    "the more matches a player has played."
)


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
                "Rating: a skill estimate from the places of each match, cautious while a "
                "player has played few; players with fewer than {n} match are provisional.",
                "Rating: a skill estimate from the places of each match, cautious while a "
                "player has played few; players with fewer than {n} matches are provisional.",
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
            value=f"**{number(rating.ordinal, 1)}** · {standing}\n{certainty(rating.sigma)}",
            inline=False,
        )
        # The exact figures, in words: an embed's footer is its small print (a
        # field's value cannot hold -# subtext).
        embed.set_footer(
            text=_(
                "Rating: estimated skill {skill} minus a margin for doubt of {margin}, which "
                "shrinks with every match; the more matches played, the less the rating moves.",
                skill=number(rating.mu, 1),
                margin=number(3 * rating.sigma, 1),
            )
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


def certainty(sigma: float) -> str:
    """How sure a rating is, in words (``CERTAINTY``)."""
    return next(_(words) for least, words in CERTAINTY if sigma >= least)


def result_text(entry: HistoryEntry | None, ratings: Mapping[int, float] | None = None) -> str:
    """The text posted with a finished match's chart: a line per player, best
    first, with their place, points and rating change (with the rating it
    came to, from ``ratings``: user id to rating, when known), and a footnote
    saying what the rating is."""
    if entry is None:
        return _("Final scores")
    known = ratings or {}
    lines = [_("Match #{match}: final places", match=entry.match_id)]
    for seat in sorted(entry.seats, key=lambda s: s.place):
        # Translators: a player's line under a finished match's chart: "1st Ann — 61 points".
        line = _(
            "{place} {name} — {points}",
            place=ordinal_place(seat.place),
            name=shown_name(seat.name),
            points=n_("{n} point", "{n} points", seat.total or 0),
        )
        if seat.rating_change is not None:
            after = None if seat.user_id is None else known.get(seat.user_id)
            line += " · " + _rating_change(seat.rating_change, after)
        lines.append(line)
    if any(seat.rating_change is not None for seat in entry.seats):
        lines.append("-# " + _(RATING_FOOTNOTE))
    return "\n".join(lines)


def _rating_change(change: float, rating: float | None) -> str:
    if rating is None:
        # Translators: after a match, e.g. "rating +3.3 this match".
        return _("rating {change} this match", change=signed(change))
    # Translators: after a match, e.g. "rating 24.1 (+3.3 this match)".
    return _(
        "rating {rating} ({change} this match)", rating=number(rating, 1), change=signed(change)
    )
