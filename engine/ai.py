"""Computer players: pick the next move from what one seat is allowed to know.

Everything here reads a ``HandView`` (the expert also the hand's public record, which
holds only what everyone at the table saw) and nothing else: the player's own cards, how
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
* ``expert`` (``engine.expert``): remembers the hand's public record (what each
  opponent took from the pile, threw away or passed over, and the order of a
  turned-over stock), and judges a hand by how soon it would go out over sampled
  orders of its next stock draws, less what its discard may give the next player.
  It reads the view and that record, and nothing else.

``timeout_action`` is what the bot plays for someone whose turn timer ran out: a
draw from the stock and a discard of the highest unmatched card, never a meld.
"""

from __future__ import annotations

import random
from enum import StrEnum

from engine.actions import Action, Discard, DrawStock, LayOff, MeldCards, TakeDiscard
from engine.cards import SUIT_ORDER, Card
from engine.errors import RummyError
from engine.expert import PublicRecord, expert_action
from engine.handscore import ALL_CARDS as _ALL_CARDS
from engine.handscore import KIND_LAY_OFF as _KIND_LAY_OFF
from engine.handscore import KIND_MELD as _KIND_MELD
from engine.handscore import SUIT_INDEX as _SUIT_INDEX
from engine.handscore import Evaluator as _Evaluator
from engine.handscore import HardWeights, action_for, going_out
from engine.handscore import cid as _cid
from engine.limits import MAX_RESHUFFLES, MAX_TURN_OVERS
from engine.melds import lay_off_options, meld_options
from engine.rules import AceRule, EmptyStock, HouseRules, MeldsPerTurn
from engine.state import Phase
from engine.view import HandView

__all__ = ["HardWeights", "Level", "choose_action", "timeout_action"]


class Level(StrEnum):
    """How well a computer seat plays."""

    RANDOM = "random"
    EASY = "easy"
    HARD = "hard"
    EXPERT = "expert"


def choose_action(
    view: HandView,
    level: Level | str,
    rng: random.Random,
    record: PublicRecord | None = None,
) -> Action:
    """The next single move for ``view.player``, who must be on turn.

    Called once per move (draw, each meld or lay-off, then the discard) with a fresh
    view each time. The result is always an element of ``view.legal``, and the same
    view (and record) with a generator in the same state gives the same move.
    ``record`` is the hand's public record: only the expert reads it, and without one
    it knows only what the view shows.
    """
    try:
        chosen = Level(level)
    except ValueError:
        raise RummyError(
            f"unknown computer level {level!r}: use random, easy, hard or expert"
        ) from None
    _check_on_turn(view)
    if chosen is Level.RANDOM:
        return _random_action(view, rng)
    if chosen is Level.EASY:
        return _easy_action(view)
    if chosen is Level.EXPERT and len(view.hand) <= MAX_HARD_HAND:
        return expert_action(view, record or PublicRecord(), rng)
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
HARD = HardWeights()


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
    going = going_out(evaluator, view, scored)
    if going is not None:
        return going
    if not scored:
        return legal[0]
    throw = scored[0][2]
    if not _hold_melds(view, evaluator, full & ~evaluator.bit(throw), weights):
        groups = [g for g in evaluator.split(full & ~evaluator.bit(throw)) if g.played]
        # New melds first, longest first, then lay-offs.
        groups.sort(key=lambda g: (g.kind == _KIND_LAY_OFF, -len(g.played)))
        for group in groups:
            action = action_for(group, legal)
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
