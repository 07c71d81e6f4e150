"""Where the unseen cards probably are: a belief built from the view and the memory.

Every card is either seen (in the seat's hand, on the discard pile, in a table meld),
known to be in an opponent's hand, known to be in the stock at a known place, or
*unknown*: in some opponent's hidden cards or in the stock. An unknown card is not
equally likely everywhere. Someone who took a card from the pile was probably
collecting around it, and someone who threw a card away or passed it over probably
was not; ``likelihood`` turns those signs into a relative weight that the card sits
in a given opponent's hand, and ``stock_orders`` guesses, accordingly, which cards
the seat's next draws from the stock will bring (for the look-ahead of
``engine.expert.race``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card, Suit, card_at
from engine.handscore import ALL_CARDS, cid
from engine.rules import AceRule, HouseRules
from engine.view import HandView

from .memory import Memory

__all__ = ["Belief", "melds_with"]

# How much more (or less) likely a card is to be in a hand, per sign: a card that would
# meld with one the player took from the pile, and one that would meld with a card they
# discarded or passed over.
COLLECTED = 2.5
SHUNNED = 0.45


def melds_with(a: Card, b: Card, rules: HouseRules) -> bool:
    """Whether two different cards could sit in one meld: same rank, or same suit at
    most two ranks apart (house rule ``ace``: the ace also next to the king)."""
    if a.rank == b.rank:
        return True
    if a.suit != b.suit:
        return False
    gap = abs(a.rank - b.rank)
    if rules.ace is AceRule.HIGH_OR_LOW and 1 in (a.rank, b.rank):
        gap = min(gap, 14 - max(a.rank, b.rank))
    return gap <= 2


class Belief:
    """The seat's picture of the hidden cards, from its view and its memory."""

    __slots__ = (
        "_totals",
        "hidden",
        "known",
        "likelihood",
        "live",
        "me",
        "rules",
        "stock",
        "unknown",
    )

    def __init__(self, view: HandView, memory: Memory) -> None:
        assert view.player is not None
        self.me = view.player
        self.rules = view.rules
        seen: set[Card] = set(view.hand) | set(view.discard_pile)
        for table_meld in view.melds:
            seen.update(table_meld.cards)
        self.stock: tuple[Card, ...] | None = memory.stock
        if self.stock is not None and seen & set(self.stock):
            self.stock = None
        known_stock = set(self.stock or ())
        self.known: dict[str, frozenset[Card]] = {}
        self.hidden: dict[str, int] = {}
        placed = seen | known_stock
        for p in view.players:
            if p == self.me:
                continue
            mine = memory.held.get(p, frozenset()) - placed
            # A record at odds with the counts is trusted only as far as it fits.
            count = view.card_counts.get(p, 0)
            if len(mine) > count:
                mine = frozenset()
            self.known[p] = mine
            self.hidden[p] = count - len(mine)
            placed |= mine
        self.unknown: tuple[Card, ...] = tuple(c for c in ALL_CARDS if c not in placed)
        live = 0
        for c in (*self.unknown, *known_stock):
            live |= 1 << cid(c)
        self.live = live
        """Bit mask (``engine.handscore.cid``) of the cards this seat could still draw."""
        self.likelihood: dict[str, dict[Card, float]] = {
            p: self._weights(p, memory, view.rules) for p in self.known
        }
        self._totals = {p: sum(w.values()) for p, w in self.likelihood.items()}

    def _weights(self, player: str, memory: Memory, rules: HouseRules) -> dict[Card, float]:
        took = memory.took.get(player, ())
        shunned = memory.shunned.get(player, frozenset())
        weights: dict[Card, float] = {}
        for card in self.unknown:
            weight = 1.0
            for t in took:
                if melds_with(card, t, rules):
                    weight *= COLLECTED
            for s in shunned:
                if melds_with(card, s, rules):
                    weight *= SHUNNED
            weights[card] = weight
        return weights

    def chance_held(self, player: str, card: Card) -> float:
        """The chance ``player`` holds ``card``: 1 or 0 when known, else their share of
        the unknown cards, weighted by the signs they gave."""
        if card in self.known.get(player, frozenset()):
            return 1.0
        weights = self.likelihood.get(player)
        if weights is None:
            return 0.0
        weight = weights.get(card)
        hidden = self.hidden[player]
        total = self._totals[player]
        if weight is None or hidden <= 0 or total <= 0:
            return 0.0
        # The unknown cards are spread over everyone's hidden cards and the stock: an
        # average card is in this hand with chance hidden / unknown.
        return min(1.0, weight / total * hidden)

    def chance_at(self, player: str, rank: int, suit: Suit) -> float:
        """``chance_held`` for a rank and suit; rank 14 is the ace above the king (house
        rule ``ace = high_or_low`` only) and ranks off either end are nobody's."""
        if rank == 14 and self.rules.ace is AceRule.HIGH_OR_LOW:
            rank = 1
        if not 1 <= rank <= 13:
            return 0.0
        return self.chance_held(player, card_at(rank, suit))

    def chance_in_stock(self, card: Card) -> float:
        """The chance an unknown card is in the stock rather than in a hand."""
        if self.stock is not None:
            return 0.0  # a known stock holds only known cards
        return max(0.0, 1.0 - sum(self.chance_held(p, card) for p in self.likelihood))

    def unknown_or_known(self, player: str) -> tuple[Card, ...]:
        """The cards ``player`` might hold: the unknown ones and those known to be theirs."""
        return (*self.unknown, *self.known.get(player, ()))

    def stock_orders(self, rng: random.Random, count: int, length: int) -> list[list[Card]]:
        """``count`` guesses at the next ``length`` cards this seat will draw from an
        unknown stock: the unknown cards in an order drawn by the chance each is in the
        stock rather than in a hand."""
        chances = {c: self.chance_in_stock(c) for c in self.unknown}
        pool = [c for c, chance in chances.items() if chance > 0.0]
        return [_weighted_pick(pool, chances, length, rng) for _ in range(count)]


def _weighted_pick(
    pool: Sequence[Card], weights: dict[Card, float], count: int, rng: random.Random
) -> list[Card]:
    """``count`` different cards of ``pool``, each drawn with chance by its weight."""
    # Efraimidis-Spirakis keys: one random number per card, the largest keys win.
    if count <= 0:
        return []
    keyed = sorted(
        pool, key=lambda c: rng.random() ** (1.0 / max(weights.get(c, 1.0), 1e-6)), reverse=True
    )
    return keyed[:count]
