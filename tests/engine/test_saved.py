"""The save format: exact round trip through JSON, every old save still loads, and
corrupt data is refused."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable
from pathlib import Path
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
    Match,
    MeldCards,
    MeldsPerTurn,
    Phase,
    RummyError,
    SetupError,
    SetupFault,
)
from engine.saved import (
    SavedHand,
    SavedMatch,
    hand_from_dict,
    hand_to_dict,
    match_from_dict,
    match_to_dict,
    setup_error_as_invalid_state,
)

from .helpers import card, cards, choose, finished_hand, json_round_trip, mid_turn_hand, position


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


# --- saves written before the engine was split into modules --------------------------------
SAVED_V1: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "saved_v1.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("name", sorted(SAVED_V1))
def test_every_old_save_loads_and_saves_back_unchanged(name: str) -> None:
    data = SAVED_V1[name]
    loaded: Hand | Match = Match.from_dict(data) if "hand_number" in data else Hand.from_dict(data)
    # The same keys in the same order, so the JSON text is identical too.
    assert json.dumps(loaded.to_dict()) == json.dumps(data)


def test_an_old_save_plays_on() -> None:
    match = Match.from_dict(SAVED_V1["match_mid_hand_3"])
    rng = random.Random(1)
    while not match.hand.is_over:
        match.apply(*choose(match.hand, rng, "eager"))
    assert len(match.history) == 3
    assert Match.from_dict(match.to_dict()) == match


# --- the two steps: decode, then check ------------------------------------------------------
def test_to_saved_is_a_snapshot() -> None:
    hand = mid_turn_hand()
    state = hand.to_saved()
    assert isinstance(state, SavedHand)
    assert hand_to_dict(state) == hand.to_dict()
    hand.apply("ann", Discard(card("QH")))
    assert state.turn == 0 and state.phase.value == "play"
    assert state.hands["ann"] == tuple(cards("4S 7C QH"))
    assert hand_to_dict(state) != hand.to_dict()


def test_decoding_gives_plain_values_that_the_hand_checks() -> None:
    hand = mid_turn_hand()
    state = hand_from_dict(json.loads(json.dumps(hand.to_dict())))
    assert state == hand.to_saved()
    assert state.taken == card("7C") and state.played_this_turn
    assert Hand.from_saved(state) == hand


def test_a_match_decodes_with_its_hand_and_history() -> None:
    match = Match.from_dict(SAVED_V1["match_over"])
    state = match_from_dict(SAVED_V1["match_over"])
    assert isinstance(state, SavedMatch)
    assert state == match.to_saved()
    assert len(state.history) == state.hand_number
    assert match_to_dict(state) == SAVED_V1["match_over"]
    assert Match.from_saved(state) == match


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dealer": 2}, "dealer is out of range"),
        ({"dealer": -1}, "dealer is out of range"),
        ({"turn": 5}, "turn: '' is not a player of this hand"),
        ({"melds_this_turn": -1}, "melds_this_turn is out of range"),
        ({"exhaustions": 4}, "exhaustions is out of range"),
        ({"turns": MAX_TURNS + 1}, "turns is out of range"),
        ({"seed": True}, "the seed must be a whole number"),
        ({"players": ("ann",)}, "Rummy is played by 2 to 6 players"),
        ({"players": ("ann", "bob", "cat")}, "hands must hold exactly one entry per player"),
        ({"stock": tuple(cards("9C AS"))}, "AS is in two places"),
        ({"phase": Phase.DRAW}, "only a player who has drawn can have taken or melded cards"),
    ],
)
def test_the_hand_checks_a_saved_state_however_it_was_built(
    change: dict[str, Any], message: str
) -> None:
    state = mid_turn_hand().to_saved()._replace(**change)
    with pytest.raises(InvalidStateError) as caught:
        Hand.from_saved(state)
    assert str(caught.value) == message


def test_setup_faults_are_worded_after_the_saved_fields() -> None:
    def worded(fault: SetupFault, subject: object = None) -> str:
        return str(setup_error_as_invalid_state(SetupError("engine wording", fault, subject)))

    assert worded(SetupFault.UNKNOWN_HAND, "zed") == "hands must hold exactly one entry per player"
    assert worded(SetupFault.MISSING_HAND, "bob") == "hands must hold exactly one entry per player"
    assert worded(SetupFault.UNSEATED_FIRST, "zed") == "turn: 'zed' is not a player of this hand"
    assert worded(SetupFault.CARD_TWICE) == "engine wording"


def test_saved_values_cannot_be_changed() -> None:
    state = mid_turn_hand().to_saved()
    with pytest.raises(AttributeError):
        state.turn = 1  # type: ignore[misc]
    assert not dataclasses.is_dataclass(state)  # a named tuple: cheap to build on every save
