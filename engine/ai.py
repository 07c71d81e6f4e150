"""Computer players: pick the next move from what one seat is allowed to know.

Everything here reads a ``HandView`` and nothing else: the player's own cards, how
many cards the others hold, the melds on the table, the discard pile, the size of the
stock and the house rules. No function ever sees another hand or the order of the
stock, so a computer seat cannot cheat. Every move returned is one of ``view.legal``.

Levels:

* ``random``: any legal move, but in the play phase it mostly discards, so its hands end.
* ``easy``: draws from the stock unless the top discard makes a meld with its cards,
  puts down every meld it can (longest first), lays off what it can and discards its
  highest card that belongs to no possible meld.
* ``hard``: scores a hand by its best split into melds (and lay-offs onto the table),
  near-melds (pairs, suited neighbours, cards waiting two ways) worth more the more of
  the cards that would complete them are still unseen (not in its hand, the discard
  pile or the table melds), and left-over points. It takes the discard only when that
  score rises clearly, throws the card whose loss costs least while avoiding what the
  next player could meld or lay off, goes out as soon as it can, and otherwise holds
  its melds back (a rummy under ``rummy_bonus = double``, no lay-off spots for the
  others) until an opponent is close to going out or the stock is about to run dry.

``timeout_action`` is what the bot plays for someone whose turn timer ran out: a
draw from the stock and a discard of the highest unmatched card, never a meld.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.actions import Action, Discard, DrawStock, LayOff, MeldCards, TakeDiscard
from engine.cards import SUIT_ORDER, Card, full_deck
from engine.errors import RummyError
from engine.limits import MAX_RESHUFFLES, MAX_TURN_OVERS
from engine.melds import Meld, MeldKind, lay_off_options, meld_options
from engine.rules import AceRule, EmptyStock, GoOut, HouseRules, MeldsPerTurn
from engine.state import Phase
from engine.view import HandView

__all__ = ["HardWeights", "Level", "choose_action", "timeout_action"]


class Level(StrEnum):
    """How well a computer seat plays."""

    RANDOM = "random"
    EASY = "easy"
    HARD = "hard"


def choose_action(view: HandView, level: Level | str, rng: random.Random) -> Action:
    """The next single move for ``view.player``, who must be on turn.

    Called once per move (draw, each meld or lay-off, then the discard) with a fresh
    view each time. The result is always an element of ``view.legal``, and the same
    view with a generator in the same state gives the same move.
    """
    try:
        chosen = Level(level)
    except ValueError:
        raise RummyError(f"unknown computer level {level!r}: use random, easy or hard") from None
    _check_on_turn(view)
    if chosen is Level.RANDOM:
        return _random_action(view, rng)
    if chosen is Level.EASY:
        return _easy_action(view)
    return _hard_action(view, HARD)


def timeout_action(view: HandView) -> Action:
    """The move the bot makes for a player whose turn timer ran out.

    Before drawing: draw from the stock (take the discard only if the stock draw is not
    allowed). After drawing: discard the highest-value card that belongs to no possible
    meld; never meld or lay off. If no discard is allowed at all, the first legal move.
    """
    _check_on_turn(view)
    legal = view.legal
    if view.phase is Phase.DRAW:
        for wanted in (DrawStock(), TakeDiscard()):
            if wanted in legal:
                return wanted
        return legal[0]
    discard = _highest_unmatched_discard(view)
    return Discard(discard) if discard is not None else legal[0]


def _check_on_turn(view: HandView) -> None:
    if view.player is None or view.turn != view.player or not view.legal:
        raise RummyError("a computer player can only move when it is its turn")


# --- helpers shared by the levels ------------------------------------------------------
def _discard_order(card: Card, rules: HouseRules) -> tuple[int, int, int]:
    """Which card goes first when several are equally bad: most points, then the higher
    rank (ace low), then suit order. Fixed, so the choice never depends on chance."""
    return (card.points(rules), card.rank, SUIT_ORDER.index(card.suit))


def _unmatched(view: HandView) -> set[Card]:
    """The viewer's cards that are in no meld the hand could make and fit no table meld."""
    hand = view.hand
    matched: set[Card] = set()
    for cards in meld_options(hand, view.rules):
        matched.update(cards)
    for cards, _ in lay_off_options(hand, [m.meld for m in view.melds], view.rules):
        matched.update(cards)
    return set(hand) - matched


