"""The expert computer player: the hard player's judgement of a hand, with a memory
of the public record and a look-ahead over the hidden cards.

Its inputs are the seat's ``HandView`` and the hand's ``PublicRecord``, nothing else,
so it knows what a careful person at the table would know and no more. From them it
builds a ``Belief`` (which cards are where, and how likely) and then:

* draws by comparing the top discard with the stock: the exact next card when the
  stock's order is known (house rule ``empty_stock = turn_over``), otherwise the
  average over the cards the stock may hold;
* goes out as soon as it can;
* discards the card that leaves the best hand after weighing what it gives away to the
  next player, whose collected cards it remembers, with a look-ahead (``lookahead``)
  over sampled deals settling close calls;
* holds its melds back for a rummy (worth it only under ``rummy_bonus = double``) and
  to give the others no lay-off spots, until an opponent nears going out, the stock
  runs dry, or the match score says points in hand matter more.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.actions import Action, Discard, DrawStock, TakeDiscard
from engine.cards import SUIT_ORDER, Card
from engine.handscore import (
    KIND_LAY_OFF,
    KIND_MELD,
    Evaluator,
    HardWeights,
    action_for,
    going_out,
)
from engine.limits import MAX_RESHUFFLES, MAX_TURN_OVERS
from engine.melds import lay_off_options
from engine.rules import AceRule, EmptyStock, MeldsPerTurn, RummyBonus
from engine.state import Phase
from engine.view import HandView

from .belief import Belief
from .lookahead import Lookahead
from .memory import recall
from .record import PublicRecord

__all__ = ["EXPERT", "ExpertWeights", "expert_action"]


@dataclass(frozen=True, slots=True)
class ExpertWeights:
    """The expert's knobs, tuned with ``python -m engine.arena``.

    ``score`` weighs a hand as the hard player does (``engine.handscore``). A discard
    costs ``danger`` times the chance it completes a meld for the next player (known
    cards count for certain) and ``lay_off_danger`` when it fits a table meld. The
    discard is taken when it beats the expected stock card by ``take_margin``. Melds
    are held back while every opponent holds more than ``hold_min_opponent_cards``
    cards (``..._multi`` with 3 or more players; ``no_bonus_extra`` more under
    ``rummy_bonus = none``). ``candidates`` discards within
    ``close_call`` of the best are compared by the look-ahead over ``samples`` deals.
    """

    score: HardWeights = field(default_factory=HardWeights)
    danger: float = 8.0
    lay_off_danger: float = 6.0
    take_margin: float = 0.0
    hold_min_opponent_cards: int = 3
    hold_min_opponent_cards_multi: int = 1
    no_bonus_extra: int = 1
    candidates: int = 3
    close_call: float = 4.0
    samples: int = 12


EXPERT = ExpertWeights()


def expert_action(
    view: HandView, record: PublicRecord, rng: random.Random, weights: ExpertWeights = EXPERT
) -> Action:
    """The expert's next single move for ``view.player``, who must be on turn; always an
    element of ``view.legal``. The same view, record and generator state give the same
    move."""
    belief = Belief(view, recall(record, view))
    if view.phase is Phase.DRAW:
        return _draw(view, belief, weights)
    return _play(view, belief, record, rng, weights)


# --- shared ----------------------------------------------------------------------------
def discard_order(card: Card, view: HandView) -> tuple[int, int, int]:
    """Of equally good discards, the one with most points, then the higher rank, then
    suit order: fixed, so the choice never depends on chance."""
    return (card.points(view.rules), card.rank, SUIT_ORDER.index(card.suit))


def _opponent_counts(view: HandView) -> list[int]:
    return [n for p, n in view.card_counts.items() if p != view.player]


def _rebuilds_left(view: HandView) -> int:
    limit = MAX_RESHUFFLES if view.rules.empty_stock is EmptyStock.RESHUFFLE else MAX_TURN_OVERS
    return limit - view.stock_exhaustions


def _endgame(view: HandView) -> bool:
    """Whether the hand may soon end with nobody out, so points in hand decide it."""
    return _rebuilds_left(view) <= 0 and view.stock_size <= 2 * len(view.players)


def _stock_draw_ends_hand(view: HandView) -> bool:
    """Whether drawing from the stock now ends the hand with nobody out."""
    if view.stock_size > 0:
        return False
    if view.rules.empty_stock is EmptyStock.RESHUFFLE:
        return _rebuilds_left(view) <= 0 or len(view.discard_pile) < 2
    return _rebuilds_left(view) <= 0 or not view.discard_pile


def _points_weight(view: HandView, weights: ExpertWeights) -> float:
    score = weights.score
    if _endgame(view) or min(_opponent_counts(view), default=99) <= 2:
        return score.points * score.endgame_points
    return score.points


def _next_player(view: HandView) -> str:
    assert view.player is not None
    players = view.players
    return players[(players.index(view.player) + 1) % len(players)]


def _evaluator(
    cards: Sequence[Card], view: HandView, belief: Belief, weights: ExpertWeights
) -> Evaluator:
    return Evaluator(
        cards,
        [m.meld for m in view.melds],
        view.rules,
        belief.live,
        weights.score,
        _points_weight(view, weights),
    )


class Danger:
    """What each discard may hand the next player, from what the seat believes they
    hold: the chance it completes a meld with two of their cards (cards they are known
    to hold count for certain), or that it fits a meld on the table."""

    __slots__ = ("belief", "cache", "melds", "next", "view", "weights")

    def __init__(self, view: HandView, belief: Belief, weights: ExpertWeights) -> None:
        self.view = view
        self.belief = belief
        self.weights = weights
        self.next = _next_player(view)
        self.melds = [m.meld for m in view.melds]
        self.cache: dict[Card, float] = {}

    def __call__(self, card: Card) -> float:
        found = self.cache.get(card)
        if found is None:
            found = self.cache[card] = self._danger(card)
        return found

    def chance_completes(self, card: Card) -> float:
        """The chance the next player holds two cards that make a meld with ``card``."""
        chance = self.belief.chance_held
        player = self.next
        suit = card.suit
        same = [
            chance(player, c)
            for c in self.belief.unknown_or_known(player)
            if c.rank == card.rank and c.suit != suit
        ]
        miss = 1.0
        for i, a in enumerate(same):
            for b in same[i + 1 :]:
                miss *= 1.0 - a * b
        ranks = [card.rank]
        if card.rank == 1 and self.view.rules.ace is AceRule.HIGH_OR_LOW:
            ranks.append(14)
        for r in ranks:
            for low, high in ((r - 2, r - 1), (r - 1, r + 1), (r + 1, r + 2)):
                a = self.belief.chance_at(player, low, suit)
                if a:
                    miss *= 1.0 - a * self.belief.chance_at(player, high, suit)
        return 1.0 - miss

    def _danger(self, card: Card) -> float:
        if self.melds and lay_off_options((card,), self.melds, self.view.rules):
            return self.weights.lay_off_danger
        return self.weights.danger * self.chance_completes(card)


# --- draw ------------------------------------------------------------------------------
def _best_after(
    cards: Sequence[Card],
    banned: Card | None,
    view: HandView,
    belief: Belief,
    danger: Danger,
    weights: ExpertWeights,
) -> float:
    """The hand's score after its best discard (not ``banned``), danger included."""
    evaluator = _evaluator(cards, view, belief, weights)
    full = (1 << len(cards)) - 1
    return max(
        evaluator.best(full ^ (1 << i)) - danger(card)
        for i, card in enumerate(cards)
        if card != banned
    )


