"""``Hand.legal_actions`` lists exactly the moves ``apply`` accepts."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import (
    AceRule,
    Action,
    Discard,
    DrawStock,
    GoOut,
    Hand,
    HouseRules,
    IllegalMoveError,
    LayOff,
    MeldCards,
    MeldsPerTurn,
    TakeDiscard,
)

from .helpers import cards, choose, position


def key(action: Action) -> tuple[object, ...]:
    """Card order inside a meld or lay-off does not matter to ``apply``."""
    if isinstance(action, MeldCards):
        return ("meld", frozenset(action.cards))
    if isinstance(action, LayOff):
        return ("lay_off", frozenset(action.cards), action.meld)
    return (action,)


def accepted(hand: Hand, player: str) -> set[tuple[object, ...]]:
    """Every meld, lay-off and discard ``apply`` accepts, found by trying them all."""
    base = hand.copy()
    held = hand.hand_of(player)
    found: set[tuple[object, ...]] = set()
    trial = base.copy()
    tries: list[Action] = [Discard(c) for c in held]
    for size in range(1, len(held) + 1):
        for combo in itertools.combinations(held, size):
            if size >= 3:
                tries.append(MeldCards(combo))
            tries.extend(LayOff(combo, i) for i in range(len(hand.melds)))
    for action in tries:
        try:
            trial.apply(player, action)
        except IllegalMoveError:
            continue
        found.add(key(action))
        trial = base.copy()
    return found


RULE_SETS = [
    HouseRules(),
    HouseRules(ace=AceRule.HIGH_OR_LOW),
    HouseRules(melds_per_turn=MeldsPerTurn.ONE, go_out=GoOut.DISCARD_ONLY),
    HouseRules(ace=AceRule.HIGH_OR_LOW, go_out=GoOut.DISCARD_ONLY),
]


def sample_states(rules: HouseRules, seed: int, count: int) -> list[Hand]:
    """Hands in the play phase from random games, mostly with a meld or lay-off to make."""
    rng = random.Random(seed)
    states: list[Hand] = []
    while len(states) < count:
        hand = Hand.deal(["a", "b", "c"], rules, 0, rng.randrange(10**6))
        policy = rng.choice(["eager", "uniform"])
        while not hand.is_over and len(states) < count:
            player = hand.turn
            assert player is not None
            if hand.phase.value == "play":
                legal = hand.legal_actions(player)
                plays = [a for a in legal if isinstance(a, MeldCards | LayOff)]
                if rng.random() < (0.5 if plays else 0.03):
                    states.append(hand.copy())
            hand.apply(*choose(hand, rng, policy))
    return states


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.ace.value}-{r.go_out.value}")
def test_legal_actions_equal_what_apply_accepts(rules: HouseRules) -> None:
    for hand in sample_states(rules, seed=len(str(rules)), count=12):
        player = hand.turn
        assert player is not None
        legal = hand.legal_actions(player)
        assert len({key(a) for a in legal}) == len(legal), "no duplicates"
        assert {key(a) for a in legal} == accepted(hand, player)


def test_high_aces_and_both_ends() -> None:
    rules = HouseRules(ace=AceRule.HIGH_OR_LOW)
    hand = position(
        {"a": "AS KS QS JS 2S 3S 9D", "b": "5C"}, stock="10S", discard="4D", rules=rules
    )
    hand.apply("a", DrawStock())
    melds = {frozenset(a.cards) for a in hand.legal_actions("a") if isinstance(a, MeldCards)}
    assert frozenset(cards("QS KS AS")) in melds
    assert frozenset(cards("AS 2S 3S")) in melds
    assert frozenset(cards("10S JS QS KS AS")) in melds
    assert not any(card in m for m in melds for card in cards("9D"))
    assert all(not {c.rank for c in m} >= {13, 1, 2} for m in melds), "K-A-2 never"


def test_draw_phase_choices() -> None:
    hand = position({"a": "5C", "b": "6D"}, stock="9C", discard="7C")
    assert hand.legal_actions("a") == [DrawStock(), TakeDiscard()]
    assert hand.legal_actions("b") == []
    assert hand.legal_actions("nobody") == []


def test_play_phase_listing_is_ordered_melds_lay_offs_discards() -> None:
    hand = position({"a": "AS 2S 3S 4S QH", "b": "6D"}, stock="9C", discard="7C")
    hand.apply("a", DrawStock())
    legal = hand.legal_actions("a")
    assert legal == [
        MeldCards(tuple(cards("AS 2S 3S"))),
        MeldCards(tuple(cards("AS 2S 3S 4S"))),
        MeldCards(tuple(cards("2S 3S 4S"))),
        *(Discard(c) for c in cards("AS 2S 3S 4S 9C QH")),
    ]
    hand.apply("a", MeldCards(tuple(cards("AS 2S 3S"))))
    assert hand.legal_actions("a")[0] == LayOff(tuple(cards("4S")), 0)
