"""Leaderboards and player statistics, per server: by wins, points, rummies,
or a season's skill rating."""

from __future__ import annotations

from collections.abc import Callable

import discord

from chat.messages.components import leaderboard_controls, share_controls
from chat.messages.ratings_layout import add_rating_fields, rating_embed
from chat.messages.scores_layout import leaderboard_embed, stats_embed, totals_embed
from chat.places import board_here, board_name, board_of
from chat.router import Handlers, refuse
from db import Database, LeaderboardOrder
from presentation import actions
from presentation.actions import ComponentId
from presentation.i18n import N_, _, speaking, use
from tables.names import plain_name
from transport import callbacks
from transport.private import Interaction

RATING = "rating"
# An ended season's board goes by "s<number>" in its page buttons.
SEASON_PREFIX = "s"


def _order(value: str | None) -> LeaderboardOrder:
    if value == "points":
        return "points"
    if value == "rummies":
        return "rummies"
    return "wins"


def _guild_name(interaction: Interaction) -> str:
    return board_name(interaction)


def _season_number(order: str) -> int | None:
    """The ended season an order names ("s3"), or None (the current one)."""
    digits = order[len(SEASON_PREFIX) :]
    return int(digits) if order.startswith(SEASON_PREFIX) and digits.isdigit() else None


OWN_TOTALS_ONLY = N_(
    "Here you see your own figures, over everywhere you played. Another player's are "
    "on the boards you share: ask `/rummy stats` in that server, DM or group DM.")


class Stats:
    """`/rummy leaderboard`, its page buttons, and `/rummy stats`."""

    def __init__(self, db: Database, public_language: Callable[[Interaction], str]) -> None:
        self.db = db
        # Leaderboards and stats are posted for the channel: in the server's language.
        self.public_language = public_language

    def bind(self, handlers: Handlers) -> None:
        handlers.server_wide[actions.LEADERBOARD_PAGE] = self.leaderboard_page
        handlers.server_wide[actions.SHARE_STATS] = self.share

    async def leaderboard(
        self, interaction: Interaction, order: str | None, season: str | None = None
    ) -> None:
        """The first page in ``order``; with no order, by rating once someone in
        this season is past the provisional matches, by wins until then. A
        ``season`` name shows that ended season's ratings."""
        guild_id = board_here(interaction)
        if season is not None:
            found = await self.db.find_season(guild_id, season)
            if found is None:
                ended = [s.name for s in await self.db.seasons(guild_id)]
                if ended:
                    text = _(
                        "This server has no season named {season}. Ended seasons: {ended}.",
                        season=repr(season),
                        ended=", ".join(ended[:20]),
                    )
                else:
                    text = _(
                        "This server has no season named {season}. None has ended yet.",
                        season=repr(season),
                    )
                await refuse(interaction, text)
                return
            await self._send_rating(interaction, f"{SEASON_PREFIX}{found.number}", found.number)
            return
        if order is None:
            order = RATING if await self.db.rating_is_default(guild_id) else "wins"
        if order == RATING:
            await self._send_rating(interaction, RATING, None)
            return
        page = await self.db.leaderboard(guild_id, _order(order), 1)
        with speaking(self.public_language(interaction)):
            embed = leaderboard_embed(page, order, _guild_name(interaction))
            controls = leaderboard_controls(guild_id, order, page.page, page.pages)
        await interaction.response.send_message(embed=embed, view=controls)

    async def _send_rating(self, interaction: Interaction, order: str, season: int | None) -> None:
        page = await self.db.rating_board(board_here(interaction), season, 1)
        with speaking(self.public_language(interaction)):
            embed = rating_embed(page, _guild_name(interaction))
            controls = leaderboard_controls(board_here(interaction), order, page.page, page.pages)
        await interaction.response.send_message(embed=embed, view=controls)

    async def leaderboard_page(self, interaction: Interaction, parsed: ComponentId) -> None:
        order, _dot, number = (parsed.arg or "wins.1").partition(".")
        guild_id = parsed.scope
        if guild_id != board_of(interaction):
            await refuse(interaction,
                         _("That leaderboard belongs to another server or conversation."))
            return
        try:
            wanted = int(number)
        except ValueError:
            wanted = 1
        season = _season_number(order)
        use(self.public_language(interaction))  # the page of a public message
        if order == RATING or season is not None:
            rated = await self.db.rating_board(guild_id, season, max(1, wanted))
            await callbacks.update_message(
                interaction,
                embed=rating_embed(rated, _guild_name(interaction)),
                controls=leaderboard_controls(guild_id, order, rated.page, rated.pages),
            )
            return
        page = await self.db.leaderboard(guild_id, _order(order), max(1, wanted))
        await callbacks.update_message(
            interaction,
            embed=leaderboard_embed(page, order, _guild_name(interaction)),
            controls=leaderboard_controls(guild_id, order, page.page, page.pages),
        )

    async def player(self, interaction: Interaction, member: discord.abc.User | None) -> None:
        if board_of(interaction) is None:
            await self._totals(interaction, member)
            return
        target = member or interaction.user
        stats = await self.db.player_stats(board_here(interaction), target.id)
        name = plain_name(getattr(target, "display_name", target.name))
        if stats is None:
            # Nothing to show, and nothing worth a public message.
            await interaction.response.send_message(embed=stats_embed(None, name), ephemeral=True)
            return
        profile = await self.db.rating_profile(board_here(interaction), target.id)
        # The asker's own view, in their language; Share posts it for the channel.
        embed = stats_embed(stats, name)
        add_rating_fields(embed, profile)
        await interaction.response.send_message(
            embed=embed, view=share_controls(board_here(interaction), target.id), ephemeral=True
        )

    async def _totals(self, interaction: Interaction, member: discord.abc.User | None) -> None:
        """In the bot's DM, which keeps no board: the asker's own figures over
        every board they played on (another's stay on their boards)."""
        if member is not None and member.id != interaction.user.id:
            await refuse(interaction, _(OWN_TOTALS_ONLY))
            return
        me = interaction.user
        totals = await self.db.player_totals(me.id)
        name = plain_name(getattr(me, "display_name", me.name))
        await interaction.response.send_message(embed=totals_embed(totals, name),
                                                ephemeral=True)

    async def share(self, interaction: Interaction, parsed: ComponentId) -> None:
        """Post a member's stats, as they stand now, for the channel to see."""
        arg = parsed.arg or ""
        user_id = int(arg) if arg.isdigit() else None
        if parsed.scope != board_of(interaction) or user_id is None:
            await refuse(interaction, _("Those stats belong to another server or conversation."))
            return
        stats = await self.db.player_stats(parsed.scope, user_id)
        if stats is None:
            await refuse(interaction, _("There is nothing to share yet."))
            return
        profile = await self.db.rating_profile(parsed.scope, user_id)
        with speaking(self.public_language(interaction)):
            embed = stats_embed(stats, stats.name)
            add_rating_fields(embed, profile)
        await callbacks.send_message(interaction, embed=embed)