def _draw(view: HandView, belief: Belief, weights: ExpertWeights) -> Action:
    legal = view.legal
    top = view.discard_top
    if top is None or TakeDiscard() not in legal:
        return DrawStock() if DrawStock() in legal else legal[0]
    if DrawStock() not in legal:
        return TakeDiscard()
    if _stock_draw_ends_hand(view):
        return DrawStock() if _likely_lowest(view, belief) else TakeDiscard()
    danger = Danger(view, belief, weights)
    take = _best_after((*view.hand, top), top, view, belief, danger, weights)
    if belief.stock is not None and belief.stock:
        stock = _best_after((*view.hand, belief.stock[0]), None, view, belief, danger, weights)
    else:
        stock = _expected_stock_draw(view, belief, danger, weights)
    return TakeDiscard() if take > stock + weights.take_margin else DrawStock()


def _expected_stock_draw(
    view: HandView, belief: Belief, danger: Danger, weights: ExpertWeights
) -> float:
    """The average score after drawing from the stock and discarding, over the cards
    the stock may hold, each by the chance it is not in an opponent's hand."""
    total = 0.0
    mass = 0.0
    for card in belief.unknown:
        p = belief.chance_in_stock(card)
        if p <= 0.0:
            continue
        total += p * _best_after((*view.hand, card), None, view, belief, danger, weights)
        mass += p
    if mass <= 0.0:
        return _best_after(view.hand, None, view, belief, danger, weights)
    return total / mass


