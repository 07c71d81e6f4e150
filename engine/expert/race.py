"""How soon a hand can go out: its targets, and a look-ahead over the next draws.

A hand goes out when every card it keeps sits in a meld, new or laid off onto the
table. A *target* is one way to get there: melds built from the hand's own cards and
cards that can still be drawn, as many cards as the hand will hold (one more when it
may go out by melding everything). What the hand still lacks for a target is that
target's *missing* cards; the fewest it lacks over all targets is how many draws
it needs at best. ``RaceSearch`` finds the targets of a hand and of the hand less each
card it could throw away.

Which target comes first depends on the draws. ``Futures`` holds sampled orders of
the seat's next stock draws and scores a set of targets by how soon, on each sample,
the first of them would be whole. A hand's value is the average of ``decay`` to the
power of that number of draws: with ``decay`` the chance that no opponent goes out
in a round, it is roughly the chance of going out first.

Cards are bits of a 52-bit mask (``engine.handscore.cid``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.cards import Card
from engine.handscore import SUIT_INDEX, cid
from engine.melds import Meld, MeldKind
from engine.rules import AceRule

__all__ = ["Futures", "RaceSearch", "templates"]

MAX_RUN = 10
"""Longer runs than this never fit in a hand, so they are not targets."""


def _bit(rank: int, suit: int) -> int:
    """The card's bit; rank 14 is the ace above the king."""
    return 1 << (suit * 13 + (1 if rank == 14 else rank) - 1)


@cache
def templates(ace_high: bool) -> tuple[int, ...]:
    """Every meld as a card mask: sets of 3 and 4, and runs of 3 up to ``MAX_RUN``."""
    found: list[int] = []
    for rank in range(1, 14):
        suits = [_bit(rank, s) for s in range(4)]
        whole = sum(suits)
        found.append(whole)
        found.extend(whole ^ one for one in suits)
    top = 14 if ace_high else 13
    for suit in range(4):
        for low in range(1, top - 1):
            mask = 0
            for rank in range(low, min(top, low + MAX_RUN - 1) + 1):
                mask |= _bit(rank, suit)
                if rank - low >= 2:
                    found.append(mask)
    return tuple(found)


def _table_extensions(melds: Sequence[Meld], ace_high: bool) -> list[int]:
    """What could be laid off onto the table melds, as masks: the missing card of a set
    of three, and the cards next to each end of a run one, two, three... deep (a card
    further out needs those between it and the run)."""
    found: list[int] = []
    for meld in melds:
        if meld.kind is MeldKind.SET:
            if len(meld.cards) == 3:
                held = {SUIT_INDEX[c.suit] for c in meld.cards}
                found.extend(_bit(meld.cards[0].rank, s) for s in range(4) if s not in held)
            continue
        suit = SUIT_INDEX[meld.cards[0].suit]
        low = meld.cards[0].rank
        high = 14 if meld.ace_high else meld.cards[-1].rank
        mask = 0
        for rank in range(low - 1, 0, -1):
            mask |= _bit(rank, suit)
            found.append(mask)
        # An ace below the run's 2 cannot also go above its king.
        top = 14 if ace_high and low != 1 else 13
        mask = 0
        for rank in range(high + 1, top + 1):
            mask |= _bit(rank, suit)
            found.append(mask)
    return found