def _highest_unmatched_discard(view: HandView) -> Card | None:
    """The legal discard of highest value among unmatched cards, else among all cards."""
    allowed = [a.card for a in view.legal if isinstance(a, Discard)]
    if not allowed:
        return None
    unmatched = _unmatched(view)
    pool = [c for c in allowed if c in unmatched] or allowed
    return max(pool, key=lambda c: _discard_order(c, view.rules))


# --- random ------------------------------------------------------------------------------
RANDOM_DISCARD_CHANCE = 0.85
"""In the play phase the random player discards with this chance, so its turns end."""


def _random_action(view: HandView, rng: random.Random) -> Action:
    legal = view.legal
    if view.phase is Phase.PLAY and rng.random() < RANDOM_DISCARD_CHANCE:
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return rng.choice(discards)
    return rng.choice(legal)


# --- easy --------------------------------------------------------------------------------
def _easy_action(view: HandView) -> Action:
    """Sensible but short-sighted: take the discard only when it makes a meld now, put
    every meld down at once (the longest first), lay off everything it can, and throw
    away the highest unmatched card."""
    legal = view.legal
    if view.phase is Phase.DRAW:
        top = view.discard_top
        if (
            top is not None
            and TakeDiscard() in legal
            and any(top in cards for cards in meld_options((*view.hand, top), view.rules))
        ):
            return TakeDiscard()
        return DrawStock() if DrawStock() in legal else legal[0]
    rules = view.rules
    melds = [a for a in legal if isinstance(a, MeldCards)]
    if melds:
        return max(melds, key=lambda a: (len(a.cards), sum(c.points(rules) for c in a.cards)))
    lay_offs = [a for a in legal if isinstance(a, LayOff)]
    if lay_offs:
        return max(lay_offs, key=lambda a: len(a.cards))
    discard = _highest_unmatched_discard(view)
    return Discard(discard) if discard is not None else legal[0]


# --- hard --------------------------------------------------------------------------------
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


HARD = HardWeights()

_SUIT_INDEX: dict[object, int] = {suit: i for i, suit in enumerate(SUIT_ORDER)}
_KIND_MELD = 0
_KIND_LAY_OFF = 1
_KIND_NEAR = 2


_ALL_CARDS: tuple[Card, ...] = tuple(full_deck())


def _cid(card: Card) -> int:
    """A number 0..51 for the card, so sets of cards can be bit masks."""
    return _SUIT_INDEX[card.suit] * 13 + card.rank - 1


def _seen_mask(view: HandView) -> int:
    mask = 0
    for card in view.hand:
        mask |= 1 << _cid(card)
    for card in view.discard_pile:
        mask |= 1 << _cid(card)
    for table_meld in view.melds:
        for card in table_meld.cards:
            mask |= 1 << _cid(card)
    return mask


@dataclass(frozen=True, slots=True)
class _Group:
    mask: int  # bits over the evaluator's cards
    value: float
    kind: int
    cards: tuple[Card, ...]
    meld: int  # table meld index for a lay-off

    @property
    def played(self) -> tuple[Card, ...]:
        """The cards of the group that can go on the table now."""
        return () if self.kind == _KIND_NEAR else self.cards


