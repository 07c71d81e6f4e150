"""What each person chose for themselves: which DMs, which colours of cards."""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from db import Database, StorageError
from presentation.i18n import LANGUAGES, language_for
from tables import NotSaved

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Prefs:
    """One person's choices; the defaults are what a newcomer gets."""

    # A DM with the cards at each deal: players rely on it away from the channel.
    deal_dm: bool = True
    # A DM when it is their turn and they have not looked for a while.
    turn_dm: bool = True
    # Clubs green and diamonds blue, so that no two suits share a colour.
    four_colour: bool = False
    # The language they read the bot in; None: their Discord client's.
    language: str | None = None

    @classmethod
    def from_saved(cls, saved: dict[str, Any]) -> Prefs:
        switches = {k: bool(v) for k, v in saved.items() if k in PREF_NAMES}
        chosen = saved.get("language")
        return cls(**switches, language=chosen if chosen in LANGUAGES else None)


# The choices that are on or off.
PREF_NAMES = tuple(f.name for f in fields(Prefs) if f.type in ("bool", bool))


class PlayerPrefs:
    """Everyone's choices, read once at start-up and saved when changed."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._prefs: dict[int, Prefs] = {}

    async def load(self) -> None:
        self._prefs = {
            user_id: Prefs.from_saved(saved)
            for user_id, saved in (await self.db.load_player_prefs()).items()
        }

    def of(self, user_id: int) -> Prefs:
        return self._prefs.get(user_id) or Prefs()

    async def toggle(self, user_id: int, name: str) -> Prefs:
        """Flip one choice and save it; ``NotSaved`` with nothing changed."""
        if name not in PREF_NAMES:
            raise KeyError(name)
        before = self.of(user_id)
        flipped: dict[str, Any] = {name: not getattr(before, name)}
        return await self._save(user_id, replace(before, **flipped))

    async def choose_language(self, user_id: int, code: str | None) -> Prefs:
        """Read the bot in ``code`` (None: as the Discord client); ``NotSaved``
        with nothing changed."""
        if code is not None and code not in LANGUAGES:
            raise KeyError(code)
        return await self._save(user_id, replace(self.of(user_id), language=code))

    async def _save(self, user_id: int, after: Prefs) -> Prefs:
        try:
            await self.db.set_player_prefs(user_id, asdict(after))
        except StorageError:
            log.exception("could not save the choices of user %s", user_id)
            raise NotSaved() from None
        self._prefs[user_id] = after
        return after

    def language(self, user_id: int, client_locale: object) -> str:
        """What this person reads the bot in: their choice, else their client's."""
        return self.of(user_id).language or language_for(client_locale)
