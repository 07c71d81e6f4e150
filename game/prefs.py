"""What each person chose for themselves: which DMs, which colours of cards."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, fields
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
    """Everyone's choices, kept in memory as the database holds them.

    Read whole at start-up; a change is saved one field at a time on what is
    stored, and other processes sharing the database (PostgreSQL) say what
    they changed, so the person is read again at once. Kept in memory
    because every hand message drawn asks for them."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._prefs: dict[int, Prefs] = {}
        self._rereads: set[asyncio.Task[None]] = set()

    async def load(self) -> None:
        await self._read_all()
        self.db.watch_player_prefs(self._changed_elsewhere)

    async def _read_all(self) -> None:
        self._prefs = {
            user_id: Prefs.from_saved(saved)
            for user_id, saved in (await self.db.load_player_prefs()).items()
        }

    def _changed_elsewhere(self, user_id: int | None) -> None:
        task = asyncio.create_task(self._read_again(user_id), name="player-prefs-read")
        self._rereads.add(task)
        task.add_done_callback(self._rereads.discard)

    async def _read_again(self, user_id: int | None) -> None:
        try:
            if user_id is None:
                await self._read_all()
            else:
                self._prefs[user_id] = Prefs.from_saved(await self.db.player_prefs(user_id))
        except StorageError:
            # Read at the next change or when the link is back (told None then).
            log.warning("could not read the players' choices another process changed")

    def of(self, user_id: int) -> Prefs:
        return self._prefs.get(user_id) or Prefs()

    async def toggle(self, user_id: int, name: str) -> Prefs:
        """Flip one choice as stored (not as this process last knew it) and
        save it alone; ``NotSaved`` with nothing changed."""
        if name not in PREF_NAMES:
            raise KeyError(name)
        try:
            stored = Prefs.from_saved(await self.db.player_prefs(user_id))
        except StorageError:
            log.exception("could not read the choices of user %s", user_id)
            raise NotSaved() from None
        return await self._change(user_id, {name: not getattr(stored, name)})

    async def choose_language(self, user_id: int, code: str | None) -> Prefs:
        """Read the bot in ``code`` (None: as the Discord client); ``NotSaved``
        with nothing changed."""
        if code is not None and code not in LANGUAGES:
            raise KeyError(code)
        return await self._change(user_id, {"language": code})

    async def _change(self, user_id: int, changes: dict[str, Any]) -> Prefs:
        try:
            saved = await self.db.change_player_prefs(user_id, changes)
        except StorageError:
            log.exception("could not save the choices of user %s", user_id)
            raise NotSaved() from None
        after = self._prefs[user_id] = Prefs.from_saved(saved)
        return after

    def language(self, user_id: int, client_locale: object) -> str:
        """What this person reads the bot in: their choice, else their client's."""
        return self.of(user_id).language or language_for(client_locale)