class RaceSearch:
    """The targets of a hand, and of the hand less any one card.

    One search over all of ``cards`` finds every target within reach, each with the
    cards of the hand it leaves out; the hand less card ``c`` can aim at exactly the
    targets that leave ``c`` out.
    """

    __slots__ = ("_by_card", "_cap", "_found", "_keep", "_spare")

    def __init__(
        self,
        cards: Sequence[Card],
        live: int,
        melds: Sequence[Meld],
        ace: AceRule,
        keep: int,
        *,
        go_out_melding_all: bool,
        slack: int,
        most: int,
    ) -> None:
        """``live``: the cards that can still be drawn; ``keep``: how many cards the
        hand holds after its discard. Targets are looked for up to ``slack`` draws
        beyond the nearest, and never beyond ``most`` draws."""
        hand = 0
        for card in cards:
            hand |= 1 << cid(card)
        self._keep = keep
        self._spare = len(cards) - keep
        reachable = hand | live
        ace_high = ace is AceRule.HIGH_OR_LOW
        # Each meld that uses a card of the hand, filed under its lowest such card: the
        # search settles the hand's cards lowest first.
        self._by_card: dict[int, list[tuple[int, int, int, int]]] = {}
        for meld in (*templates(ace_high), *_table_extensions(melds, ace_high)):
            mine = meld & hand
            if not mine or meld & ~reachable or (meld & ~hand).bit_count() > most:
                continue
            self._by_card.setdefault(mine & -mine, []).append(
                (meld, mine, meld & ~hand, meld.bit_count())
            )
        sizes = (keep, keep + 1) if go_out_melding_all else (keep,)
        # (cards of the hand left out, missing cards) of every target found
        self._found: list[tuple[int, int]] = []
        # Deepen one draw at a time: near targets are cheap to find, far ones are not.
        self._cap = 0
        while not self._found and self._cap < most:
            self._cap += 1
            self._search(hand, 0, 0, 0, 0, 0, sizes)
        if self._found and slack:
            self._cap = min(most, self._cap + slack)
            self._found.clear()
            self._search(hand, 0, 0, 0, 0, 0, sizes)

    def _search(
        self,
        undecided: int,
        used: int,
        left_out: int,
        left_out_count: int,
        size: int,
        missing: int,
        sizes: tuple[int, ...],
    ) -> None:
        """Settle the lowest undecided card of the hand: left out, or in a meld with
        other undecided cards and cards still to draw."""
        if not undecided:
            if size in sizes:
                self._found.append((left_out, missing))
            return
        low = undecided & -undecided
        # A target of ``keep`` cards lacking n of them leaves out n + spare cards.
        if left_out_count < self._spare + self._cap:
            self._search(
                undecided ^ low, used, left_out | low, left_out_count + 1, size, missing, sizes
            )
        for meld, mine, needed, length in self._by_card.get(low, ()):
            if meld & used or mine & ~undecided:
                continue
            grown = missing | needed
            if grown.bit_count() > self._cap or size + length > self._keep + 1:
                continue
            rest = undecided & ~mine
            self._search(rest, used | meld, left_out, left_out_count, size + length, grown, sizes)

    @property
    def found(self) -> bool:
        """Whether any target lies within reach."""
        return bool(self._found)

    def targets_without(self, card: Card) -> list[int]:
        """The missing cards of each target of the hand less ``card``."""
        bit = 1 << cid(card)
        return list({missing for left_out, missing in self._found if left_out & bit})

    def targets_whole(self) -> list[int]:
        """The missing cards of each target of the whole hand (it draws before it throws
        a card away)."""
        return list({missing for _, missing in self._found})


class Futures:
    """Sampled orders of a seat's next stock draws, kept bit-sliced.

    For each card and each draw ``k`` there is a set of samples (one bit each): those in
    which the card has come by draw ``k``. A target is whole by draw ``k`` in the
    samples where all its missing cards have come, an AND over them, so one operation
    scores every sample at once.
    """

    __slots__ = ("_arrived", "_whole", "count", "horizon")

    def __init__(self, orders: Sequence[Sequence[int]], horizon: int) -> None:
        """``orders``: per sample, card numbers in the order the draws would bring them."""
        self.count = len(orders)
        self.horizon = horizon
        arrived = [[0] * horizon for _ in range(52)]
        for sample, order in enumerate(orders):
            for draw, card in enumerate(order[:horizon]):
                arrived[card][draw] |= 1 << sample
        for row in arrived:
            for k in range(1, horizon):
                row[k] |= row[k - 1]
        self._arrived = arrived
        self._whole: dict[int, list[int]] = {}

    def _whole_by(self, target: int) -> list[int]:
        """Per draw, the samples in which every card of ``target`` has come."""
        found = self._whole.get(target)
        if found is None:
            found = [(1 << self.count) - 1] * self.horizon
            mask = target
            while mask:
                low = mask & -mask
                row = self._arrived[low.bit_length() - 1]
                found = [a & b for a, b in zip(found, row, strict=True)]
                mask ^= low
            self._whole[target] = found
        return found

    def value(self, targets: Sequence[int], spent: int, decay: float) -> float:
        """The average over the samples of ``decay`` to the power of the draws until
        some target is whole, after ``spent`` draws already made; a sample in which
        none is whole within the horizon counts 0."""
        if not self.count or not targets:
            return 0.0
        if 0 in targets:
            return float(decay**spent)
        done = [0] * self.horizon
        for target in targets:
            done = [a | b for a, b in zip(done, self._whole_by(target), strict=True)]
        total = 0.0
        before = 0
        weight = decay ** (spent + 1)
        for now in done:
            total += weight * (now & ~before).bit_count()
            before = now
            weight *= decay
        return total / self.count
