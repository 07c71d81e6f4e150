"""The `/rummy` slash commands. Each one hands over to the game service."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from db import StorageError
from engine import HouseRules, RummyError

from . import render
from .ids import ComponentId
from .stats import show_leaderboard, show_stats

if TYPE_CHECKING:
    from bot import RummyBot
    from cogs.game import GameService

Interaction = discord.Interaction[Any]
log = logging.getLogger(__name__)

RULE_DESCRIPTIONS = {
    "ace": "Aces low only, or high or low",
    "melds_per_turn": "How many melds a player may put down in one turn",
    "go_out": "Whether the last card must be discarded",
    "rummy_bonus": "Double the points for going out in one turn",
    "empty_stock": "What happens when the stock runs out",
    "target": "Play until someone reaches this score",
    "hands": "Play this many hands instead of to a target",
    "turn_timeout": "Seconds per turn (0 = no timer)",
}


def rule_options(arguments: dict[str, Any]) -> dict[str, Any]:
    """The house-rule options of a command call, taken from its arguments: both
    commands that accept rules declare the same parameters, named after them."""
    return {name: arguments[name] for name in RULE_DESCRIPTIONS}


def merge_rules(base: HouseRules, options: dict[str, Any]) -> HouseRules:
    """Apply the options a member gave on top of ``base``; refuse contradictions."""
    given = {key: value for key, value in options.items() if value is not None}
    if "target" in given and "hands" in given:
        raise RummyError("Choose either a target score or a number of hands, not both.")
    merged = base.to_dict()
    merged.update(given)
    if "hands" in given:
        merged["target"] = None
    elif "target" in given:
        merged["hands"] = None
    return HouseRules.from_dict(merged)


def release_interaction(interaction: Interaction) -> None:
    """Break the cycle between a finished interaction and its response object.

    discord.py caches the InteractionResponse on the interaction, and the
    response points back at it, so every click (its parsed message, buttons,
    member: about fifty objects) outlived its handler until the cyclic garbage
    collector found it. At hundreds of clicks a second those collections
    stopped the bot for 50-100 ms every couple of seconds. Without the cycle,
    reference counting frees a click as soon as its handler returns. Only for
    interactions the caller has completely finished with: a later
    ``interaction.response`` would be a fresh object that has forgotten the answer.
    """
    with contextlib.suppress(AttributeError):
        # discord.py's cache slot for ``response``; absent if it was never read.
        delattr(interaction, "_cs_response")


@app_commands.guild_only()
class RummyCog(commands.GroupCog, group_name="rummy", group_description="Play basic Rummy"):
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def game(self) -> GameService:
        return self.bot.game

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Whatever failed (most likely the database), the member gets an answer."""
        if isinstance(error, app_commands.CheckFailure):
            return  # interaction_check has answered already
        log.error("/rummy command failed", exc_info=error)
        text = "Something went wrong on my side; nothing was changed. Please try again."
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    @commands.Cog.listener("on_interaction")
    async def route_component(self, interaction: Interaction) -> None:
        """Every click and select on the bot's messages, routed by its custom id.

        The bot sends no other components, so an id it cannot read (forged, or
        from an older version) still gets an answer: a refusal.
        """
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        values = [str(value) for value in data.get("values", ())]
        try:
            await self.game.on_component(
                interaction, ComponentId.parse(str(data.get("custom_id", ""))), values
            )
        finally:
            release_interaction(interaction)

    async def interaction_check(self, interaction: Interaction) -> bool:
        # Runs before every command of this cog: no command starts once the
        # bot is shutting down, so nothing writes to a closing database.
        if self.game.closing:
            await interaction.response.send_message(
                "The bot is restarting; try again in a moment.", ephemeral=True
            )
            return False
        return True

    @app_commands.command(name="start", description="Open a Rummy lobby in this channel")
    @app_commands.describe(**RULE_DESCRIPTIONS)
    async def start(
        self,
        interaction: Interaction,
        ace: Literal["low", "high_or_low"] | None = None,
        melds_per_turn: Literal["unlimited", "one"] | None = None,
        go_out: Literal["any", "discard_only"] | None = None,
        rummy_bonus: Literal["double", "none"] | None = None,
        empty_stock: Literal["reshuffle", "turn_over"] | None = None,
        target: app_commands.Range[int, 1, 10000] | None = None,
        hands: app_commands.Range[int, 1, 100] | None = None,
        turn_timeout: app_commands.Range[int, 0, 3600] | None = None,
    ) -> None:
        options = rule_options(locals())
        try:
            base = self.game.guild_rules(interaction.guild_id)
            rules = merge_rules(base, options)
        except RummyError as error:
            await interaction.response.send_message(str(error), ephemeral=True)
            return
        await self.game.start_lobby(interaction, rules)

    @app_commands.command(name="hand", description="Show your hand (only you see it)")
    async def hand(self, interaction: Interaction) -> None:
        await self.game.show_hand(interaction)

    @app_commands.command(name="rules", description="How Rummy is played here")
    async def rules(self, interaction: Interaction) -> None:
        await self.game.show_rules(interaction)

    @app_commands.command(name="end", description="End the game in this channel")
    async def end(self, interaction: Interaction) -> None:
        await self.game.end_game(interaction)

    @app_commands.command(name="leaderboard", description="This server's best Rummy players")
    @app_commands.describe(order="What to rank by")
    async def leaderboard(
        self,
        interaction: Interaction,
        order: Literal["wins", "points", "rummies"] = "wins",
    ) -> None:
        async with self.game.handling():
            await show_leaderboard(self.game, interaction, order)

    @app_commands.command(name="stats", description="A player's Rummy figures in this server")
    @app_commands.describe(member="Whose figures (default: yours)")
    async def stats(self, interaction: Interaction, member: discord.Member | None = None) -> None:
        async with self.game.handling():
            await show_stats(self.game, interaction, member)

    @app_commands.command(name="settings", description="Set this server's default house rules")
    @app_commands.describe(**RULE_DESCRIPTIONS)
    async def settings(
        self,
        interaction: Interaction,
        ace: Literal["low", "high_or_low"] | None = None,
        melds_per_turn: Literal["unlimited", "one"] | None = None,
        go_out: Literal["any", "discard_only"] | None = None,
        rummy_bonus: Literal["double", "none"] | None = None,
        empty_stock: Literal["reshuffle", "turn_over"] | None = None,
        target: app_commands.Range[int, 1, 10000] | None = None,
        hands: app_commands.Range[int, 1, 100] | None = None,
        turn_timeout: app_commands.Range[int, 0, 3600] | None = None,
    ) -> None:
        if not interaction.permissions.manage_guild:
            await interaction.response.send_message(
                "Only members with Manage Server can change the server's house rules.",
                ephemeral=True,
            )
            return
        assert interaction.guild_id is not None
        options = rule_options(locals())
        try:
            rules = merge_rules(self.game.guild_rules(interaction.guild_id), options)
            async with self.game.handling():
                await self.game.set_guild_rules(interaction.guild_id, rules)
        except RummyError as error:
            await interaction.response.send_message(str(error), ephemeral=True)
            return
        except StorageError:
            await interaction.response.send_message(
                "The settings could not be saved; nothing changed.", ephemeral=True
            )
            return
        await interaction.response.send_message(
            render.rules_text(rules, server_default=True), ephemeral=True
        )