class _Evaluator:
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
        self.memo: dict[int, tuple[float, _Group | None]] = {0: (0.0, None)}
        self.index = {card: i for i, card in enumerate(self.cards)}
        self.points = [c.points(rules) for c in self.cards]
        self.by_low: list[list[_Group]] = [[] for _ in self.cards]
        by_suit: dict[int, dict[int, Card]] = {}
        for card in self.cards:
            by_suit.setdefault(_SUIT_INDEX[card.suit], {})[card.rank] = card
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
        self.by_low[low].append(_Group(mask, value, kind, tuple(group_cards), meld))

    def _add_melds_and_lay_offs(self, melds: Sequence[Meld]) -> None:
        """Every meld the cards make and every lay-off onto the table: ``matched`` a card."""
        matched = self.weights.matched
        # A hair less per new meld: of two equal splits, the one with fewer melds to put
        # down wins (it matters under house rule melds_per_turn = one).
        for group in meld_options(self.cards, self.rules):
            self._add(group, matched * len(group) - 0.01, _KIND_MELD)
        for group, meld_index in lay_off_options(self.cards, melds, self.rules):
            self._add(group, matched * len(group), _KIND_LAY_OFF, meld_index)

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
            self._add((a, b), near * outs.bit_count() - cost, _KIND_NEAR)
        # Three cards that wait two ways at once (a pair and a suited neighbour of one of
        # them, or 5 6 8 of a suit): each way keeps its own chances.
        for i, (a, b, outs) in enumerate(waits):
            for c, d, more in waits[i + 1 :]:
                shared = {a, b} & {c, d}
                if len(shared) != 1:
                    continue
                trio = (a, b, d if c in shared else c)
                cost = points_weight * sum(points[index[x]] for x in trio)
                self._add(trio, near * (outs | more).bit_count() - cost, _KIND_NEAR)

    def _add_table_run_waits(
        self, melds: Sequence[Meld], by_suit: dict[int, dict[int, Card]], points_weight: float
    ) -> None:
        """A card two steps from the end of a table run waits for the card between."""
        near = self.weights.near
        for meld in melds:
            if meld.kind is not MeldKind.RUN:
                continue
            suit = _SUIT_INDEX[meld.cards[0].suit]
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
                    self._add((waiting,), near - cost, _KIND_NEAR)

    def _single_values(self, points_weight: float) -> list[float]:
        """Each card scored alone: ``single`` per unseen card next to it, less its points."""
        single = self.weights.single
        values: list[float] = []
        for card, value in zip(self.cards, self.points, strict=True):
            suit = _SUIT_INDEX[card.suit]
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
        choice: _Group | None = None
        for group in self.by_low[low]:
            if group.mask & ~mask:
                continue
            value = group.value + self.best(mask & ~group.mask)
            if value > best_value:
                best_value = value
                choice = group
        self.memo[mask] = (best_value, choice)
        return best_value

    def split(self, mask: int) -> list[_Group]:
        """The groups of the best split of ``mask`` (cards scored alone are left out)."""
        self.best(mask)
        groups: list[_Group] = []
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


def _endgame(view: HandView) -> bool:
    """Whether the hand may soon end with nobody out, so points in hand decide it
    (house rule ``empty_stock``: no rebuild of the stock is left)."""
    if view.rules.empty_stock is EmptyStock.RESHUFFLE:
        rebuilds_left = MAX_RESHUFFLES - view.stock_exhaustions
    else:
        rebuilds_left = MAX_TURN_OVERS - view.stock_exhaustions
    return rebuilds_left <= 0 and view.stock_size <= 2 * len(view.players)


def _stock_draw_ends_hand(view: HandView) -> bool:
    """Whether drawing from the stock now ends the hand with nobody out (house rule
    ``empty_stock``: no rebuild left, or too few cards in the pile to rebuild it)."""
    if view.stock_size > 0:
        return False
    if view.rules.empty_stock is EmptyStock.RESHUFFLE:
        return view.stock_exhaustions >= MAX_RESHUFFLES or len(view.discard_pile) < 2
    return view.stock_exhaustions >= MAX_TURN_OVERS or not view.discard_pile


def _likely_lowest(view: HandView, live: int) -> bool:
    """Whether our count in hand is probably the lowest: each opponent is guessed to
    hold cards of the average value of the cards we have not seen."""
    rules = view.rules
    unseen = [c for c in _ALL_CARDS if (live >> _cid(c)) & 1]
    average = sum(c.points(rules) for c in unseen) / len(unseen) if unseen else 5.0
    mine = sum(c.points(rules) for c in view.hand)
    guess = min((n * average for n in _opponent_counts(view)), default=0.0)
    return mine < 0.75 * guess


