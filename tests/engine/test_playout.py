"""Randomised play-outs over every house-rule combination and 2 to 6 players.

On every step: the 52 cards are each in exactly one place, every action listed by
``legal_actions`` applies, a refused attempt changes nothing, and the state survives
a trip through JSON unchanged. Every hand ends within the turn limit.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine import (
    MAX_TURNS,
    AceRule,
    Action,
    Discard,
    EmptyStock,
    GoOut,
    Hand,
    HouseRules,
    LayOff,
    Match,
    MeldCards,
    MeldsPerTurn,
    RummyBonus,
    RummyError,
    full_deck,
)

from .helpers import POLICIES, choose, every_card

DECK = Counter(str(c) for c in full_deck())
# Each turn is a draw and a discard; melds and lay-offs each take at least one card
# out of the hands for good, so they add at most 52 steps to a whole hand.
MAX_STEPS = 2 * MAX_TURNS + 52

house_rules = st.builds(
    HouseRules,
    ace=st.sampled_from(AceRule),
    melds_per_turn=st.sampled_from(MeldsPerTurn),
    go_out=st.sampled_from(GoOut),
    rummy_bonus=st.sampled_from(RummyBonus),
    empty_stock=st.sampled_from(EmptyStock),
)


def check_cards(hand: Hand) -> None:
    assert Counter(str(c) for c in every_card(hand)) == DECK


def check_round_trip(hand: Hand) -> None:
    data = hand.to_dict()
    again = Hand.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data


def check_every_legal_action_applies(hand: Hand, player: str, legal: list[Action]) -> None:
    for action in legal:
        trial = hand.copy()
        trial.apply(player, action)
        check_cards(trial)


def random_attempt(rng: random.Random, hand: Hand) -> Action:
    deck = full_deck()
    return rng.choice(
        [
            Discard(rng.choice(deck)),
            MeldCards(tuple(rng.sample(deck, rng.randint(2, 4)))),
            LayOff(tuple(rng.sample(deck, rng.randint(1, 2))), rng.randrange(len(hand.melds) + 1)),
        ]
    )


def same_move(a: Action, b: Action) -> bool:
    if isinstance(a, MeldCards) and isinstance(b, MeldCards):
        return set(a.cards) == set(b.cards)
    if isinstance(a, LayOff) and isinstance(b, LayOff):
        return set(a.cards) == set(b.cards) and a.meld == b.meld
    return a == b


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=house_rules,
    players=st.integers(2, 6),
    dealer=st.integers(0, 5),
    seed=st.integers(0, 2**32 - 1),
    policy=st.sampled_from(POLICIES),
)
def test_random_legal_play(
    rules: HouseRules, players: int, dealer: int, seed: int, policy: str
) -> None:
    seats = [f"p{i}" for i in range(players)]
    hand = Hand.deal(seats, rules, dealer % players, seed)
    rng = random.Random(seed)
    steps = 0
    while not hand.is_over:
        assert steps < MAX_STEPS
        check_cards(hand)
        check_round_trip(hand)
        player = hand.turn
        assert player is not None
        legal = hand.legal_actions(player)
        assert legal
        for other in seats:
            if other != player:
                assert hand.legal_actions(other) == []
        if steps % 3 == 0:
            check_every_legal_action_applies(hand, player, legal)
        attempt = random_attempt(rng, hand)
        before = hand.to_dict()
        trial = hand.copy()
        try:
            trial.apply(player, attempt)
        except RummyError:
            assert hand.to_dict() == before
            assert trial.to_dict() == before
        else:
            assert any(same_move(attempt, a) for a in legal)
        hand.apply(*choose(hand, rng, policy))
        steps += 1
    check_cards(hand)
    check_round_trip(hand)
    assert hand.turns_played <= MAX_TURNS
    outcome = hand.outcome
    assert outcome is not None
    event(f"{policy}: {outcome.reason.value}")
    assert set(outcome.scores) == set(seats)
    assert outcome.remaining == {p: hand.hand_of(p) for p in seats}
    assert all(outcome.scores[p] == 0 for p in seats if p not in outcome.winners)
    if outcome.went_out is not None:
        assert hand.hand_of(outcome.went_out) == ()
        assert outcome.winners == (outcome.went_out,)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=house_rules,
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    policy=st.sampled_from(["eager", "uniform"]),
    length=st.one_of(
        st.builds(lambda t: {"target": t}, st.integers(1, 150)),
        st.builds(lambda h: {"target": None, "hands": h}, st.integers(1, 3)),
    ),
)
def test_random_matches_end_and_round_trip(
    rules: HouseRules, players: int, seed: int, policy: str, length: dict[str, int | None]
) -> None:
    rules = HouseRules.from_dict({**rules.to_dict(), **length})
    match = Match.start([f"p{i}" for i in range(players)], rules, seed)
    rng = random.Random(seed)
    while not match.is_over:
        if match.hand.is_over:
            match.next_hand()
        while not match.hand.is_over:
            match.apply(*choose(match.hand, rng, policy))
        data = match.to_dict()
        assert Match.from_dict(json.loads(json.dumps(data))).to_dict() == data
        assert match.hand_number <= 200
    outcome = match.outcome
    assert outcome is not None
    assert outcome.totals == {p: sum(h.scores[p] for h in match.history) for p in match.players}
    best = max(outcome.totals.values())
    assert outcome.winners == tuple(p for p in match.players if outcome.totals[p] == best)
