"""Cards as the bot's own emojis, and as text wherever those are missing.

The faces are uploaded at start-up (``chat.emoji_sync``); until that
is done, or if Discord refused, every card is written as text (``10♥``):
nothing depends on the pictures.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine import Card

from .card_faces import BACK_NAME, emoji_name
from .i18n import card_text, current


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
