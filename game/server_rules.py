"""Each server's default house rules and the language of its public tables:
what every new lobby starts from, by either door. The chat's commands that
show and change them are ``chat.commands.server_defaults``."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from db import Database
from engine import HouseRules, RummyError
from presentation.i18n import LANGUAGES, N_, language_for

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

    def __init__(self, db: Database) -> None:
        self.db = db
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

    def chosen_language(self, guild_id: int) -> str | None:
        """The language an admin chose for the server's public tables, if any."""
        return self._languages.get(guild_id)

    def language_of(self, guild_id: int | None, guild_locale: object) -> str:
        """The language of the server's public tables: an admin's choice, else the
        server's own Discord language."""
        chosen = self._languages.get(guild_id or 0)
        return chosen or language_for(guild_locale)

    async def set(self, guild_id: int, rules: HouseRules, language: str | None = None) -> None:
        """Save a server's new defaults; raises StorageError with nothing changed."""
        language = language or self._languages.get(guild_id)
        saved = rules.to_dict() | ({LANGUAGE_KEY: language} if language else {})
        await self.db.set_guild_rules(guild_id, saved)
        self._rules[guild_id] = rules
        if language:
            self._languages[guild_id] = language
