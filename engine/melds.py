"""Melds: sets and runs, and laying cards off onto them.

A *set* is 3 or 4 cards of one rank. A *run* is 3 or more cards of one suit whose
ranks follow one another. Under the house rule ``ace = low`` the ace only sits below
the 2 (A-2-3); under ``ace = high_or_low`` it may instead follow the king (Q-K-A).
An ace never joins the king to the 2: K-A-2 is a run under no rule.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card, format_cards, rank_key, suit_key
from engine.errors import IllegalMoveError
from engine.rules import AceRule, HouseRules

__all__ = ["Meld", "MeldKind", "extend_meld", "fits_meld", "make_meld"]


class MeldKind(StrEnum):
    SET = "set"
    RUN = "run"


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid meld. A set lists its cards by suit (C D H S); a run lists them in run
    order, low to high, with the ace last when it is played above the king.

    Build melds with ``make_meld`` / ``extend_meld``, which check the rules.
    """

    kind: MeldKind
    cards: tuple[Card, ...]

    @property
    def ace_high(self) -> bool:
        """Whether this run plays its ace above the king."""
        return self.kind is MeldKind.RUN and self.cards[-1].rank == 1


# Why a group of same-suit cards is not a run; the same reason reads well both for a
# new meld ("... is not a run: <reason>") and for a lay-off ("... cannot go on ...: <reason>").
_GAP = "the ranks must follow one another with no gap"
_ACES_LOW = "aces are low at this table"
_CORNER = "an ace cannot turn the corner"


def _consecutive(values: Sequence[int]) -> bool:
    return all(b - a == 1 for a, b in itertools.pairwise(values))


def _order_run(cards: Sequence[Card], rules: HouseRules) -> tuple[tuple[Card, ...], str | None]:
    """Order same-suit cards of distinct ranks as a run, or say why they are not one.

    Returns the cards in the most natural order for the message (run order when valid)
    and ``None``, or that order and the reason the run is refused.
    House rule ``ace`` decides whether an ace may follow the king.
    """
    low = sorted(cards, key=rank_key)
    if _consecutive([c.rank for c in low]):
        return tuple(low), None
    if low[0].rank == 1:
        high = [*low[1:], low[0]]
        if _consecutive([c.rank for c in high[:-1]]) and high[-2].rank == 13:
            if rules.ace is AceRule.HIGH_OR_LOW:
                return tuple(high), None
            return tuple(high), _ACES_LOW
        # Read the ranks round the clock (K is followed by A, then 2): a run that only
        # works that way turns the corner.
        ranks = [c.rank for c in low]
        breaks = [
            i for i in range(len(ranks)) if (ranks[(i + 1) % len(ranks)] - ranks[i]) % 13 != 1
        ]
        if len(breaks) == 1:
            start = (breaks[0] + 1) % len(low)
            return tuple(low[start:] + low[:start]), _CORNER
    return tuple(low), _GAP


def _duplicate(cards: Sequence[Card]) -> Card | None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            return card
        seen.add(card)
    return None


def make_meld(cards: Sequence[Card], rules: HouseRules) -> Meld:
    """Check that the cards form a set or a run and return the meld in its table order.

    Raises ``IllegalMoveError`` with a reason a player can read, e.g.
    "Q♠ K♠ A♠ is not a run: aces are low at this table". Depends on house rule ``ace``.
    """
    if len(cards) < 3:
        raise IllegalMoveError("A meld needs at least 3 cards")
    twice = _duplicate(cards)
    if twice is not None:
        raise IllegalMoveError(f"{twice.display} is named twice")
    if all(c.rank == cards[0].rank for c in cards):
        # Four suits, cards all distinct: a one-rank group has at most 4 cards.
        return Meld(MeldKind.SET, tuple(sorted(cards, key=suit_key)))
    if any(c.suit != cards[0].suit for c in cards):
        shown = format_cards(sorted(cards, key=rank_key))
        if len({c.rank for c in cards}) == len(cards):
            raise IllegalMoveError(f"{shown} is not a run: a run is one suit")
        raise IllegalMoveError(f"{shown} is not a set: a set is 3 or 4 cards of one rank")
    ordered, problem = _order_run(cards, rules)
    if problem is not None:
        raise IllegalMoveError(f"{format_cards(ordered)} is not a run: {problem}")
    return Meld(MeldKind.RUN, ordered)


def extend_meld(meld: Meld, cards: Sequence[Card], rules: HouseRules) -> Meld:
    """Lay cards off onto a meld and return the longer meld.

    All the cards are judged together, so 3♥ 4♥ go onto 5♥ 6♥ 7♥ although 3♥ alone
    would not. A set takes the missing cards of its rank; a run takes cards of its
    suit that continue it at either end. The kind never changes: a set stays a set.
    Depends on house rule ``ace`` (whether a run may continue past the king to the ace).
    """
    if not cards:
        raise IllegalMoveError("Choose at least one card to lay off")
    twice = _duplicate(cards)
    if twice is not None:
        raise IllegalMoveError(f"{twice.display} is named twice")
    for card in cards:
        if card in meld.cards:
            raise IllegalMoveError(f"{card.display} is already in that meld")
    shown = format_cards(sorted(cards, key=rank_key))
    onto = format_cards(meld.cards)
    if meld.kind is MeldKind.SET:
        if any(c.rank != meld.cards[0].rank for c in cards):
            raise IllegalMoveError(f"{shown} cannot go on {onto}: a set is cards of one rank")
        return Meld(MeldKind.SET, tuple(sorted((*meld.cards, *cards), key=suit_key)))
    if any(c.suit != meld.cards[0].suit for c in cards):
        raise IllegalMoveError(f"{shown} cannot go on {onto}: a run is one suit")
    ordered, problem = _order_run((*meld.cards, *cards), rules)
    if problem is not None:
        raise IllegalMoveError(f"{shown} cannot go on {onto}: {problem}")
    return Meld(MeldKind.RUN, ordered)


def fits_meld(meld: Meld, cards: Sequence[Card], rules: HouseRules) -> bool:
    """Whether ``extend_meld`` would accept these cards (house rule ``ace``)."""
    try:
        extend_meld(meld, cards, rules)
    except IllegalMoveError:
        return False
    return True
