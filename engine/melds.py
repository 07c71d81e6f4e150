"""Melds: sets and runs, laying cards off onto them, and every one a hand could make.

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

from engine.cards import SUIT_ORDER, Card, Suit, rank_key, suit_key
from engine.errors import IllegalMoveError
from engine.rules import AceRule, HouseRules
from engine.words import N_

__all__ = [
    "Meld",
    "MeldKind",
    "extend_meld",
    "fits_meld",
    "lay_off_options",
    "make_meld",
    "meld_options",
]


class MeldKind(StrEnum):
    """A set (3 or 4 cards of one rank) or a run (3 or more following cards of a suit)."""

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


# Why a group of same-suit cards is not a run: for a new meld ("... is not a run:
# <reason>") and for a lay-off ("... cannot go on ...: <reason>"). Each is a whole
# sentence of its own, so that a translation need not stitch a reason into another.
_GAP = "gap"
_ACES_LOW = "aces_low"
_CORNER = "corner"
_NOT_A_RUN = {
    _GAP: N_("{cards} is not a run: the ranks must follow one another with no gap"),
    _ACES_LOW: N_("{cards} is not a run: aces are low at this table"),
    _CORNER: N_("{cards} is not a run: an ace cannot turn the corner"),
}
_CANNOT_GO_ON = {
    _GAP: N_("{cards} cannot go on {meld}: the ranks must follow one another with no gap"),
    _ACES_LOW: N_("{cards} cannot go on {meld}: aces are low at this table"),
    _CORNER: N_("{cards} cannot go on {meld}: an ace cannot turn the corner"),
}


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
        raise IllegalMoveError(N_("A meld needs at least 3 cards"))
    twice = _duplicate(cards)
    if twice is not None:
        raise IllegalMoveError(N_("{card} is named twice"), card=twice)
    if all(c.rank == cards[0].rank for c in cards):
        # Four suits, cards all distinct: a one-rank group has at most 4 cards.
        return Meld(MeldKind.SET, tuple(sorted(cards, key=suit_key)))
    if any(c.suit != cards[0].suit for c in cards):
        shown = sorted(cards, key=rank_key)
        if len({c.rank for c in cards}) == len(cards):
            in_order, problem = _order_run(cards, rules)
            if problem is None:
                # Ranks in sequence: meant as a run, and only the suits are wrong.
                raise IllegalMoveError(
                    N_("{cards} is not a run: a run is one suit"), cards=in_order
                )
        # Neither one rank nor one suit: either kind was possible, so one
        # sentence says what each needs, rather than blaming only one of them.
        raise IllegalMoveError(
            N_("{cards} is neither a set (cards of one rank) nor a run (cards in sequence, "
               "of one suit)"),
            cards=shown,
        )
    ordered, problem = _order_run(cards, rules)
    if problem is not None:
        raise IllegalMoveError(_NOT_A_RUN[problem], cards=ordered)
    return Meld(MeldKind.RUN, ordered)


def extend_meld(meld: Meld, cards: Sequence[Card], rules: HouseRules) -> Meld:
    """Lay cards off onto a meld and return the longer meld.

    All the cards are judged together, so 3♥ 4♥ go onto 5♥ 6♥ 7♥ although 3♥ alone
    would not. A set takes the missing cards of its rank; a run takes cards of its
    suit that continue it at either end. The kind never changes: a set stays a set.
    Depends on house rule ``ace`` (whether a run may continue past the king to the ace).
    """
    if not cards:
        raise IllegalMoveError(N_("Choose at least one card to lay off"))
    twice = _duplicate(cards)
    if twice is not None:
        raise IllegalMoveError(N_("{card} is named twice"), card=twice)
    for card in cards:
        if card in meld.cards:
            raise IllegalMoveError(N_("{card} is already in that meld"), card=card)
    shown = sorted(cards, key=rank_key)
    onto = meld.cards
    if meld.kind is MeldKind.SET:
        if any(c.rank != meld.cards[0].rank for c in cards):
            raise IllegalMoveError(
                N_("{cards} cannot go on {meld}: a set is cards of one rank"),
                cards=shown,
                meld=onto,
            )
        return Meld(MeldKind.SET, tuple(sorted((*meld.cards, *cards), key=suit_key)))
    if any(c.suit != meld.cards[0].suit for c in cards):
        raise IllegalMoveError(
            N_("{cards} cannot go on {meld}: a run is one suit"), cards=shown, meld=onto
        )
    ordered, problem = _order_run((*meld.cards, *cards), rules)
    if problem is not None:
        raise IllegalMoveError(_CANNOT_GO_ON[problem], cards=shown, meld=onto)
    return Meld(MeldKind.RUN, ordered)


def fits_meld(meld: Meld, cards: Sequence[Card], rules: HouseRules) -> bool:
    """Whether ``extend_meld`` would accept these cards (house rule ``ace``)."""
    try:
        extend_meld(meld, cards, rules)
    except IllegalMoveError:
        return False
    return True


def _by_suit(hand: Sequence[Card]) -> dict[Suit, dict[int, Card]]:
    """The cards of ``hand`` by suit, then by rank."""
    table: dict[Suit, dict[int, Card]] = {}
    for card in hand:
        table.setdefault(card.suit, {})[card.rank] = card
    return table


def meld_options(hand: Sequence[Card], rules: HouseRules) -> list[tuple[Card, ...]]:
    """Every group of cards in ``hand`` that is a valid new meld, each in table order.

    Sets: every 3 cards of a rank, and all 4. Runs: every stretch of 3 or more
    consecutive cards of a suit; under house rule ``ace = high_or_low`` the ace also
    counts after the king (never both ends at once: K-A-2 is no run).
    """
    options: list[tuple[Card, ...]] = []
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(hand, key=rank_key):
        by_rank.setdefault(card.rank, []).append(card)
    for group in by_rank.values():
        if len(group) >= 3:
            options.extend(itertools.combinations(group, 3))
            if len(group) == 4:
                options.append(tuple(group))
    ace_high = rules.ace is AceRule.HIGH_OR_LOW
    by_suit = _by_suit(hand)
    for suit in SUIT_ORDER:
        held = by_suit.get(suit)
        if held is None or len(held) < 3:
            continue
        values = sorted(held)
        if ace_high and 1 in held:
            values.append(14)
        block: list[int] = []
        for value in [*values, 99]:
            if block and value == block[-1] + 1:
                block.append(value)
                continue
            for i in range(len(block) - 2):
                for j in range(i + 3, len(block) + 1):
                    if block[i] == 1 and block[j - 1] == 14:
                        continue  # the same ace at both ends
                    if block[j - 1] == 14 and j - i == 13:
                        continue  # all 13 cards: already listed with the ace low
                    options.append(tuple(held[v if v <= 13 else 1] for v in block[i:j]))
            block = [value]
    return options


def lay_off_options(
    hand: Sequence[Card], melds: Sequence[Meld], rules: HouseRules
) -> list[tuple[tuple[Card, ...], int]]:
    """Every (cards, meld index) lay-off the rules allow from ``hand``.

    A set of 3 takes its 4th card. A run takes a stretch of cards continuing it below,
    above, or both at once; the ace may follow the king only under house rule
    ``ace = high_or_low``. Cards are listed in run order.
    """
    options: list[tuple[tuple[Card, ...], int]] = []
    by_suit = _by_suit(hand)
    top = 14 if rules.ace is AceRule.HIGH_OR_LOW else 13
    for index, meld in enumerate(melds):
        first = meld.cards[0]
        if meld.kind is MeldKind.SET:
            if len(meld.cards) < 4:
                for suit in SUIT_ORDER:
                    card = by_suit.get(suit, {}).get(first.rank)
                    if card is not None:
                        options.append(((card,), index))
            continue
        held = by_suit.get(first.suit)
        if not held:
            continue
        low_end = first.rank
        high_end = 14 if meld.ace_high else meld.cards[-1].rank
        below: list[Card] = []
        value = low_end - 1
        while value >= 1 and value in held:
            below.append(held[value])
            value -= 1
        above: list[Card] = []
        value = high_end + 1
        while value <= top and (value if value <= 13 else 1) in held:
            above.append(held[value if value <= 13 else 1])
            value += 1
        seen: set[frozenset[Card]] = set()
        for a in range(len(below) + 1):
            for b in range(len(above) + 1):
                if a == 0 and b == 0:
                    continue
                cards = (*reversed(below[:a]), *above[:b])
                key = frozenset(cards)
                # The ace can end both chains (a run from 2 to K); it is still one card.
                if len(key) != len(cards) or key in seen:
                    continue
                seen.add(key)
                options.append((cards, index))
    return options
