"""What the public record says about where the cards are, seen from one seat.

Replaying the record's events gives, for each opponent, the cards known to be in their
hand (taken from the discard pile, or drawn from a stock whose order everyone saw, and
not played since), the cards they threw away or passed over (signs of what they do
not collect), and the discard pile card by card. Under house rule
``empty_stock = turn_over`` the pile becomes the stock without a shuffle, so its order
is known to anyone who watched: ``stock`` is then the stock, top card first.

The replay is checked against the view (the pile as it lies now, the size of the
stock). A record that does not fit, such as one kept only from the middle of a hand,
loses what it cannot vouch for: the stock order, never the player's own view.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.view import HandView

from .record import PublicRecord

__all__ = ["Memory", "recall"]


@dataclass(frozen=True, slots=True)
class Memory:
    """Public knowledge about the hand from one seat's point of view.

    ``held`` maps each opponent to the cards known to be in their hand now; ``took``
    to the cards they took from the discard pile this hand (still held or not);
    ``shunned`` to the cards they discarded or left on top of the pile when they drew
    from the stock. ``stock`` is the stock's order, top card first, when everyone saw
    it made (``None`` otherwise).
    """

    held: dict[str, frozenset[Card]]
    took: dict[str, tuple[Card, ...]]
    shunned: dict[str, frozenset[Card]]
    stock: tuple[Card, ...] | None


def recall(record: PublicRecord, view: HandView) -> Memory:
    """Replay the record's events for ``view.player``'s seat."""
    opponents = [p for p in view.players if p != view.player]
    held: dict[str, set[Card]] = {p: set() for p in opponents}
    took: dict[str, list[Card]] = {p: [] for p in opponents}
    shunned: dict[str, set[Card]] = {p: set() for p in opponents}
    pile: list[Card] = []
    stock: list[Card] | None = None
    pile_sure = False  # a pile replayed from the deal on, not from the middle
    for event in record.events:
        player = event.player
        mine = player in held
        match event.kind:
            case "deal":
                pile = list(event.cards)
                stock = None
                pile_sure = True
                for p in opponents:
                    held[p].clear()
                    took[p].clear()
                    shunned[p].clear()
            case "take_discard":
                card = event.cards[0]
                if pile and pile[-1] == card:
                    pile.pop()
                else:
                    pile_sure = False
                if mine:
                    assert player is not None
                    held[player].add(card)
                    took[player].append(card)
            case "draw_stock":
                if mine and pile:
                    assert player is not None
                    shunned[player].add(pile[-1])
                if stock:
                    drawn = stock.pop(0)
                    if mine:
                        assert player is not None
                        held[player].add(drawn)
                elif stock is not None:
                    stock = None
            case "discard":
                card = event.cards[0]
                pile.append(card)
                if mine:
                    assert player is not None
                    held[player].discard(card)
                    shunned[player].add(card)
            case "meld" | "lay_off":
                if mine:
                    assert player is not None
                    held[player].difference_update(event.cards)
            case "turn_over":
                stock = pile if pile_sure else None
                pile = []
            case "reshuffle":
                stock = None
                pile = pile[-1:]
    if tuple(pile) != view.discard_pile:
        pile_sure = False
    known_stock: tuple[Card, ...] | None = None
    if stock is not None and pile_sure and len(stock) == view.stock_size:
        known_stock = tuple(stock)
    # Whatever the record says, a card in this seat's own hand is in nobody else's.
    own = set(view.hand)
    return Memory(
        held={p: frozenset(cards - own) for p, cards in held.items()},
        took={p: tuple(cards) for p, cards in took.items()},
        shunned={p: frozenset(cards) for p, cards in shunned.items()},
        stock=known_stock,
    )
