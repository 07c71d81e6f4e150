from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import pytest

from engine import (
    MAX_RESHUFFLES,
    MAX_TURNS,
    AceRule,
    EmptyStock,
    GoOut,
    HouseRules,
    MeldsPerTurn,
    RummyBonus,
    RummyError,
)

ALL_COMBINATIONS = list(itertools.product(AceRule, MeldsPerTurn, GoOut, RummyBonus, EmptyStock))


def test_defaults_are_those_of_rules_md() -> None:
    rules = HouseRules()
    assert rules.ace is AceRule.LOW
    assert rules.melds_per_turn is MeldsPerTurn.UNLIMITED
    assert rules.go_out is GoOut.ANY
    assert rules.rummy_bonus is RummyBonus.DOUBLE
    assert rules.empty_stock is EmptyStock.RESHUFFLE
    assert (rules.target, rules.hands, rules.turn_timeout) == (100, None, 120)
    assert HouseRules.from_dict({}) == rules


@pytest.mark.parametrize("combo", ALL_COMBINATIONS)
def test_round_trip_every_combination(combo: tuple[Any, ...]) -> None:
    rules = HouseRules(*combo, target=None, hands=3, turn_timeout=0)
    data = rules.to_dict()
    assert HouseRules.from_dict(data) == rules
    assert data["ace"] == combo[0].value
    assert len(rules.describe()) >= 7


def test_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        HouseRules().ace = AceRule.HIGH_OR_LOW  # type: ignore[misc]


def test_hands_without_target_means_a_fixed_number_of_hands() -> None:
    rules = HouseRules.from_dict({"hands": 5})
    assert (rules.target, rules.hands) == (None, 5)


def test_plain_strings_become_enum_members() -> None:
    rules = HouseRules(ace="high_or_low")  # type: ignore[arg-type]
    assert rules.ace is AceRule.HIGH_OR_LOW
    assert rules == HouseRules(ace=AceRule.HIGH_OR_LOW)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"aces": "low"}, "unknown house rule 'aces'"),
        ({"ace": "sometimes"}, "ace must be one of: low, high_or_low"),
        ({"melds_per_turn": 1}, "melds_per_turn must be one of: unlimited, one"),
        ({"go_out": "never"}, "go_out must be one of: any, discard_only"),
        ({"rummy_bonus": "triple"}, "rummy_bonus must be one of: double, none"),
        ({"empty_stock": "stop"}, "empty_stock must be one of: reshuffle, turn_over"),
        ({"target": 0}, "target must be a whole number from 1 to 10000"),
        ({"target": 10001}, "target must be a whole number from 1 to 10000"),
        ({"target": "100"}, "target must be a whole number from 1 to 10000"),
        ({"target": True}, "target must be a whole number from 1 to 10000"),
        ({"hands": 0}, "hands must be a whole number from 1 to 100"),
        ({"hands": 101}, "hands must be a whole number from 1 to 100"),
        ({"turn_timeout": -1}, "turn_timeout must be a whole number from 0 to 3600"),
        ({"turn_timeout": 3601}, "turn_timeout must be a whole number from 0 to 3600"),
        ({"turn_timeout": None}, "turn_timeout must be a whole number from 0 to 3600"),
        (
            {"target": 100, "hands": 3},
            "Choose either a target score or a number of hands for the match, not both",
        ),
        (
            {"target": None},
            "Choose either a target score or a number of hands for the match, not both",
        ),
    ],
)
def test_from_dict_refuses_with_a_clear_message(data: dict[str, Any], message: str) -> None:
    with pytest.raises(RummyError) as caught:
        HouseRules.from_dict(data)
    assert str(caught.value) == message


def test_from_dict_needs_a_mapping() -> None:
    with pytest.raises(RummyError):
        HouseRules.from_dict(["ace"])  # type: ignore[arg-type]


def test_constructor_validates_too() -> None:
    with pytest.raises(RummyError):
        HouseRules(hands=3)  # target still 100: both set
    with pytest.raises(RummyError):
        HouseRules(target=None, hands=None)
    assert HouseRules(target=None, hands=3).hands == 3


def test_describe_states_the_bounds_of_the_engine() -> None:
    text = " ".join(HouseRules().describe())
    assert f"after {MAX_RESHUFFLES} reshuffles" in text
    assert f"after {MAX_TURNS} turns" in text
    assert "first to 100 points" in text
    turn_over = " ".join(HouseRules(empty_stock=EmptyStock.TURN_OVER, turn_timeout=0).describe())
    assert "second time" in turn_over
    assert "Turn timer: off." in turn_over
    fixed = " ".join(HouseRules(target=None, hands=4, ace=AceRule.HIGH_OR_LOW).describe())
    assert "4 hands" in fixed
    assert "counts 15" in fixed
