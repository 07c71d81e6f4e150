from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import pytest

from engine import (
    RULE_OPTIONS,
    AceRule,
    EmptyStock,
    GoOut,
    Hints,
    HouseRules,
    MeldsPerTurn,
    RuleOption,
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


# The Discord side builds its slash-command options from this declaration.
DESCRIPTIONS = {
    "ace": "Aces low only, or high or low",
    "melds_per_turn": "How many melds a player may put down in one turn",
    "go_out": "Whether the last card must be discarded",
    "rummy_bonus": "Double the points for going out in one turn",
    "empty_stock": "What happens when the stock runs out",
    "target": "Play until someone reaches this score",
    "hands": "Play this many hands instead of to a target",
    "turn_timeout": "Seconds per turn (0 = no timer)",
    "hints": "Whether players may ask for a suggested move",
}


def test_rule_options_declare_every_house_rule_in_field_order() -> None:
    assert [option.name for option in RULE_OPTIONS] == list(HouseRules.__dataclass_fields__)
    assert {option.name: option.description for option in RULE_OPTIONS} == DESCRIPTIONS
    assert all(len(option.description) <= 100 for option in RULE_OPTIONS)


def test_rule_options_are_choices_or_ranges() -> None:
    kinds = {
        "ace": AceRule,
        "melds_per_turn": MeldsPerTurn,
        "go_out": GoOut,
        "rummy_bonus": RummyBonus,
        "empty_stock": EmptyStock,
        "hints": Hints,
    }
    for option in RULE_OPTIONS:
        if option.name in kinds:
            assert option.choices == tuple(member.value for member in kinds[option.name])
            assert (option.minimum, option.maximum) == (None, None)
        else:
            assert option.choices is None
            assert option.minimum is not None and option.maximum is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        RULE_OPTIONS[0].name = "aces"  # type: ignore[misc]


@pytest.mark.parametrize(
    "option", [o for o in RULE_OPTIONS if o.choices is None], ids=lambda o: o.name
)
def test_whole_number_rules_are_checked_against_their_declared_range(option: RuleOption) -> None:
    assert option.minimum is not None and option.maximum is not None
    other = {"target": None} if option.name == "hands" else {}
    for value in (option.minimum, option.maximum):
        assert HouseRules.from_dict({**other, option.name: value}).to_dict()[option.name] == value
    message = f"{option.name} must be a whole number from {option.minimum} to {option.maximum}"
    for value in (option.minimum - 1, option.maximum + 1):
        with pytest.raises(RummyError) as caught:
            HouseRules.from_dict({**other, option.name: value})
        assert str(caught.value) == message


@pytest.mark.parametrize(
    "option", [o for o in RULE_OPTIONS if o.choices is not None], ids=lambda o: o.name
)
def test_choice_rules_accept_exactly_their_declared_choices(option: RuleOption) -> None:
    assert option.choices is not None
    for value in option.choices:
        rules = HouseRules.from_dict({option.name: value})
        assert getattr(rules, option.name).value == value
        assert HouseRules.from_dict(rules.to_dict()) == rules
    with pytest.raises(RummyError) as caught:
        HouseRules.from_dict({option.name: "nonsense"})
    assert str(caught.value) == f"{option.name} must be one of: {', '.join(option.choices)}"


def test_hints_on_by_default_and_saved_only_when_off() -> None:
    assert HouseRules().hints is Hints.ON and "hints" not in HouseRules().to_dict()
    off = HouseRules(hints=Hints.OFF)
    assert off.to_dict()["hints"] == "off" and HouseRules.from_dict(off.to_dict()) == off
