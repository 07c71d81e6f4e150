"""The card emojis the bot has uploaded: name -> (emoji id, digest of the drawing
it shows), so that each start tells a face drawn anew from one already there
(``presentation.card_emoji``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .session import Session

# The turn (Session.serialise) of the card emoji record: no server has id 0.
CARD_EMOJI_TURN: Final = 0
SQL_CARD_EMOJI: Final = "SELECT name, emoji_id, digest FROM card_emoji"
SQL_CLEAR_CARD_EMOJI: Final = "DELETE FROM card_emoji"
SQL_ADD_CARD_EMOJI: Final = "INSERT INTO card_emoji (name, emoji_id, digest) VALUES (?, ?, ?)"


async def read(conn: Session) -> dict[str, tuple[int, str]]:
    rows = await conn.fetch(SQL_CARD_EMOJI)
    return {str(name): (int(emoji_id), str(digest)) for name, emoji_id, digest in rows}


async def replace(conn: Session, rows: Sequence[tuple[str, int, str]]) -> None:
    """Record ``rows`` (name, emoji id, digest) in place of what was recorded."""
    async with conn.transaction():
        # Processes starting together each record the set they found.
        await conn.serialise(CARD_EMOJI_TURN)
        await conn.execute(SQL_CLEAR_CARD_EMOJI)
        await conn.executemany(SQL_ADD_CARD_EMOJI, rows)
