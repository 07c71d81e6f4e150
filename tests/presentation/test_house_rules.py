"""The house rules as players read them: every rule a line, the engine's bounds stated."""

from __future__ import annotations

from itertools import product
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
)
from presentation.house_rules import house_rule_lines

ALL_COMBINATIONS = list(product(AceRule, MeldsPerTurn, GoOut, RummyBonus, EmptyStock))


@pytest.mark.parametrize("combo", ALL_COMBINATIONS)
def test_every_combination_has_a_line_per_rule(combo: tuple[Any, ...]) -> None:
    rules = HouseRules(*combo, target=None, hands=3, turn_timeout=0)
    assert len(house_rule_lines(rules)) >= 7


def test_the_lines_state_the_bounds_of_the_engine() -> None:
    text = " ".join(house_rule_lines(HouseRules()))
    assert f"after {MAX_RESHUFFLES} reshuffles" in text
    assert f"after {MAX_TURNS} turns" in text
    assert "first to 100 points" in text
    turned = HouseRules(empty_stock=EmptyStock.TURN_OVER, turn_timeout=0)
    turn_over = " ".join(house_rule_lines(turned))
    assert "second time" in turn_over
    assert "Turn timer: off." in turn_over
    fixed = " ".join(house_rule_lines(HouseRules(target=None, hands=4, ace=AceRule.HIGH_OR_LOW)))
    assert "4 hands" in fixed
    assert "counts 15" in fixed