def _likely_lowest(view: HandView, belief: Belief) -> bool:
    """Whether our count in hand is probably the lowest, counting the cards each
    opponent is known to hold and the average unknown card for the rest."""
    rules = view.rules
    unknown = belief.unknown
    average = sum(c.points(rules) for c in unknown) / len(unknown) if unknown else 5.0
    mine = sum(c.points(rules) for c in view.hand)
    guesses = [
        sum(c.points(rules) for c in belief.known[p]) + belief.hidden[p] * average
        for p in belief.known
    ]
    return mine < 0.75 * min(guesses, default=0.0)


# --- play ------------------------------------------------------------------------------
def _play(
    view: HandView,
    belief: Belief,
    record: PublicRecord,
    rng: random.Random,
    weights: ExpertWeights,
) -> Action:
    legal = view.legal
    hand = view.hand
    evaluator = _evaluator(hand, view, belief, weights)
    full = (1 << len(hand)) - 1

    danger = Danger(view, belief, weights)
    discards = [a.card for a in legal if isinstance(a, Discard)]
    scored = sorted(
        (
            (
                evaluator.best(full & ~evaluator.bit(card)) - danger(card),
                discard_order(card, view),
                card,
            )
            for card in discards
        ),
        reverse=True,
    )
    going = going_out(evaluator, view, scored)
    if going is not None:
        return going
    if not scored:
        return legal[0]
    throw = _choose_discard(view, belief, scored, rng, weights)
    if not _hold_melds(view, record, evaluator, full & ~evaluator.bit(throw), weights):
        groups = [g for g in evaluator.split(full & ~evaluator.bit(throw)) if g.played]
        groups.sort(key=lambda g: (g.kind == KIND_LAY_OFF, -len(g.played)))
        for group in groups:
            action = action_for(group, legal)
            if action is not None:
                return action
    return Discard(throw)


def _choose_discard(
    view: HandView,
    belief: Belief,
    scored: list[tuple[float, tuple[int, int, int], Card]],
    rng: random.Random,
    weights: ExpertWeights,
) -> Card:
    """The best discard by score, unless the look-ahead prefers a close runner-up."""
    best_score = scored[0][0]
    close = [card for score, _, card in scored if best_score - score <= weights.close_call]
    close = close[: weights.candidates]
    if len(close) < 2:
        return scored[0][2]
    if weights.samples <= 0:
        return scored[0][2]
    points_weight = _points_weight(view, weights)
    lookahead = Lookahead(
        view, belief, weights.score, points_weight, weights.samples, weights.danger
    )
    return lookahead.best(close, rng)


def _hold_melds(
    view: HandView,
    record: PublicRecord,
    evaluator: Evaluator,
    mask: int,
    weights: ExpertWeights,
) -> bool:
    """Whether to keep melds in hand for now rather than put them down.

    Holding keeps a rummy possible (it pays under house rule ``rummy_bonus = double``)
    and gives the others no melds to lay off onto; it costs the held points if someone
    else goes out. So melds go down once an opponent is close to going out, when the
    stock is about to run dry for good, or when an opponent could win the match by
    going out now and catching those points (house rule ``target``). Under
    ``melds_per_turn = one`` a second meld in hand is started on at once.
    """
    rules = view.rules
    limit = (
        weights.hold_min_opponent_cards
        if len(view.players) == 2
        else weights.hold_min_opponent_cards_multi
    )
    if rules.rummy_bonus is RummyBonus.NONE:
        # No bonus to wait for: holding only keeps lay-off spots from the others,
        # so the melds go down a little sooner.
        limit += weights.no_bonus_extra
    if (
        view.melded_this_turn > 0
        or _endgame(view)
        or min(_opponent_counts(view), default=99) <= limit
        or _match_at_stake(view, record, evaluator, mask)
    ):
        return False
    if rules.melds_per_turn is MeldsPerTurn.ONE:
        new_melds = sum(g.kind == KIND_MELD for g in evaluator.split(mask))
        return new_melds <= 1
    return True


def _match_at_stake(view: HandView, record: PublicRecord, evaluator: Evaluator, mask: int) -> bool:
    """Whether, late in a match (house rule ``target``: someone has half of it), an
    opponent going out now would win the match on the points we keep in hand, while
    putting our melds down would leave them short (``rummy_bonus`` doubles it)."""
    rules = view.rules
    target = rules.target
    if target is None or not record.totals or 2 * max(record.totals.values()) < target:
        return False
    kept = [c for c in view.hand if mask & evaluator.bit(c)]
    held = sum(c.points(rules) for c in kept)
    played = sum(sum(c.points(rules) for c in g.played) for g in evaluator.split(mask))
    factor = 2 if rules.rummy_bonus is RummyBonus.DOUBLE else 1
    for player, total in record.totals.items():
        if player != view.player and total + factor * held >= target > total + factor * (
            held - played
        ):
            return True
    return False