def _opponent_counts(view: HandView) -> list[int]:
    return [n for p, n in view.card_counts.items() if p != view.player]


def _points_weight(view: HandView, weights: HardWeights) -> float:
    if _endgame(view) or min(_opponent_counts(view), default=99) <= 2:
        return weights.points * weights.endgame_points
    return weights.points


def _next_player_cards(view: HandView) -> int:
    players = view.players
    assert view.player is not None
    return view.card_counts.get(players[(players.index(view.player) + 1) % len(players)], 0)


def _danger(card: Card, view: HandView, live: int, weights: HardWeights) -> float:
    """How much a discard may help the next player: a card that fits a table meld is
    an easy lay-off; otherwise the chance they hold two cards that meld with it."""
    melds = [m.meld for m in view.melds]
    if melds and lay_off_options((card,), melds, view.rules):
        return weights.lay_off_danger
    unseen = live.bit_count()
    if unseen == 0:
        return 0.0
    p = min(1.0, _next_player_cards(view) / unseen)
    suit = _SUIT_INDEX[card.suit]

    def is_live(rank: int) -> int:
        if rank == 14 and view.rules.ace is AceRule.HIGH_OR_LOW:
            rank = 1
        if not 1 <= rank <= 13:
            return 0
        return (live >> (suit * 13 + rank - 1)) & 1

    same = sum((live >> (s * 13 + card.rank - 1)) & 1 for s in range(4) if s != suit)
    pairs = same * (same - 1) / 2
    ranks = [card.rank] if card.rank != 1 or view.rules.ace is AceRule.LOW else [1, 14]
    for r in ranks:
        pairs += is_live(r - 2) * is_live(r - 1) if r - 2 >= 1 else 0
        pairs += is_live(r - 1) * is_live(r + 1) if r - 1 >= 1 else 0
        pairs += is_live(r + 1) * is_live(r + 2)
    return weights.danger * pairs * p * p


def _action_for(group: _Group, legal: Sequence[Action]) -> Action | None:
    """The legal move that puts the group's playable cards down, if there is one."""
    wanted = frozenset(group.played)
    if not wanted:
        return None
    for action in legal:
        if group.kind == _KIND_LAY_OFF:
            if (
                isinstance(action, LayOff)
                and action.meld == group.meld
                and frozenset(action.cards) == wanted
            ):
                return action
        elif isinstance(action, MeldCards) and frozenset(action.cards) == wanted:
            return action
    return None


MAX_HARD_HAND = 14
"""Above this many cards (only in laid-out puzzle positions) the hard player's exact
search could get slow, so it plays like the easy one."""


def _hard_action(view: HandView, weights: HardWeights) -> Action:
    if len(view.hand) > MAX_HARD_HAND:
        return _easy_action(view)
    if view.phase is Phase.DRAW:
        return _hard_draw(view, weights)
    return _hard_play(view, weights)


def _hard_draw(view: HandView, weights: HardWeights) -> Action:
    """Take the discard when keeping it (and throwing another card) raises the hand's
    score clearly more than an unknown stock card is likely to."""
    legal = view.legal
    top = view.discard_top
    if top is None or TakeDiscard() not in legal:
        return DrawStock() if DrawStock() in legal else legal[0]
    if DrawStock() not in legal:
        return TakeDiscard()
    live = ((1 << 52) - 1) & ~_seen_mask(view)
    if _stock_draw_ends_hand(view):
        # Drawing now ends the hand and the lowest count wins: do it only when ours is
        # clearly below what the others probably hold.
        return DrawStock() if _likely_lowest(view, live) else TakeDiscard()
    cards = (*view.hand, top)
    evaluator = _Evaluator(
        cards,
        [m.meld for m in view.melds],
        view.rules,
        live,
        weights,
        _points_weight(view, weights),
    )
    full = (1 << len(cards)) - 1
    top_bit = 1 << (len(cards) - 1)
    keep = evaluator.best(full ^ top_bit)
    best_take = max(
        evaluator.best(full ^ (1 << i)) - _danger(card, view, live, weights)
        for i, card in enumerate(view.hand)
    )
    if best_take - keep > weights.take_threshold:
        return TakeDiscard()
    return DrawStock()


