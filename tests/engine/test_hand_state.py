"""Saved state: exact round trip through JSON, refusal of corrupt data, atomic moves."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from engine import (
    MAX_TURNS,
    Discard,
    DrawStock,
    EmptyStock,
    Hand,
    HouseRules,
    InvalidStateError,
    LayOff,
    MeldCards,
    MeldsPerTurn,
    RummyError,
    TakeDiscard,
    full_deck,
)

from .helpers import card, cards, choose, json_round_trip, position


def finished_hand() -> Hand:
    hand = position({"ann": "AS 2S 3S", "bob": "KD 5C"}, stock="9C", discard="2H")
    hand.apply("ann", DrawStock())
    hand.apply("ann", MeldCards(tuple(cards("AS 2S 3S"))))
    hand.apply("ann", Discard(card("9C")))
    return hand


def mid_turn_hand() -> Hand:
    hand = position({"ann": "AS 2S 3S 4S QH", "bob": "KD 5C"}, stock="9C 8C", discard="2H 7C")
    hand.apply("ann", TakeDiscard())
    hand.apply("ann", MeldCards(tuple(cards("AS 2S 3S"))))
    return hand


def test_round_trip_through_json_at_every_step() -> None:
    for seed in range(6):
        rules = HouseRules(empty_stock=list(EmptyStock)[seed % 2])
        hand = Hand.deal(["a", "b", "c"], rules, seed % 3, seed)
        rng = random.Random(seed)
        while True:
            data = hand.to_dict()
            again = json_round_trip(hand)
            assert again.to_dict() == data
            assert again == hand
            if hand.is_over:
                break
            hand.apply(*choose(hand, rng, "eager" if seed % 2 else "uniform"))


def test_round_trip_keeps_the_turn_state() -> None:
    hand = mid_turn_hand()
    again = json_round_trip(hand)
    assert again.taken_discard == card("7C")
    assert again.melded_this_turn == 1
    assert again.legal_actions("ann") == hand.legal_actions("ann")
    finished = finished_hand()
    assert json_round_trip(finished).outcome == finished.outcome


def test_copies_are_independent() -> None:
    hand = mid_turn_hand()
    twin = hand.copy()
    twin.apply("ann", Discard(card("QH")))
    assert twin != hand
    assert hand.turn == "ann"


Mutation = Callable[[dict[str, Any]], None]


def _set(key: str, value: object) -> Mutation:
    def change(data: dict[str, Any]) -> None:
        data[key] = value

    return change


def _dup_card(data: dict[str, Any]) -> None:
    data["stock"].append(data["hands"]["ann"][0])


def _bad_meld(data: dict[str, Any]) -> None:
    data["melds"][0]["cards"] = ["AS", "2S", "4S"]


def _meld_order(data: dict[str, Any]) -> None:
    data["melds"][0]["cards"] = ["3S", "2S", "AS"]


def _meld_kind(data: dict[str, Any]) -> None:
    data["melds"][0]["kind"] = "set"


def _owners_short(data: dict[str, Any]) -> None:
    data["melds"][0]["owners"] = ["ann"]


def _owner_unknown(data: dict[str, Any]) -> None:
    data["melds"][0]["owners"] = ["ann", "ann", "zed"]


def _hand_missing(data: dict[str, Any]) -> None:
    del data["hands"]["bob"]


def _extra_key(data: dict[str, Any]) -> None:
    data["cheat"] = True


def _missing_key(data: dict[str, Any]) -> None:
    del data["stock"]


def _taken_not_held(data: dict[str, Any]) -> None:
    data["taken"] = "KD"


def _bad_code(data: dict[str, Any]) -> None:
    data["stock"][0] = "1?"


MID_TURN_CORRUPTIONS: list[tuple[str, Mutation]] = [
    ("version", _set("version", 2)),
    ("players", _set("players", "ann bob")),
    ("one player", _set("players", ["ann"])),
    ("rules", _set("rules", {"ace": "sideways"})),
    ("dealer", _set("dealer", 5)),
    ("seed", _set("seed", "7")),
    ("duplicate card", _dup_card),
    ("unknown card", _bad_code),
    ("invalid meld", _bad_meld),
    ("meld order", _meld_order),
    ("meld kind", _meld_kind),
    ("owners length", _owners_short),
    ("owner unknown", _owner_unknown),
    ("missing hand", _hand_missing),
    ("extra key", _extra_key),
    ("missing key", _missing_key),
    ("turn", _set("turn", "zed")),
    ("phase", _set("phase", "nap")),
    ("over without outcome", _set("phase", "over")),
    ("outcome while playing", _set("outcome", {})),
    ("taken not held", _taken_not_held),
    ("taken in draw phase", _set("phase", "draw")),
    ("melds_this_turn", _set("melds_this_turn", -1)),
    ("played_this_turn", _set("played_this_turn", "yes")),
    ("played", _set("played", ["zed"])),
    ("exhaustions", _set("exhaustions", 4)),
    ("turns", _set("turns", MAX_TURNS + 1)),
    ("turns at the limit", _set("turns", MAX_TURNS)),
]


@pytest.mark.parametrize(
    "mutate", [m for _, m in MID_TURN_CORRUPTIONS], ids=[n for n, _ in MID_TURN_CORRUPTIONS]
)
def test_corrupt_mid_turn_state_is_refused(mutate: Mutation) -> None:
    data = copy.deepcopy(mid_turn_hand().to_dict())
    mutate(data)
    with pytest.raises(InvalidStateError):
        Hand.from_dict(data)


def _wrong_score(data: dict[str, Any]) -> None:
    data["outcome"]["scores"]["ann"] += 1


def _wrong_winner(data: dict[str, Any]) -> None:
    data["outcome"]["winners"] = ["bob"]


def _wrong_remaining(data: dict[str, Any]) -> None:
    data["outcome"]["remaining"]["bob"] = ["KD"]


def _wrong_reason(data: dict[str, Any]) -> None:
    data["outcome"]["reason"] = "turn_limit"


FINISHED_CORRUPTIONS: list[tuple[str, Mutation]] = [
    ("score", _wrong_score),
    ("winner", _wrong_winner),
    ("remaining", _wrong_remaining),
    ("reason", _wrong_reason),
    ("rummy", _set("turn", "ann")),
]


@pytest.mark.parametrize(
    "mutate", [m for _, m in FINISHED_CORRUPTIONS], ids=[n for n, _ in FINISHED_CORRUPTIONS]
)
def test_corrupt_finished_state_is_refused(mutate: Mutation) -> None:
    data = copy.deepcopy(finished_hand().to_dict())
    mutate(data)
    with pytest.raises(InvalidStateError):
        Hand.from_dict(data)


@pytest.mark.parametrize("data", [None, [], "hand", 5])
def test_not_even_an_object(data: Any) -> None:
    with pytest.raises(InvalidStateError):
        Hand.from_dict(data)


def test_invalid_state_is_a_rummy_error() -> None:
    assert issubclass(InvalidStateError, RummyError)


def test_one_meld_rule_is_checked_on_load() -> None:
    rules = HouseRules(melds_per_turn=MeldsPerTurn.ONE)
    hand = position(
        {"ann": "AS 2S 3S 7D 7H 7S QH", "bob": "KD"}, stock="9C", discard="2H", rules=rules
    )
    hand.apply("ann", DrawStock())
    hand.apply("ann", MeldCards(tuple(cards("AS 2S 3S"))))
    data = hand.to_dict()
    data["melds_this_turn"] = 2
    with pytest.raises(InvalidStateError):
        Hand.from_dict(data)


def test_refused_moves_change_nothing_in_random_states() -> None:
    rng = random.Random(99)
    hand = Hand.deal(["a", "b", "c", "d"], HouseRules(), 0, 99)
    deck = full_deck()
    refused = 0
    while not hand.is_over:
        player = hand.turn
        assert player is not None
        legal = hand.legal_actions(player)
        for _ in range(5):
            attempt = rng.choice(
                [
                    DrawStock(),
                    TakeDiscard(),
                    Discard(rng.choice(deck)),
                    MeldCards(tuple(rng.sample(deck, 3))),
                    LayOff(tuple(rng.sample(deck, 1)), rng.randrange(-1, 3)),
                ]
            )
            who = rng.choice([player, "a", "b", "zz"])
            before = json.dumps(hand.to_dict(), sort_keys=True)
            trial = hand.copy()
            try:
                trial.apply(who, attempt)
            except RummyError:
                refused += 1
                # the refused move left the original, and the copy, untouched
                assert json.dumps(trial.to_dict(), sort_keys=True) == before
            else:
                assert who == player and attempt in legal
        hand.apply(*choose(hand, rng, "uniform"))
    assert refused > 100
