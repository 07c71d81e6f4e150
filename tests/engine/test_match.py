"""A match: dealer rotation, totals, target / fixed hands, shared wins, saved state."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from engine import (
    DrawStock,
    Event,
    Hand,
    HandOverError,
    HouseRules,
    InvalidStateError,
    Match,
    NotSeatedError,
)
from engine.match import hand_seed

from .helpers import choose, position


def finish_hand(match: Match, rng: random.Random, policy: str = "eager") -> None:
    while not match.hand.is_over:
        player, action = choose(match.hand, rng, policy)
        match.apply(player, action)


def round_trip(match: Match) -> Match:
    return Match.from_dict(json.loads(json.dumps(match.to_dict())))


def test_start_deals_hand_one_with_a_seeded_dealer() -> None:
    match = Match.start(["a", "b", "c"], HouseRules(), seed=12)
    assert match.hand_number == 1
    assert match.totals == {"a": 0, "b": 0, "c": 0}
    assert match.history == [] and not match.is_over and match.outcome is None
    dealer = random.Random(12).randrange(3)
    assert match.hand == Hand.deal(["a", "b", "c"], HouseRules(), dealer, hand_seed(12, 1))
    assert Match.start(["a", "b", "c"], HouseRules(), seed=12) == match
    dealers = {Match.start(["a", "b", "c"], HouseRules(), seed=s).hand.dealer for s in range(30)}
    assert dealers == {0, 1, 2}  # the first dealer really is drawn at random


def test_dealer_rotates_left_and_totals_add_up() -> None:
    rules = HouseRules(target=None, hands=5)
    match = Match.start(["a", "b", "c", "d"], rules, seed=3)
    rng = random.Random(3)
    first_dealer = match.hand.dealer
    for number in range(1, 6):
        assert match.hand_number == number
        assert match.hand.dealer == (first_dealer + number - 1) % 4
        assert match.hand.turn == match.players[(match.hand.dealer + 1) % 4]
        finish_hand(match, rng)
        assert len(match.history) == number
        assert match.totals == {p: sum(o.scores[p] for o in match.history) for p in match.players}
        assert round_trip(match) == match
        if number < 5:
            assert not match.is_over
            events = match.next_hand()
            assert events == [
                Event("deal", match.players[match.hand.dealer], (match.hand.discard_pile[0],))
            ]
    assert match.is_over
    outcome = match.outcome
    assert outcome is not None and outcome.hands_played == 5
    best = max(match.totals.values())
    assert outcome.winners == tuple(p for p in match.players if match.totals[p] == best)


def test_target_ends_the_match() -> None:
    rules = HouseRules(target=40)
    match = Match.start(["a", "b"], rules, seed=5)
    rng = random.Random(5)
    while not match.is_over:
        finish_hand(match, rng)
        assert match.is_over == (max(match.totals.values()) >= 40)
        if not match.is_over:
            match.next_hand()
    assert match.outcome is not None
    assert max(match.outcome.totals.values()) >= 40


def test_next_hand_and_apply_refusals() -> None:
    match = Match.start(["a", "b"], HouseRules(target=None, hands=1), seed=1)
    with pytest.raises(HandOverError, match="still being played"):
        match.next_hand()
    with pytest.raises(NotSeatedError):
        match.apply("zed", DrawStock())
    finish_hand(match, random.Random(1))
    assert match.is_over
    before = match.to_dict()
    with pytest.raises(HandOverError, match="The match is over"):
        match.next_hand()
    with pytest.raises(HandOverError, match="This match is over"):
        match.apply("a", DrawStock())
    assert match.legal_actions("a") == []
    assert match.to_dict() == before


def test_waiting_for_the_next_deal() -> None:
    match = Match.start(["a", "b"], HouseRules(target=None, hands=3), seed=2)
    finish_hand(match, random.Random(2))
    with pytest.raises(HandOverError, match="next one has not been dealt"):
        match.apply(match.players[0], DrawStock())


def _tied_match() -> Match:
    """A one-hand match whose hand ends, nobody out, with ann and bob tied lowest."""
    hand = position({"ann": "5C", "bob": "3D 2C", "cat": "9H"}, stock="", discard="")
    return Match(
        players=("ann", "bob", "cat"),
        rules=HouseRules(target=None, hands=1),
        seed=0,
        hand_number=1,
        hand=hand,
        totals={"ann": 0, "bob": 0, "cat": 0},
        history=[],
    )


def test_tied_totals_share_the_win() -> None:
    match = _tied_match()
    match.apply("ann", DrawStock())
    assert match.history[0].winners == ("ann", "bob")
    assert match.totals == {"ann": 2, "bob": 2, "cat": 0}  # (4 + 0) / 2 each
    outcome = match.outcome
    assert outcome is not None
    assert outcome.winners == ("ann", "bob")


def test_round_trip_mid_hand_and_at_the_end() -> None:
    match = Match.start(["a", "b", "c"], HouseRules(target=60), seed=8)
    rng = random.Random(8)
    steps = 0
    while not match.is_over:
        if match.hand.is_over:
            match.next_hand()
        player, action = choose(match.hand, rng, "eager")
        match.apply(player, action)
        steps += 1
        if steps % 7 == 0:
            again = round_trip(match)
            assert again.to_dict() == match.to_dict()
    assert round_trip(match).outcome == match.outcome
    assert match.to_dict()["version"] == 1


Mutation = Any


def _totals(data: dict[str, Any]) -> None:
    data["totals"][data["players"][0]] += 1


def _history(data: dict[str, Any]) -> None:
    data["history"] = []


def _hand_players(data: dict[str, Any]) -> None:
    data["hand"]["seed"] += 1


def _version(data: dict[str, Any]) -> None:
    data["version"] = 99


def _extra(data: dict[str, Any]) -> None:
    data["extra"] = 1


def _missing(data: dict[str, Any]) -> None:
    del data["totals"]


def _number(data: dict[str, Any]) -> None:
    data["hand_number"] = 0


def _rules(data: dict[str, Any]) -> None:
    data["rules"] = {"ace": "up"}


@pytest.mark.parametrize(
    "mutate", [_totals, _history, _hand_players, _version, _extra, _missing, _number, _rules]
)
def test_corrupt_match_state_is_refused(mutate: Mutation) -> None:
    match = Match.start(["a", "b"], HouseRules(target=None, hands=3), seed=4)
    finish_hand(match, random.Random(4))
    match.next_hand()
    data = copy.deepcopy(match.to_dict())
    assert Match.from_dict(copy.deepcopy(data)) == match
    mutate(data)
    with pytest.raises(InvalidStateError):
        Match.from_dict(data)


def test_a_saved_match_that_should_have_ended_is_refused() -> None:
    match = Match.start(["a", "b"], HouseRules(target=None, hands=1), seed=4)
    finish_hand(match, random.Random(4))
    data = match.to_dict()
    data["hand_number"] = 2
    with pytest.raises(InvalidStateError):
        Match.from_dict(data)


def _snapshot(match: Match) -> str:
    return json.dumps(match.to_dict(), sort_keys=True)


def test_a_copy_plays_on_without_changing_the_original() -> None:
    match = Match.start(["a", "b", "c", "d"], HouseRules(target=None, hands=3), seed=21)
    rng = random.Random(21)
    for _ in range(25):
        match.apply(*choose(match.hand, rng, "eager"))
    before = match.to_dict()
    frozen = _snapshot(match)
    twin = match.copy()
    assert twin == match and twin is not match and twin.hand is not match.hand
    # The copy finishes this hand, deals the next and plays into it.
    finish_hand(twin, random.Random(5))
    twin.next_hand()
    for _ in range(10):
        twin.apply(*choose(twin.hand, rng, "uniform"))
    assert twin != match
    assert _snapshot(match) == frozen
    assert match.to_dict() == before
    assert match.history == [] and match.totals == dict.fromkeys("abcd", 0)


def test_the_original_plays_on_without_changing_a_copy() -> None:
    match = Match.start(["a", "b"], HouseRules(target=None, hands=2), seed=3)
    finish_hand(match, random.Random(3))
    twin = match.copy()
    frozen = _snapshot(twin)
    history = twin.history
    match.next_hand()
    finish_hand(match, random.Random(4))
    assert match.is_over
    assert _snapshot(twin) == frozen
    assert twin.history == history and not twin.is_over
    assert Match.from_dict(twin.to_dict()) == twin


def test_a_copy_takes_refused_and_accepted_moves_like_the_original() -> None:
    match = Match.start(["a", "b", "c"], HouseRules(), seed=9)
    rng = random.Random(9)
    while not match.is_over:
        if match.hand.is_over:
            match.next_hand()
        twin = match.copy()
        player, action = choose(match.hand, rng, "eager")
        assert twin.apply(player, action) == match.apply(player, action)
        assert twin == match
        with pytest.raises(NotSeatedError):
            twin.apply("zed", DrawStock())
        assert twin == match
