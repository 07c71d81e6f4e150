"""`/rummy settings`, `/rummy rules` and `/rummy help`: the server's default
house rules shown and changed (``game.server_rules`` keeps them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from db import StorageError
from engine import HouseRules, RummyError
from game.server_rules import LANGUAGE_KEY, ServerRules, merge_rules
from presentation import render
from presentation.explain import explain
from presentation.i18n import LANGUAGES, _
from tables import TableRegistry
from transport.private import Interaction


class ServerSettings:
    """The chat's commands over each server's defaults."""

    def __init__(self, rules: ServerRules, tables: TableRegistry) -> None:
        self.rules = rules
        self.tables = tables

    def public_language(self, interaction: Interaction) -> str:
        """The language of what the bot posts for everyone in this server."""
        return self.rules.language_of(interaction.guild_id, interaction.guild_locale)

    async def show(self, interaction: Interaction) -> None:
        """`/rummy rules`: the rules of the game here, or the server's defaults."""
        table = self.tables.get(interaction.channel_id or 0)
        if table is not None:
            text = render.rules_text(table.rules)
        else:
            text = render.rules_text(self.rules.of(interaction.guild_id), server_default=True)
        await interaction.response.send_message(text, ephemeral=True)

    async def change(self, interaction: Interaction, options: Mapping[str, Any]) -> None:
        """`/rummy settings`: change the server's defaults (Manage Server only)."""
        if not interaction.permissions.manage_guild:
            await interaction.response.send_message(
                _("Only members with Manage Server can change the server's house rules."),
                ephemeral=True,
            )
            return
        assert interaction.guild_id is not None
        before = self.rules.of(interaction.guild_id)
        options = dict(options)
        language = options.pop(LANGUAGE_KEY, None)
        before_language = self.rules.chosen_language(interaction.guild_id)
        try:
            rules = merge_rules(before, options)
            await self.rules.set(interaction.guild_id, rules, language)
        except RummyError as error:
            await interaction.response.send_message(explain(error), ephemeral=True)
            return
        except StorageError:
            await interaction.response.send_message(
                _("The settings could not be saved; nothing changed."), ephemeral=True
            )
            return
        changed = render.changed_rules(rules, before)
        if language is not None and language != before_language:
            changed.append(
                _("Language of the public tables: {language}", language=LANGUAGES[language])
            )
        if changed:
            text = _("New games in this server now start with:") + "\n"
            text += "\n".join(f"• {line}" for line in changed)
        else:
            text = _("Nothing changed: those already were this server's defaults.")
        await interaction.response.send_message(
            text + "\n" + _("`/rummy rules` shows them all."), ephemeral=True
        )

    async def help(self, interaction: Interaction) -> None:
        """`/rummy help`: the commands and how a turn goes, in a few lines."""
        said = render.help_text(self.public_language(interaction))
        await interaction.response.send_message(said, ephemeral=True)

    def for_new_game(self, interaction: Interaction, options: Mapping[str, Any]) -> HouseRules:
        """The rules of a lobby opened with these options; ``RummyError`` if they clash."""
        return merge_rules(self.rules.of(interaction.guild_id), options)
