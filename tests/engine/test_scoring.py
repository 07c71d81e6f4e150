"""Scoring a finished hand: card points, going out, rummy, the lowest count, and the
outcome's saved form checked against the scoring rules."""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    AceRule,
    HandOutcome,
    HouseRules,
    InvalidStateError,
    RummyBonus,
    Termination,
    hand_points,
    lowest_count_scores,
)
from engine.scoring import score_hand

from .helpers import cards

PLAYERS = ("ann", "bob", "cat")


@pytest.mark.parametrize(
    ("ace", "expected"), [(AceRule.LOW, 1 + 2 + 10 + 10 + 10 + 10), (AceRule.HIGH_OR_LOW, 57)]
)
def test_hand_points_count_the_ace_by_the_ace_rule(ace: AceRule, expected: int) -> None:
    assert hand_points(cards("AS 2D 10H JC QD KS"), HouseRules(ace=ace)) == expected
    assert hand_points([], HouseRules(ace=ace)) == 0


@pytest.mark.parametrize(
    ("counts", "winners", "scores"),
    [
        ({"a": 6, "b": 15, "c": 7, "d": 21}, ("a",), {"a": 25, "b": 0, "c": 0, "d": 0}),
        ({"a": 5, "b": 5, "c": 10}, ("a", "b"), {"a": 2, "b": 2, "c": 0}),  # 5 split: 2 each
        ({"a": 5, "b": 5, "c": 6}, ("a", "b"), {"a": 0, "b": 0, "c": 0}),  # 1 split: rounded down
        ({"a": 3, "b": 8, "c": 3, "d": 3}, ("a", "c", "d"), {"a": 1, "b": 0, "c": 1, "d": 1}),
        ({"a": 4, "b": 4}, ("a", "b"), {"a": 0, "b": 0}),
        ({"a": 0, "b": 30}, ("a",), {"a": 30, "b": 0}),
    ],
)
def test_lowest_count_scoring(
    counts: dict[str, int], winners: tuple[str, ...], scores: dict[str, int]
) -> None:
    assert lowest_count_scores(counts) == (winners, scores)


@pytest.mark.parametrize(
    ("bonus", "rummy", "expected"),
    [
        (RummyBonus.DOUBLE, False, 12 + 20),
        (RummyBonus.DOUBLE, True, 2 * (12 + 20)),
        (RummyBonus.NONE, True, 12 + 20),
    ],
)
def test_going_out_scores_every_other_count(bonus: RummyBonus, rummy: bool, expected: int) -> None:
    rules = HouseRules(rummy_bonus=bonus)
    remaining = {"ann": [], "bob": cards("2C KD"), "cat": cards("QH JH")}
    outcome = score_hand(PLAYERS, rules, remaining, "ann", rummy, Termination.WENT_OUT)
    assert outcome.winners == ("ann",)
    assert outcome.scores == {"ann": expected, "bob": 0, "cat": 0}
    assert outcome.counts == {"ann": 0, "bob": 12, "cat": 20}
    assert outcome.remaining == {p: tuple(remaining[p]) for p in PLAYERS}
    assert (outcome.went_out, outcome.rummy, outcome.reason) == ("ann", rummy, Termination.WENT_OUT)


def test_nobody_out_scores_by_the_lowest_count() -> None:
    remaining = {"ann": cards("6C"), "bob": cards("10D 5C"), "cat": cards("7H")}
    outcome = score_hand(PLAYERS, HouseRules(), remaining, None, False, Termination.TURN_LIMIT)
    assert outcome.winners == ("ann",)
    assert outcome.scores == {"ann": 9 + 1, "bob": 0, "cat": 0}


def finished() -> HandOutcome:
    remaining = {"ann": [], "bob": cards("2C KD"), "cat": cards("QH JH")}
    return score_hand(PLAYERS, HouseRules(), remaining, "ann", True, Termination.WENT_OUT)


def test_an_outcome_reads_back_from_its_dict() -> None:
    outcome = finished()
    data = outcome.to_dict()
    assert data == {
        "went_out": "ann",
        "winners": ["ann"],
        "scores": {"ann": 64, "bob": 0, "cat": 0},
        "rummy": True,
        "reason": "went_out",
        "remaining": {"ann": [], "bob": ["2C", "KD"], "cat": ["QH", "JH"]},
        "counts": {"ann": 0, "bob": 12, "cat": 20},
    }
    assert HandOutcome.from_dict(data, PLAYERS, HouseRules()) == outcome


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"went_out": "zed"}, "outcome.went_out: 'zed' is not a player of this hand"),
        ({"rummy": "yes"}, "outcome.rummy must be true or false"),
        ({"reason": "boredom"}, "outcome.reason: 'boredom' is not a valid value"),
        ({"remaining": []}, "outcome.remaining must be an object"),
        ({"remaining": {"ann": []}}, "outcome.remaining must list every player"),
        ({"reason": "turn_limit"}, "outcome.went_out does not match outcome.reason"),
        (
            {"went_out": None, "reason": "turn_limit"},
            "outcome.rummy needs somebody to have gone out",
        ),
        (
            {"remaining": {"ann": ["AS"], "bob": ["2C", "KD"], "cat": ["QH", "JH"]}},
            "outcome: the player who went out still holds cards",
        ),
        (
            {"scores": {"ann": 32, "bob": 0, "cat": 0}},
            "outcome.scores does not match the cards left in hand",
        ),
        ({"winners": ["bob"]}, "outcome.winners does not match the cards left in hand"),
        (
            {"counts": {"ann": 0, "bob": 2, "cat": 20}},
            "outcome.counts does not match the cards left in hand",
        ),
        ({"extra": 1}, "unknown key 'extra' in outcome"),
    ],
)
def test_a_saved_outcome_must_be_what_the_cards_score(change: dict[str, Any], message: str) -> None:
    data = {**finished().to_dict(), **change}
    with pytest.raises(InvalidStateError) as caught:
        HandOutcome.from_dict(data, PLAYERS, HouseRules())
    assert str(caught.value) == message


def test_a_saved_outcome_is_scored_under_the_tables_rules() -> None:
    data = finished().to_dict()
    with pytest.raises(InvalidStateError, match=r"outcome\.scores does not match"):
        HandOutcome.from_dict(data, PLAYERS, HouseRules(rummy_bonus=RummyBonus.NONE))
