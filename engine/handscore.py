"""Scoring a hand by its best split into melds, lay-offs and near-melds.

The computer players that think (``hard`` in ``engine.ai``, ``expert`` in
``engine.expert``) judge a hand the same way: every card is either in a meld, laid
off onto a table meld, in a near-meld that unseen cards could complete, or alone. The
best split is searched exactly over bit masks, so scoring the hand minus each possible
discard shares almost all the work. Which cards are *live* (could still be drawn) is
the caller's business: that is where what a player knows comes in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action, Discard, LayOff, MeldCards
from engine.cards import SUIT_ORDER, Card, full_deck
from engine.melds import Meld, MeldKind, lay_off_options, meld_options
from engine.rules import AceRule, GoOut, HouseRules, MeldsPerTurn
from engine.view import HandView

__all__ = [
    "ALL_CARDS",
    "KIND_LAY_OFF",
    "KIND_MELD",
    "KIND_NEAR",
    "SUIT_INDEX",
    "Evaluator",
    "Group",
    "HardWeights",
    "cid",
]


@dataclass(frozen=True, slots=True)
class HardWeights:
    """The knobs of the hard player, tuned by playing ``python -m engine.arena``.

    Hand score: a card in a meld or a lay-off is worth ``matched``; a near-meld (two
    cards one card short of a meld, or three cards waiting two ways) ``near`` per unseen
    card that would complete it; a card alone ``single`` per unseen card next to it.
    Every point not in a meld costs ``points`` (``endgame_points`` times as much when
    the hand may end with everyone counting, or an opponent is about to go out).
    ``near`` must stay well below ``matched``: a hand that can go out always scores
    highest. A discard costs ``danger`` times the chance the next player holds two
    cards that meld with it (``lay_off_danger`` if it fits a table meld). The discard
    is taken when it raises the score by more than ``take_threshold``. Melds are held
    back while every opponent holds more than ``hold_min_opponent_cards`` cards
    (``..._multi`` with 3 or more players).
    """

    matched: float = 10.0
    near: float = 3.0
    single: float = 0.05
    points: float = 0.05
    endgame_points: float = 4.0
    danger: float = 10.0
    lay_off_danger: float = 6.0
    take_threshold: float = 2.0
    hold_min_opponent_cards: int = 3
    hold_min_opponent_cards_multi: int = 1


SUIT_INDEX: dict[object, int] = {suit: i for i, suit in enumerate(SUIT_ORDER)}
KIND_MELD = 0
KIND_LAY_OFF = 1
KIND_NEAR = 2


ALL_CARDS: tuple[Card, ...] = tuple(full_deck())


def cid(card: Card) -> int:
    """A number 0..51 for the card, so sets of cards can be bit masks."""
    return SUIT_INDEX[card.suit] * 13 + card.rank - 1


@dataclass(frozen=True, slots=True)
class Group:
    mask: int  # bits over the evaluator's cards
    value: float
    kind: int
    cards: tuple[Card, ...]
    meld: int  # table meld index for a lay-off

    @property
    def played(self) -> tuple[Card, ...]:
        """The cards of the group that can go on the table now."""
        return () if self.kind == KIND_NEAR else self.cards


class Evaluator:
    """Scores every sub-hand of a small set of cards by its best split into groups.

    Groups are melds, lay-offs onto table melds and near-melds; a card in no group is
    scored alone. The best split of a sub-hand (a bit mask over ``cards``) is found by
    branching on its lowest card, memoised, so scoring the hand minus each possible
    discard shares almost all the work.
    """

    __slots__ = (
        "ace_high",
        "by_low",
        "cards",
        "index",
        "live",
        "memo",
        "points",
        "rules",
        "single",
        "weights",
    )

    def __init__(
        self,
        cards: Sequence[Card],
        melds: Sequence[Meld],
        rules: HouseRules,
        live: int,
        weights: HardWeights,
        points_weight: float,
    ) -> None:
        self.cards = list(cards)
        self.rules = rules
        self.live = live
        self.weights = weights
        self.ace_high = rules.ace is AceRule.HIGH_OR_LOW
        self.memo: dict[int, tuple[float, Group | None]] = {0: (0.0, None)}
        self.index = {card: i for i, card in enumerate(self.cards)}
        self.points = [c.points(rules) for c in self.cards]
        self.by_low: list[list[Group]] = [[] for _ in self.cards]
        by_suit: dict[int, dict[int, Card]] = {}
        for card in self.cards:
            by_suit.setdefault(SUIT_INDEX[card.suit], {})[card.rank] = card
        # The order groups are added in decides between splits of equal value.
        self._add_melds_and_lay_offs(melds)
        self._add_near_melds(self._waits(by_suit), points_weight)
        self._add_table_run_waits(melds, by_suit, points_weight)
        self.single = self._single_values(points_weight)

    def _add(self, group_cards: Sequence[Card], value: float, kind: int, meld: int = -1) -> None:
        """File a group under its lowest card, where ``best`` looks for it."""
        mask = 0
        for card in group_cards:
            mask |= 1 << self.index[card]
        low = (mask & -mask).bit_length() - 1
        self.by_low[low].append(Group(mask, value, kind, tuple(group_cards), meld))

    def _add_melds_and_lay_offs(self, melds: Sequence[Meld]) -> None:
        """Every meld the cards make and every lay-off onto the table: ``matched`` a card."""
        matched = self.weights.matched
        # A hair less per new meld: of two equal splits, the one with fewer melds to put
        # down wins (it matters under house rule melds_per_turn = one).
        for group in meld_options(self.cards, self.rules):
            self._add(group, matched * len(group) - 0.01, KIND_MELD)
        for group, meld_index in lay_off_options(self.cards, melds, self.rules):
            self._add(group, matched * len(group), KIND_LAY_OFF, meld_index)

    def _waits(self, by_suit: dict[int, dict[int, Card]]) -> list[tuple[Card, Card, int]]:
        """Two cards one card short of a meld, with the mask of the unseen cards that
        would complete them: a pair of a rank, or two cards of a suit at most one apart."""
        by_rank: dict[int, list[Card]] = {}
        for card in self.cards:
            by_rank.setdefault(card.rank, []).append(card)
        waits: list[tuple[Card, Card, int]] = []
        for rank, same in by_rank.items():
            if len(same) < 2:
                continue
            outs = 0
            for s in range(4):
                outs |= self.live_bit(rank, s)
            if outs == 0:
                continue
            for i, a in enumerate(same):
                for b in same[i + 1 :]:
                    waits.append((a, b, outs))
        for suit, held in by_suit.items():
            ranks = sorted(held)
            if self.ace_high and 1 in held:
                ranks.append(14)
            for i, low in enumerate(ranks):
                for high in ranks[i + 1 :]:
                    gap = high - low
                    if gap > 2 or (low == 1 and high == 14):
                        continue
                    if gap == 1:
                        outs = self.live_bit(low - 1, suit) | self.live_bit(high + 1, suit)
                    else:
                        outs = self.live_bit(low + 1, suit)
                    if outs:
                        waits.append((held[low], held[high if high <= 13 else 1], outs))
        return waits

    def _add_near_melds(self, waits: list[tuple[Card, Card, int]], points_weight: float) -> None:
        """Near-melds: ``near`` per unseen card that would complete them, less their points."""
        near = self.weights.near
        points, index = self.points, self.index
        for a, b, outs in waits:
            cost = points_weight * (points[index[a]] + points[index[b]])
            self._add((a, b), near * outs.bit_count() - cost, KIND_NEAR)
        # Three cards that wait two ways at once (a pair and a suited neighbour of one of
        # them, or 5 6 8 of a suit): each way keeps its own chances.
        for i, (a, b, outs) in enumerate(waits):
            for c, d, more in waits[i + 1 :]:
                shared = {a, b} & {c, d}
                if len(shared) != 1:
                    continue
                trio = (a, b, d if c in shared else c)
                cost = points_weight * sum(points[index[x]] for x in trio)
                self._add(trio, near * (outs | more).bit_count() - cost, KIND_NEAR)

    def _add_table_run_waits(
        self, melds: Sequence[Meld], by_suit: dict[int, dict[int, Card]], points_weight: float
    ) -> None:
        """A card two steps from the end of a table run waits for the card between."""
        near = self.weights.near
        for meld in melds:
            if meld.kind is not MeldKind.RUN:
                continue
            suit = SUIT_INDEX[meld.cards[0].suit]
            suited = by_suit.get(suit)
            if not suited:
                continue
            low_end = meld.cards[0].rank
            high_end = 14 if meld.ace_high else meld.cards[-1].rank
            for target, between in ((low_end - 2, low_end - 1), (high_end + 2, high_end + 1)):
                waiting = suited.get(target if target != 14 else 1) if 1 <= target <= 14 else None
                if waiting is None or (target == 14 and not self.ace_high):
                    continue
                if self.is_live(between, suit):
                    cost = points_weight * self.points[self.index[waiting]]
                    self._add((waiting,), near - cost, KIND_NEAR)

    def _single_values(self, points_weight: float) -> list[float]:
        """Each card scored alone: ``single`` per unseen card next to it, less its points."""
        single = self.weights.single
        values: list[float] = []
        for card, value in zip(self.cards, self.points, strict=True):
            suit = SUIT_INDEX[card.suit]
            r = card.rank
            around = sum(self.is_live(r, s) for s in range(4) if s != suit)
            around += sum(self.is_live(r + d, suit) for d in (-2, -1, 1, 2))
            if self.ace_high and r == 1:
                around += self.is_live(13, suit) + self.is_live(12, suit)
            values.append(single * around - points_weight * value)
        return values

    def live_bit(self, rank: int, suit: int) -> int:
        """That card's bit in the 52-card mask when it is unseen, else 0. Rank 14 is the
        ace played above the king (only under house rule ``ace = high_or_low``); ranks
        off either end (K-A-2 never runs) are never live."""
        if rank == 14:
            if not self.ace_high:
                return 0
            rank = 1
        if not 1 <= rank <= 13:
            return 0
        return self.live & (1 << (suit * 13 + rank - 1))

    def is_live(self, rank: int, suit: int) -> int:
        """1 when that card is unseen (could still be drawn), else 0."""
        return 1 if self.live_bit(rank, suit) else 0

    def best(self, mask: int) -> float:
        """The score of the best split of ``mask``: its lowest card either scored alone
        or in one of the groups it starts, plus the best split of what is left."""
        found = self.memo.get(mask)
        if found is not None:
            return found[0]
        low_bit = mask & -mask
        low = low_bit.bit_length() - 1
        rest = mask ^ low_bit
        best_value = self.single[low] + self.best(rest)
        choice: Group | None = None
        for group in self.by_low[low]:
            if group.mask & ~mask:
                continue
            value = group.value + self.best(mask & ~group.mask)
            if value > best_value:
                best_value = value
                choice = group
        self.memo[mask] = (best_value, choice)
        return best_value

    def split(self, mask: int) -> list[Group]:
        """The groups of the best split of ``mask`` (cards scored alone are left out)."""
        self.best(mask)
        groups: list[Group] = []
        while mask:
            _, choice = self.memo[mask]
            if choice is None:
                mask &= mask - 1  # the lowest card was best left alone
            else:
                groups.append(choice)
                mask &= ~choice.mask
        return groups

    def bit(self, card: Card) -> int:
        """The card's bit in this evaluator's masks."""
        return 1 << self.cards.index(card)


def action_for(group: Group, legal: Sequence[Action]) -> Action | None:
    """The legal move that puts the group's playable cards down, if there is one."""
    wanted = frozenset(group.played)
    if not wanted:
        return None
    for action in legal:
        if group.kind == KIND_LAY_OFF:
            if (
                isinstance(action, LayOff)
                and action.meld == group.meld
                and frozenset(action.cards) == wanted
            ):
                return action
        elif isinstance(action, MeldCards) and frozenset(action.cards) == wanted:
            return action
    return None


