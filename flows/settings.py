"""Each server's default house rules: `/rummy settings`, `/rummy rules`, and
the defaults every new lobby starts from."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from db import Database, StorageError
from engine import HouseRules, RummyError
from presentation import render
from presentation.explain import explain
from presentation.i18n import LANGUAGES, N_, _, language_for
from tables import TableRegistry

if TYPE_CHECKING:  # the slash commands' type: the Activity reads rules without discord.py
    from transport.private import Interaction

log = logging.getLogger(__name__)

# Kept with the server's default rules, but not a house rule.
LANGUAGE_KEY = "language"


def merge_rules(base: HouseRules, options: Mapping[str, Any]) -> HouseRules:
    """Apply the options a member gave on top of ``base``; refuse contradictions."""
    given = {key: value for key, value in options.items() if value is not None}
    if "target" in given and "hands" in given:
        raise RummyError(N_("Choose either a target score or a number of hands, not both."))
    merged = base.to_dict()
    merged.update(given)
    if "hands" in given:
        merged["target"] = None
    elif "target" in given:
        merged["hands"] = None
    return HouseRules.from_dict(merged)


class ServerRules:
    """The servers' default house rules, read once at start-up and kept current."""

    def __init__(self, db: Database, tables: TableRegistry) -> None:
        self.db = db
        self.tables = tables
        self._rules: dict[int, HouseRules] = {}
        # The language of each server's public tables, where an admin chose one.
        self._languages: dict[int, str] = {}

    async def load(self) -> None:
        """Read every server's default rules once, at start-up.

        ``/rummy start`` needs them at once, and on game night hundreds of
        lobbies open within a second: reading them then queued every lobby
        behind the database, one read after another.
        """
        for guild_id, saved in (await self.db.load_guild_rules()).items():
            chosen = saved.pop(LANGUAGE_KEY, None)
            if chosen in LANGUAGES:
                self._languages[guild_id] = chosen
            try:
                self._rules[guild_id] = HouseRules.from_dict(saved)
            except RummyError:
                log.warning("ignoring unreadable server defaults for guild %s", guild_id)

    def of(self, guild_id: int | None) -> HouseRules:
        """The server's default house rules."""
        if guild_id is None:
            return HouseRules()
        return self._rules.get(guild_id) or HouseRules()

    def language_of(self, guild_id: int | None, guild_locale: object) -> str:
        """The language of the server's public tables: an admin's choice, else the
        server's own Discord language."""
        chosen = self._languages.get(guild_id or 0)
        return chosen or language_for(guild_locale)

    def public_language(self, interaction: Interaction) -> str:
        """The language of what the bot posts for everyone in this server."""
        return self.language_of(interaction.guild_id, interaction.guild_locale)

    async def set(self, guild_id: int, rules: HouseRules, language: str | None = None) -> None:
        """Save a server's new defaults; raises StorageError with nothing changed."""
        language = language or self._languages.get(guild_id)
        saved = rules.to_dict() | ({LANGUAGE_KEY: language} if language else {})
        await self.db.set_guild_rules(guild_id, saved)
        self._rules[guild_id] = rules
        if language:
            self._languages[guild_id] = language

    async def show(self, interaction: Interaction) -> None:
        """`/rummy rules`: the rules of the game here, or the server's defaults."""
        table = self.tables.get(interaction.channel_id or 0)
        if table is not None:
            text = render.rules_text(table.rules)
        else:
            text = render.rules_text(self.of(interaction.guild_id), server_default=True)
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
        before = self.of(interaction.guild_id)
        options = dict(options)
        language = options.pop(LANGUAGE_KEY, None)
        before_language = self._languages.get(interaction.guild_id)
        try:
            rules = merge_rules(before, options)
            await self.set(interaction.guild_id, rules, language)
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
        return merge_rules(self.of(interaction.guild_id), options)
