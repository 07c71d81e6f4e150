"""The card faces as the bot's own emojis on Discord.

The faces (``presentation.card_faces``) are uploaded once as application
emojis: the application owns them, so they show in every server without any
permission. At each start ``sync_card_emoji`` finds the ones already there,
uploads only what is missing or was drawn anew, and records their ids in the
database, and ``CardFaces`` writes cards with them from then on.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping

import discord

from db import Database, StorageError
from presentation.card_emoji import CardFaces
from presentation.card_faces import all_images
from presentation.pacing import LATER, RequestBudget

log = logging.getLogger(__name__)


def digest(image: bytes) -> str:
    """Tells one drawing of a face from another (a new release may redraw them)."""
    return hashlib.sha256(image).hexdigest()[:16]


async def _upload(client: discord.Client, name: str, image: bytes) -> discord.Emoji:
    """Upload one face; if another process of the bot uploaded it first (several
    processes start together on one database), that emoji is the one."""
    try:
        return await client.create_application_emoji(name=name, image=image)
    except discord.HTTPException as error:
        if error.status != 400:
            raise
        for emoji in await client.fetch_application_emojis():
            if emoji.name == name:
                return emoji
        raise


# Discord's answers that no further upload of this start could change: no
# permission, or the application's emojis at their maximum.
MISSING_ACCESS = frozenset({401, 403})
AT_MAXIMUM = frozenset({30008, 30018})


def _for_good(refused: discord.HTTPException) -> bool:
    return refused.status in MISSING_ACCESS or refused.code in AT_MAXIMUM


async def sync_card_emoji(
    client: discord.Client,
    db: Database,
    faces: CardFaces,
    budget: RequestBudget,
    images: Mapping[str, bytes] | None = None,
) -> None:
    """Make the bot's application emojis hold every card face, and fill ``faces``.

    Idempotent: an emoji already there under its name is kept, unless the
    database recorded it for another drawing, which is then replaced; only
    what is missing is uploaded, each upload waiting its turn in the bot's
    request budget behind the tables' edits (Discord's global limit is the
    bot's, and the first start uploads dozens). Every failure is logged and
    leaves the cards it concerns as text.
    """
    wanted = dict(images if images is not None else all_images())
    try:
        recorded = await db.card_emoji()
    except StorageError:
        log.warning("could not read the card emojis from the database", exc_info=True)
        recorded = {}
    try:
        existing = {emoji.name: emoji for emoji in await client.fetch_application_emojis()}
    except discord.HTTPException:
        log.warning("could not list the bot's emojis; cards are shown as text", exc_info=True)
        return
    found: dict[str, tuple[int, str]] = {}
    for name, image in wanted.items():
        drawing = digest(image)
        emoji = existing.get(name)
        stale = emoji is not None and name in recorded and recorded[name][1] != drawing
        try:
            if stale:
                assert emoji is not None
                await budget.take(LATER)
                await emoji.delete()
                emoji = None
            if emoji is None:
                await budget.take(LATER)
                emoji = await _upload(client, name, image)
        except discord.HTTPException as refused:
            if _for_good(refused):
                # Every other upload would be refused the same way: the rest
                # stay text, and the next start tries again.
                log.warning(
                    "Discord refused the card emojis (%s %s: %s): %d of %d cards show as "
                    "text until the next start",
                    refused.status, refused.code or "", refused.text, len(wanted) - len(found),
                    len(wanted),
                )
                break
            log.warning("could not upload the card emoji %s; it shows as text", name, exc_info=True)
            continue
        found[name] = (emoji.id, drawing)
        faces.add(name, emoji.id)
    try:
        await db.set_card_emoji(found)
    except StorageError:
        log.warning("could not record the card emojis; they are found again at the next start")
    log.info("card faces: %d of %d as emojis", len(found), len(wanted))
