"""The `/rummy` slash commands and every click on the bot's messages, handed
to the flows. No game logic lives here."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from chat.commands.options import out_of_range
from chat.door import ChatDoor
from chat.places import NO_BOARD_HERE, SERVERS_ONLY, board_of
from chat.router import RESTARTING, Observer, refuse
from engine import RULE_OPTIONS, RuleOption, RummyError
from presentation.explain import explain
from presentation.i18n import LANGUAGES, N_, _, use
from presentation.render import CHOICE_LABELS
from transport.events import release_interaction
from transport.private import Interaction

log = logging.getLogger(__name__)

# What a server holds: its default house rules and its rating seasons.
SERVERS_ONLY_COMMANDS = frozenset({"rummy settings", "rummy season end"})
# What shows a board of results: a server's, or a DM's or group DM's own.
# (``/rummy stats`` shows, in the bot's DM, a person's figures over them all.)
BOARD_COMMANDS = frozenset({"rummy leaderboard", "rummy history", "rummy replay"})

Callback = TypeVar("Callback", bound=Callable[..., Coroutine[Any, Any, None]])


def _rule_annotation(option: RuleOption) -> Any:
    if option.choices is not None:
        return str  # one of the choices named below
    return app_commands.Range[int, option.minimum, option.maximum]


def _rule_choices() -> dict[str, list[app_commands.Choice[str]]]:
    """Each choice of a house rule with the name a member reads, not its value."""
    return {
        option.name: [
            app_commands.Choice(name=CHOICE_LABELS[option.name].get(value, value), value=value)
            for value in option.choices
        ]
        for option in RULE_OPTIONS
        if option.choices is not None
    }


def with_rule_options(callback: Callback) -> Callback:
    """Give a ``(self, interaction, **rules)`` command one optional parameter per
    house rule, generated from the engine's declaration of the rules (names,
    choices, ranges, descriptions), so the commands never restate them."""
    fixed = [
        parameter
        for parameter in inspect.signature(callback).parameters.values()
        if parameter.kind is not inspect.Parameter.VAR_KEYWORD
    ]
    rules = [
        inspect.Parameter(
            option.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=_rule_annotation(option),
        )
        for option in RULE_OPTIONS
    ]
    callback.__signature__ = inspect.Signature([*fixed, *rules])  # type: ignore[attr-defined]
    described = app_commands.describe(
        **{option.name: option.description for option in RULE_OPTIONS}
    )(callback)
    return app_commands.choices(**_rule_choices())(described)


# Offered to both installs, in servers, DMs and group DMs (Discord keeps these
# per top-level command: each subcommand below says what it does where).
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class RummyCog(commands.GroupCog, group_name="rummy", group_description=N_("Play basic Rummy")):
    """Maps each command and click to the flow that answers it."""

    def __init__(self, chat: ChatDoor) -> None:
        self.chat = chat
        # Told of every command once handled (the bot's metrics), as clicks are.
        self.observe: Observer | None = None
        super().__init__()

    def _speak_to(self, interaction: Interaction) -> None:
        """Everything this interaction's task writes is in the member's language
        (what the public sees is drawn in the server's, where it is drawn)."""
        use(self.chat.prefs.language(interaction.user.id, interaction.locale))

    def _observed(self, interaction: Interaction, outcome: str) -> None:
        if self.observe is None:
            return
        command = interaction.command
        name = command.qualified_name if command is not None else "unknown"
        taken = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        self.observe(name, outcome, taken)

    @commands.Cog.listener()
    async def on_app_command_completion(
        self, interaction: Interaction, _command: app_commands.Command[Any, ..., Any]
    ) -> None:
        self._observed(interaction, "ok")

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Whatever failed (most likely the database), the member gets an answer."""
        if isinstance(error, app_commands.CheckFailure):
            self._observed(interaction, "refused")
            return  # interaction_check has answered already
        self._observed(interaction, "failed")
        log.error("/rummy command failed", exc_info=error)
        text = _("Something went wrong on my side; nothing was changed. Please try again.")
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
        self._speak_to(interaction)
        if self.chat.tasks.refusing:
            # Nothing new is taken on the way down: the click changes nothing.
            try:
                await refuse(interaction, _(RESTARTING))
            finally:
                release_interaction(interaction)
            return
        try:
            async with self.chat.tasks.handling():
                await self.chat.router.route(interaction, str(data.get("custom_id", "")), values)
        finally:
            release_interaction(interaction)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.chat.channels.messages_deleted(payload.channel_id, [payload.message_id])

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        self.chat.channels.messages_deleted(payload.channel_id, payload.message_ids)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        async with self.chat.tasks.handling():
            await self.chat.channels.channel_lost(channel.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        async with self.chat.tasks.handling():
            await self.chat.channels.guild_lost(guild.id)

    async def interaction_check(self, interaction: Interaction) -> bool:
        self._speak_to(interaction)
        # Runs before every command of this cog: no command starts once the
        # bot is shutting down, so nothing writes to a closing database.
        if self.chat.tasks.refusing:
            await interaction.response.send_message(_(RESTARTING), ephemeral=True)
            return False
        refusal = out_of_range(interaction) or self._not_here(interaction)
        if refusal is not None:
            await interaction.response.send_message(refusal, ephemeral=True)
            return False
        return True

    @staticmethod
    def _not_here(interaction: Interaction) -> str | None:
        """Why this command has nothing to do where it was used, if it has not."""
        command = interaction.command
        name = command.qualified_name if command is not None else ""
        if name in SERVERS_ONLY_COMMANDS and interaction.guild_id is None:
            return _(SERVERS_ONLY)
        if name in BOARD_COMMANDS and board_of(interaction) is None:
            return _(NO_BOARD_HERE)
        return None

    @app_commands.command(name="start", description=N_("Open a Rummy lobby in this channel"))
    @with_rule_options
    async def start(self, interaction: Interaction, /, **rules: Any) -> None:
        try:
            chosen = self.chat.settings.for_new_game(interaction, rules)
        except RummyError as error:
            await interaction.response.send_message(explain(error), ephemeral=True)
            return
        if interaction.guild_id is None:
            # No server to speak for: the one who opens the game is asked to.
            language = self.chat.prefs.language(interaction.user.id, interaction.locale)
        else:
            language = self.chat.settings.rules.language_of(
                interaction.guild_id, interaction.guild_locale
            )
        chose = any(value is not None for value in rules.values())
        async with self.chat.tasks.handling():
            await self.chat.lobby.open(interaction, chosen, language, chose_rules=chose)

    @app_commands.command(name="help", description=N_("How to play Rummy with this bot"))
    async def help(self, interaction: Interaction) -> None:
        async with self.chat.tasks.handling():
            await self.chat.settings.help(interaction)

    @app_commands.command(name="hand", description=N_("Show your hand (only you see it)"))
    async def hand(self, interaction: Interaction) -> None:
        async with self.chat.tasks.handling():
            await self.chat.play.show_hand_command(interaction)

    @app_commands.command(name="rules", description=N_("How Rummy is played here"))
    async def rules(self, interaction: Interaction) -> None:
        async with self.chat.tasks.handling():
            await self.chat.settings.show(interaction)

    @app_commands.command(name="end", description=N_("End the game in this channel"))
    async def end(self, interaction: Interaction) -> None:
        async with self.chat.tasks.handling():
            await self.chat.ending.end(interaction)

    @app_commands.command(name="leaderboard", description=N_("This server's best Rummy players"))
    @app_commands.describe(
        order=N_("What to rank by (default: rating, once someone has played 5 rated matches)"),
        season=N_("An ended season's name: its final standings by rating"),
    )
    async def leaderboard(
        self,
        interaction: Interaction,
        order: Literal["rating", "wins", "points", "rummies"] | None = None,
        season: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        async with self.chat.tasks.handling():
            await self.chat.stats.leaderboard(interaction, order, season)

    @app_commands.command(name="history", description=N_("Recent Rummy matches in this server"))
    @app_commands.describe(
        member=N_("Only this member's matches"), page=N_("Which page (10 a page)")
    )
    async def history(
        self,
        interaction: Interaction,
        member: discord.User | None = None,
        page: app_commands.Range[int, 1, 100000] = 1,
    ) -> None:
        async with self.chat.tasks.handling():
            await self.chat.history.command(interaction, member, page)

    @app_commands.command(
        name="replay", description=N_("Step through a finished hand, move by move")
    )
    @app_commands.describe(
        match=N_("The match number, as /rummy history shows it (default: this channel's latest)"),
        hand=N_("Which hand of the match (default: its last)"),
    )
    async def replay(
        self,
        interaction: Interaction,
        match: app_commands.Range[int, 1] | None = None,
        hand: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        async with self.chat.tasks.handling():
            await self.chat.history.replay_command(interaction, match, hand)

    # Discord keeps default_member_permissions for top-level commands only: the
    # flow checks Manage Server itself.
    season = app_commands.Group(name="season", description=N_("Rating seasons (Manage Server)"))

    @season.command(name="end", description=N_("End the rating season; keep its standings"))
    @app_commands.describe(name=N_("A name for the season that ends (default: Season N)"))
    async def season_end(
        self, interaction: Interaction, name: app_commands.Range[str, 1, 100] | None = None
    ) -> None:
        async with self.chat.tasks.handling():
            await self.chat.seasons.end(interaction, name)

    @app_commands.command(name="stats", description=N_("A player's Rummy figures in this server"))
    @app_commands.describe(member=N_("Whose figures (default: yours)"))
    async def stats(self, interaction: Interaction, member: discord.User | None = None) -> None:
        async with self.chat.tasks.handling():
            await self.chat.stats.player(interaction, member)

    @app_commands.command(name="language", description="The language the bot speaks to you")
    @app_commands.describe(language="Leave it out to follow your Discord app's language")
    @app_commands.choices(
        language=[app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()]
    )
    async def language(self, interaction: Interaction, language: str | None = None) -> None:
        async with self.chat.tasks.handling():
            await self.chat.play.language_command(interaction, language)

    @app_commands.command(name="settings", description=N_("Set this server's default house rules"))
    @app_commands.describe(language=N_("The language of the public tables in this server"))
    @app_commands.choices(
        language=[app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()]
    )
    @with_rule_options
    async def settings(
        self, interaction: Interaction, /, *, language: str | None = None, **rules: Any
    ) -> None:
        async with self.chat.tasks.handling():
            await self.chat.settings.change(interaction, {**rules, "language": language})
