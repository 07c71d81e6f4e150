"""What servers and people chose: a server's default house rules, and each
person's own choices (their language and the like).

The bot keeps both in memory and reads them all at start-up. A person's
choices are changed one field at a time, on what is stored (not on a copy a
process kept), and every other process sharing the database is told
(``PREFS_CHANGED``), so each keeps the same. A stored value that is not a JSON
object is left out with a warning rather than stopping the bot: one damaged
setting must not keep every server from playing.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from typing import Any, Final

from .errors import StorageError
from .jsontext import to_json
from .session import Session

log = logging.getLogger(__name__)

SQL_GET_GUILD_RULES: Final = "SELECT rules FROM guild_settings WHERE guild_id = ?"
SQL_ALL_GUILD_RULES: Final = "SELECT guild_id, rules FROM guild_settings"
SQL_SET_GUILD_RULES: Final = """
INSERT INTO guild_settings (guild_id, rules, updated_at) VALUES (?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET rules = excluded.rules, updated_at = excluded.updated_at
"""
SQL_ALL_PLAYER_PREFS: Final = "SELECT user_id, prefs FROM player_prefs"
SQL_PLAYER_PREFS: Final = "SELECT prefs FROM player_prefs WHERE user_id = ?"
# The channel on which a change of someone's choices is told, with their id.
PREFS_CHANGED: Final = "rummy_player_prefs"
SQL_SET_PLAYER_PREFS: Final = """
INSERT INTO player_prefs (user_id, prefs, updated_at) VALUES (?, ?, ?)
ON CONFLICT (user_id) DO UPDATE SET prefs = excluded.prefs, updated_at = excluded.updated_at
"""


async def guild_rules(conn: Session, guild_id: int) -> dict[str, Any] | None:
    """The server's default house rules, or None if never set; StorageError if
    what is stored is not a JSON object."""
    found = list(await conn.fetch(SQL_GET_GUILD_RULES, (guild_id,)))
    if not found:
        return None
    rules = json.loads(found[0][0])
    if not isinstance(rules, dict):
        raise StorageError(f"house rules of guild {guild_id} are not a JSON object")
    return rules


def _json_object(text: Any, what: str) -> dict[str, Any] | None:
    """A stored JSON object, or None (with a warning naming ``what``) for
    anything else: one damaged row must not stop the bot."""
    try:
        found = json.loads(text)
    except (TypeError, ValueError):
        found = None
    if not isinstance(found, dict):
        log.warning("ignoring unreadable %s", what)
        return None
    return found


async def all_guild_rules(conn: Session) -> dict[int, dict[str, Any]]:
    found: dict[int, dict[str, Any]] = {}
    for guild_id, text in await conn.fetch(SQL_ALL_GUILD_RULES):
        rules = _json_object(text, f"house rules of guild {guild_id}")
        if rules is not None:
            found[guild_id] = rules
    return found


async def set_guild_rules(conn: Session, guild_id: int, text: str) -> None:
    """Replace the server's rules with ``text``, their JSON."""
    await conn.execute(SQL_SET_GUILD_RULES, (guild_id, text, time.time()))


async def all_player_prefs(conn: Session) -> dict[int, dict[str, Any]]:
    found: dict[int, dict[str, Any]] = {}
    for user_id, text in await conn.fetch(SQL_ALL_PLAYER_PREFS):
        prefs = _json_object(text, f"choices of user {user_id}")
        if prefs is not None:
            found[int(user_id)] = prefs
    return found


async def player_prefs(conn: Session, user_id: int) -> dict[str, Any]:
    """One person's stored choices ({} if none, or unreadable)."""
    found = list(await conn.fetch(SQL_PLAYER_PREFS, (user_id,)))
    if not found:
        return {}
    return _json_object(found[0][0], f"choices of user {user_id}") or {}


async def change_player_prefs(
    conn: Session, user_id: int, changes: Mapping[str, Any]
) -> dict[str, Any]:
    """Set the fields ``changes`` names of one person's stored choices, leaving
    the others as stored; tell the other processes. The choices now stored."""
    async with conn.transaction():
        # One change of a person's choices at a time, whichever process makes it.
        await conn.serialise(user_id)
        after = {**await player_prefs(conn, user_id), **changes}
        await conn.execute(SQL_SET_PLAYER_PREFS, (user_id, to_json(after), time.time()))
        await conn.notify(PREFS_CHANGED, str(user_id))
    return after