def going_out(
    evaluator: Evaluator,
    view: HandView,
    scored: Sequence[tuple[float, object, Card]],
) -> Action | None:
    """The next step of going out this turn, if the hand can go out: going out
    wins the hand, so both strong players look for it first. ``scored``: the
    possible discards, best first, each card last in its tuple."""
    legal = view.legal
    rules = view.rules
    hand = view.hand
    full = (1 << len(hand)) - 1
    melds_left = (
        1 - view.melded_this_turn if rules.melds_per_turn is MeldsPerTurn.ONE else len(hand)
    )

    def goes_out(mask: int) -> list[Group] | None:
        groups = evaluator.split(mask)
        covered = 0
        new_melds = 0
        for group in groups:
            if group.kind == KIND_NEAR:
                return None
            covered |= group.mask
            new_melds += group.kind == KIND_MELD
        if covered != mask or new_melds > melds_left:
            return None
        return groups

    plan: list[Group] | None = None
    throw: Card | None = None
    if rules.go_out is GoOut.ANY:
        plan = goes_out(full)
    if plan is None:
        for *_, card in scored:
            plan = goes_out(full & ~evaluator.bit(card))
            if plan is not None:
                throw = card
                break
    if plan is None:
        return None
    # The group holding the card taken from the pile goes first, so no step ever
    # leaves that card alone in the hand.
    taken = view.may_not_discard
    plan.sort(key=lambda g: (taken not in g.cards, -len(g.cards)))
    for group in plan:
        action = action_for(group, legal)
        if action is not None:
            return action
    return None if throw is None else Discard(throw)
