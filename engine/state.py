"""The small values a hand's state is made of, shared by the hand, its views and its
saved form: the phase of a turn, a meld on the table with who put down each card, and
the events a move produces.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card
from engine.melds import Meld, MeldKind

__all__ = ["Event", "Phase", "TableMeld"]


class Phase(StrEnum):
    """``draw``: the player to move must draw. ``play``: they have drawn and may meld or
    lay off, and must discard to end the turn. ``over``: the hand is finished."""

    DRAW = "draw"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table and, card by card, who put each card down.

    ``owners[i]`` put down ``meld.cards[i]``: cards laid off are credited to the
    player who laid them off, not to whoever started the meld.
    """

    meld: Meld
    owners: tuple[str, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.meld.cards

    @property
    def kind(self) -> MeldKind:
        return self.meld.kind

    def cards_of(self, player: str) -> tuple[Card, ...]:
        """The cards of this meld credited to ``player``."""
        return tuple(c for c, o in zip(self.meld.cards, self.owners, strict=True) if o == player)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for the table's log and the computer players' memory.

    ``kind`` is one of: deal, draw_stock, take_discard, meld, lay_off, discard,
    reshuffle, turn_over, went_out, hand_over. ``cards`` only ever holds public cards:
    a card drawn from the stock is secret and never appears here. ``meld`` is the meld
    index for meld and lay_off events.
    """

    kind: str
    player: str | None
    cards: tuple[Card, ...] = ()
    meld: int | None = None
