"""What each person chose for themselves: which DMs, which colours of cards."""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from db import Database, StorageError
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

    @classmethod
    def from_saved(cls, saved: dict[str, Any]) -> Prefs:
        known = {f.name for f in fields(cls)}
        return cls(**{k: bool(v) for k, v in saved.items() if k in known})


PREF_NAMES = tuple(f.name for f in fields(Prefs))


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
        after = replace(before, **{name: not getattr(before, name)})
        try:
            await self.db.set_player_prefs(user_id, asdict(after))
        except StorageError:
            log.exception("could not save the choices of user %s", user_id)
            raise NotSaved() from None
        self._prefs[user_id] = after
        return after