def _hard_play(view: HandView, weights: HardWeights) -> Action:
    legal = view.legal
    rules = view.rules
    hand = view.hand
    live = ((1 << 52) - 1) & ~_seen_mask(view)
    evaluator = _Evaluator(
        hand, [m.meld for m in view.melds], rules, live, weights, _points_weight(view, weights)
    )
    full = (1 << len(hand)) - 1
    melds_left = (
        1 - view.melded_this_turn if rules.melds_per_turn is MeldsPerTurn.ONE else len(hand)
    )

    def goes_out(mask: int) -> list[_Group] | None:
        groups = evaluator.split(mask)
        covered = 0
        new_melds = 0
        for group in groups:
            if group.kind == _KIND_NEAR:
                return None
            covered |= group.mask
            new_melds += group.kind == _KIND_MELD
        if covered != mask or new_melds > melds_left:
            return None
        return groups

    discards = [a.card for a in legal if isinstance(a, Discard)]
    scored = sorted(
        (
            (
                evaluator.best(full & ~evaluator.bit(card)) - _danger(card, view, live, weights),
                _discard_order(card, rules),
                card,
            )
            for card in discards
        ),
        reverse=True,
    )
    # Going out wins the hand: look for a way first.
    plan: list[_Group] | None = None
    throw: Card | None = None
    if rules.go_out is GoOut.ANY:
        plan = goes_out(full)
    if plan is None:
        for _, _, card in scored:
            plan = goes_out(full & ~evaluator.bit(card))
            if plan is not None:
                throw = card
                break
    if plan is not None:
        # The group holding the card taken from the pile goes first, so no step ever
        # leaves that card alone in the hand.
        taken = view.may_not_discard
        plan.sort(key=lambda g: (taken not in g.cards, -len(g.cards)))
        for group in plan:
            action = _action_for(group, legal)
            if action is not None:
                return action
        if throw is not None:
            return Discard(throw)
    if not scored:
        return legal[0]
    throw = scored[0][2]
    if not _hold_melds(view, evaluator, full & ~evaluator.bit(throw), weights):
        groups = [g for g in evaluator.split(full & ~evaluator.bit(throw)) if g.played]
        # New melds first, longest first, then lay-offs.
        groups.sort(key=lambda g: (g.kind == _KIND_LAY_OFF, -len(g.played)))
        for group in groups:
            action = _action_for(group, legal)
            if action is not None:
                return action
    return Discard(throw)


def _hold_melds(view: HandView, evaluator: _Evaluator, mask: int, weights: HardWeights) -> bool:
    """Whether to keep melds (and lay-offs) in hand for now rather than put them down.

    Holding pays twice: under house rule ``rummy_bonus = double`` a later all-at-once
    exit is a rummy, and under any rule the others get no new melds to lay off onto and
    the hand stays flexible. It costs the held points if someone else goes out, so melds
    go down once an opponent is close to going out, or when the stock is about to run
    dry for good (everyone counts then). Under ``melds_per_turn = one`` a second meld in
    hand is started on at once, as only one can go down per turn.
    """
    rules = view.rules
    limit = (
        weights.hold_min_opponent_cards
        if len(view.players) == 2
        else weights.hold_min_opponent_cards_multi
    )
    if (
        view.melded_this_turn > 0
        or _endgame(view)
        or min(_opponent_counts(view), default=99) <= limit
    ):
        return False
    if rules.melds_per_turn is MeldsPerTurn.ONE:
        new_melds = sum(g.kind == _KIND_MELD for g in evaluator.split(mask))
        return new_melds <= 1
    return True
