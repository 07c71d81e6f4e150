"""Cards as the bot's own emojis, and as text wherever those are missing.

The card faces (``presentation.card_faces``) are uploaded once as application
emojis: the application owns them, so they show in every server without any
permission. At each start ``sync_card_emoji`` finds the ones already there,
uploads only what is missing or was drawn anew, and records their ids in the
database. Until that is done, or if Discord refuses, every card is written as
text (``10♥``): nothing depends on the pictures.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Mapping
from typing import Any

import discord

from db import Database, StorageError
from engine import Card

from .card_faces import BACK_NAME, all_images, emoji_name
from .i18n import card_text, current
from .pacing import LATER, RequestBudget

log = logging.getLogger(__name__)


class CardFaces:
    """How to write a card for a player: an emoji when the bot has one, else text.

    Filled by the start-up sync (``add``); until then, and for any card it
    could not upload, cards are text. What each card looks like is worked out
    once: every hand message writes dozens of them.
    """

    def __init__(self, ids: Mapping[str, int] | None = None) -> None:
        self.ids: dict[str, int] = dict(ids or {})
        # None: no emoji, the card is text (in the reader's language, so not kept here).
        # Keyed by the reader's language too: the faces say what the text says
        # (B, D, K to a German reader).
        self._inline: dict[tuple[Card, bool, str], str | None] = {}
        self._component: dict[tuple[Card, bool, str], dict[str, Any] | None] = {}

    def add(self, name: str, emoji_id: int) -> None:
        """The emoji ``name`` exists now (as ``emoji_id``)."""
        self.ids[name] = emoji_id
        self._inline.clear()
        self._component.clear()

    def emoji(self, card: Card, *, four_colour: bool = False) -> tuple[str, int] | None:
        """The face of ``card`` as the current language writes its rank; None where
        the bot has no such emoji (the card is then text, in the same letters)."""
        letter = current().letters.get(card.rank)
        name = emoji_name(card, four_colour=four_colour, letter=letter)
        emoji_id = self.ids.get(name)
        return None if emoji_id is None else (name, emoji_id)

    def inline(self, card: Card, *, four_colour: bool = False) -> str:
        """The card in a line of text."""
        key = (card, four_colour, current().code)
        if key in self._inline:
            shown = self._inline[key]
        else:
            found = self.emoji(card, four_colour=four_colour)
            shown = self._inline[key] = None if found is None else f"<:{found[0]}:{found[1]}>"
        return card_text(card) if shown is None else shown

    def row(self, cards: Iterable[Card], *, four_colour: bool = False) -> str:
        """Cards side by side in text."""
        return " ".join([self.inline(card, four_colour=four_colour) for card in cards])

    def component_emoji(self, card: Card, *, four_colour: bool = False) -> dict[str, Any] | None:
        """The ``emoji`` of a button or select option showing ``card``, if it has one."""
        key = (card, four_colour, current().code)
        if key not in self._component:
            found = self.emoji(card, four_colour=four_colour)
            self._component[key] = (
                None
                if found is None
                else {"id": str(found[1]), "name": found[0], "animated": False}
            )
        return self._component[key]

    def back(self) -> str:
        """The stock's face-down top: the card back, or a playing-card sign as text."""
        emoji_id = self.ids.get(BACK_NAME)
        return "🂠" if emoji_id is None else f"<:{BACK_NAME}:{emoji_id}>"


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
