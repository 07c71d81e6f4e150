"""Look-ahead over the hidden cards: close discards compared on sampled deals.

Each sample is one complete guess at the hidden cards (``Belief.sample``), drawn from
what the seat believes. On it, every candidate discard is played one turn ahead:
the next player takes it when it makes a meld with their cards (or fits a table meld)
and otherwise draws from the stock; if they can then go out, the candidate lost the
hand on that deal. If not, our own next draw comes from the stock of that deal, and
the candidate scores the hand we would then hold. The same deals serve every
candidate, so luck in the sampling cancels out of the comparison.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card
from engine.handscore import Evaluator, HardWeights
from engine.melds import Meld, lay_off_options, meld_options
from engine.rules import HouseRules
from engine.view import HandView

from .belief import Belief, melds_with

__all__ = ["Lookahead", "can_go_out", "completes_meld"]

# What a deal on which the next player goes out costs a candidate, on the scale of
# the hand scorer (a card in a meld is worth 10): a lost hand is worse than any hand.
OUT_COST = 120.0


def completes_meld(
    card: Card, cards: Sequence[Card], melds: Sequence[Meld], rules: HouseRules
) -> bool:
    """Whether ``card`` makes a meld with two of ``cards`` or fits a table meld."""
    partners = [c for c in cards if melds_with(card, c, rules)]
    if len(partners) >= 2 and any(card in m for m in meld_options((*partners, card), rules)):
        return True
    return bool(melds) and bool(lay_off_options((card,), melds, rules))


def can_go_out(
    cards: Sequence[Card], banned: Card | None, melds: Sequence[Meld], rules: HouseRules
) -> bool:
    """Whether a hand can meld and lay off all its cards but one it may discard.

    Enough for the look-ahead's opponents, who meld as they please: the one-meld and
    discard-only house rules are not modelled here.
    """
    matched: set[Card] = set()
    for group in meld_options(cards, rules):
        matched.update(group)
    for group, _ in lay_off_options(cards, melds, rules):
        matched.update(group)
    loose = [c for c in cards if c not in matched]
    if len(loose) > 1 or (len(loose) == 1 and loose[0] == banned):
        return False
    # Every card fits somewhere; whether they all fit at once is the scorer's question.
    evaluator = Evaluator(cards, melds, rules, 0, _EXACT, 0.0)
    full = (1 << len(cards)) - 1
    need = _EXACT.matched * (len(cards) - 1) - 0.01 * len(cards)
    for i, card in enumerate(cards):
        if card == banned or (loose and card != loose[0]):
            continue
        if evaluator.best(full ^ (1 << i)) >= need:
            return True
    return False


# Scoring only melds and lay-offs: near-melds and points play no part in going out.
_EXACT = HardWeights(near=0.0, single=0.0, points=0.0)


class Lookahead:
    """Compares candidate discards on the same sampled deals."""

    __slots__ = (
        "belief",
        "melds",
        "next",
        "points_weight",
        "samples",
        "score",
        "take_cost",
        "view",
    )

    def __init__(
        self,
        view: HandView,
        belief: Belief,
        score: HardWeights,
        points_weight: float,
        samples: int,
        take_cost: float,
    ) -> None:
        """``take_cost`` is what a deal costs a candidate when the next player takes
        it into a meld without going out (the expert's ``danger``)."""
        assert view.player is not None
        self.view = view
        self.belief = belief
        self.score = score
        self.samples = samples
        self.melds = [m.meld for m in view.melds]
        players = view.players
        self.next = players[(players.index(view.player) + 1) % len(players)]
        self.points_weight = points_weight
        self.take_cost = take_cost

    def best(self, candidates: Sequence[Card], rng: random.Random) -> Card:
        """The candidate with the best average over the samples (the first on ties)."""
        totals = dict.fromkeys(candidates, 0.0)
        rules = self.view.rules
        hand = self.view.hand
        for _ in range(self.samples):
            deal = self.belief.sample(rng, self.view.stock_size)
            theirs = deal.hands.get(self.next, ())
            for card in candidates:
                kept = [c for c in hand if c != card]
                if completes_meld(card, theirs, self.melds, rules):
                    if can_go_out((*theirs, card), card, self.melds, rules):
                        totals[card] -= OUT_COST
                        continue
                    totals[card] -= self.take_cost
                    drawn = deal.stock[0] if deal.stock else None
                else:
                    first = deal.stock[0] if deal.stock else None
                    if first is not None and can_go_out((*theirs, first), None, self.melds, rules):
                        totals[card] -= OUT_COST
                        continue
                    drawn = deal.stock[1] if len(deal.stock) > 1 else None
                totals[card] += self._after_draw(kept, drawn)
        return max(candidates, key=lambda c: totals[c])

    def _after_draw(self, kept: list[Card], drawn: Card | None) -> float:
        """Our score after drawing ``drawn`` next turn and discarding the worst card."""
        cards = kept if drawn is None else [*kept, drawn]
        evaluator = Evaluator(
            cards, self.melds, self.view.rules, self.belief.live, self.score, self.points_weight
        )
        full = (1 << len(cards)) - 1
        if drawn is None:
            return evaluator.best(full)
        return max(evaluator.best(full ^ (1 << i)) for i in range(len(cards)))
