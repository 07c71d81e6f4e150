"""What one player may know about a hand: the information each seat is allowed.

A player's view holds their own cards and only public facts about the others
(card counts, melds, the discard pile, whose turn). A spectator's view (player
``None``) holds no hand at all, so the public table can be drawn from it without
any risk of showing a hand. After the hand, every remaining card is public.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action
from engine.cards import Card
from engine.rules import HouseRules
from engine.scoring import HandOutcome
from engine.state import Phase, TableMeld

__all__ = ["HandView"]


@dataclass(frozen=True, slots=True)
class HandView:
    """One player's (or a spectator's) picture of the hand at this moment.

    ``may_not_discard`` is the card the viewer took from the discard pile this turn
    (it may not go straight back). ``melded_this_turn`` counts new melds this turn,
    which matters under house rule ``melds_per_turn = one``. ``has_melded_this_hand``
    is true once the viewer has melded or laid off in an earlier turn: from then on
    going rummy is no longer possible. ``legal`` lists what the viewer may do now.
    """

    player: str | None
    hand: tuple[Card, ...]
    players: tuple[str, ...]
    card_counts: dict[str, int]
    melds: tuple[TableMeld, ...]
    discard_top: Card | None
    discard_pile: tuple[Card, ...]
    stock_size: int
    turn: str | None
    phase: Phase
    dealer: str
    rules: HouseRules
    may_not_discard: Card | None
    melded_this_turn: int
    has_melded_this_hand: bool
    stock_exhaustions: int
    outcome: HandOutcome | None
    legal: tuple[Action, ...]

    @property
    def is_spectator(self) -> bool:
        return self.player is None

    @property
    def my_turn(self) -> bool:
        """Whether it is the viewer's turn to act."""
        return self.player is not None and self.turn == self.player
