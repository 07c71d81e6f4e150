"""The expert computer player: a memory of the public record and a look-ahead over
the hidden cards.

Its inputs are the seat's ``HandView`` and the hand's ``PublicRecord``, nothing else,
so it knows what a careful person at the table would know and no more. From them it
builds a ``Belief`` (which cards are where, and how likely) and then:

* looks ahead over its own next draws (``race``): it samples, from what it believes
  is still in the stock, the order in which its next stock draws could bring the
  cards (the known order under house rule ``empty_stock = turn_over``), and judges a
  hand by how soon, on those samples, it would have every card in a meld;
* draws the top discard when the hand it makes would go out sooner than one drawing
  from the stock;
* goes out as soon as it can;
* judges a hand still far from going out (or one that may end with everyone counting
  their cards) as the hard player does, by the shape and points of its best split;
* discards the card that leaves the hand going out soonest, less what the discard may
  give the next player, whose collected cards it remembers;
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
    cid,
    going_out,
)
from engine.limits import CARDS_DEALT, MAX_RESHUFFLES, MAX_TURN_OVERS
from engine.melds import lay_off_options
from engine.rules import AceRule, EmptyStock, GoOut, MeldsPerTurn, RummyBonus
from engine.state import Phase
from engine.view import HandView

from .belief import Belief
from .memory import recall
from .race import Futures, RaceSearch
from .record import PublicRecord

__all__ = ["EXPERT", "ExpertWeights", "expert_action"]


@dataclass(frozen=True, slots=True)
class ExpertWeights:
    """The expert's knobs, tuned with ``python -m engine.arena``.

    A hand is worth the average over ``futures`` sampled orders of its next
    ``horizon`` stock draws of ``decay`` to the power of the draws it needs to go out
    (``decay`` is roughly the chance an opponent has not gone out meanwhile, per turn;
    it falls by ``decay_drop`` from the first turns of a hand to ten turns each, as
    the others get closer). Targets up to ``slack`` draws beyond the nearest are
    weighed, and none beyond ``most`` draws: a hand further away is judged as the
    hard player judges it, by ``score`` (``engine.handscore``), which also settles
    ties.

    A discard costs ``feed`` times the chance it completes a meld for the next player
    (known cards count for certain), and ``lay_off_danger / danger`` times ``feed``
    when it fits a table meld; in ``score``'s units that is ``danger`` and
    ``lay_off_danger``. ``feed`` grows by ``feed_growth`` times itself over the same
    span, as a card handed over late brings its taker nearer to going out.

    Melds are held back while every opponent holds more than
    ``hold_min_opponent_cards`` cards (``..._multi`` with 3 or more players;
    ``no_bonus_extra`` more under ``rummy_bonus = none``).
    """

    score: HardWeights = field(default_factory=HardWeights)
    danger: float = 8.0
    lay_off_danger: float = 6.0
    hold_min_opponent_cards: int = 3
    hold_min_opponent_cards_multi: int = 1
    no_bonus_extra: int = 1
    decay: float = 0.8
    feed: float = 0.1
    futures: int = 128
    horizon: int = 14
    decay_drop: float = 0.1
    feed_growth: float = 1.0
    slack: int = 1
    most: int = 3


EXPERT = ExpertWeights()


def expert_action(
    view: HandView, record: PublicRecord, rng: random.Random, weights: ExpertWeights = EXPERT
) -> Action:
    """The expert's next single move for ``view.player``, who must be on turn; always an
    element of ``view.legal``. The same view, record and generator state give the same
    move."""
    belief = Belief(view, recall(record, view))
    if view.phase is Phase.DRAW:
        return _draw(view, belief, rng, weights)
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


def _draw(view: HandView, belief: Belief, rng: random.Random, weights: ExpertWeights) -> Action:
    """Take the discard when the hand it makes, after its best discard, is expected to
    go out sooner than the hand that draws from the stock (one draw sooner, as the
    taken card is this turn's draw)."""
    legal = view.legal
    top = view.discard_top
    if top is None or TakeDiscard() not in legal:
        return DrawStock() if DrawStock() in legal else legal[0]
    if DrawStock() not in legal:
        return TakeDiscard()
    if _stock_draw_ends_hand(view):
        return DrawStock() if _likely_lowest(view, belief) else TakeDiscard()
    danger = Danger(view, belief, weights)
    endgame = _endgame(view)
    taking = None if endgame else _race((*view.hand, top), len(view.hand), view, belief, weights)
    drawing = None if endgame else _race(view.hand, len(view.hand), view, belief, weights)
    if taking is None or drawing is None or not (taking.found or drawing.found):
        # Too far from going out to race (or the count in hand decides): judge the hand
        # by its shape and points, as the hard player does. (A hand out of reach of
        # the race is worth nothing to it, so the other way is taken.)
        take = _best_after((*view.hand, top), top, view, belief, danger, weights)
        keep = _evaluator(view.hand, view, belief, weights).best((1 << len(view.hand)) - 1)
        return TakeDiscard() if take - keep > weights.score.take_threshold else DrawStock()
    futures = _futures(view, belief, rng, weights)
    decay = _decay(view, weights)
    take = max(
        futures.value(taking.targets_without(card), 1, decay) - _fed(card, danger, weights)
        for card in view.hand
    )
    whole = drawing.targets_whole()
    # A hand that lacks nothing still goes out only after this draw.
    draw = decay if 0 in whole else futures.value(whole, 0, decay)
    return TakeDiscard() if take > draw else DrawStock()


def _race(
    cards: Sequence[Card], keep: int, view: HandView, belief: Belief, weights: ExpertWeights
) -> RaceSearch:
    """The targets ``cards`` can reach, keeping ``keep`` of them after each discard."""
    rules = view.rules
    return RaceSearch(
        cards,
        belief.live,
        [m.meld for m in view.melds],
        rules.ace,
        keep,
        go_out_melding_all=rules.go_out is GoOut.ANY,
        slack=weights.slack,
        most=weights.most,
    )


def _futures(view: HandView, belief: Belief, rng: random.Random, weights: ExpertWeights) -> Futures:
    """Sampled orders of this seat's next stock draws. A stock whose order everyone saw
    made has one: every card the others draw (one each per round) is skipped."""
    if belief.stock is not None:
        mine = belief.stock[:: len(view.players)]
        return Futures([[cid(c) for c in mine]], weights.horizon)
    orders = belief.stock_orders(rng, weights.futures, weights.horizon)
    return Futures([[cid(c) for c in order] for order in orders], weights.horizon)


def _fed(card: Card, danger: Danger, weights: ExpertWeights) -> float:
    """What handing ``card`` to the next player costs, on the race's scale."""
    scale = 1.0 + weights.feed_growth * (_progress(danger.view) - 0.5)
    return weights.feed * scale * danger(card) / weights.danger


def _progress(view: HandView) -> float:
    """How far into the hand play is: 0 at the deal, 1 after ten turns each."""
    seats = len(view.players)
    first_stock = 52 - seats * CARDS_DEALT[seats] - 1
    drawn = first_stock - view.stock_size if not view.stock_exhaustions else first_stock
    return min(1.0, drawn / (10 * seats))


def _decay(view: HandView, weights: ExpertWeights) -> float:
    """The chance, per draw, that nobody else goes out meanwhile."""
    return weights.decay - weights.decay_drop * (_progress(view) - 0.5)


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
    throw = _choose_discard(view, belief, scored, danger, rng, weights)
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
    danger: Danger,
    rng: random.Random,
    weights: ExpertWeights,
) -> Card:
    """The discard that leaves the hand going out soonest, less what it may give the
    next player; by score alone when the hand is too far from going out to race, or
    when the hand may end with everyone counting their cards."""
    if _endgame(view):
        return scored[0][2]
    race = _race(view.hand, len(view.hand) - 1, view, belief, weights)
    if not race.found:
        return scored[0][2]
    futures = _futures(view, belief, rng, weights)
    decay = _decay(view, weights)

    def ranked(entry: tuple[float, tuple[int, int, int], Card]) -> tuple[float, float]:
        score, _, card = entry
        soon = futures.value(race.targets_without(card), 0, decay)
        return soon - _fed(card, danger, weights), score

    return max(scored, key=ranked)[2]


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
