from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from engine import (
    Action,
    Discard,
    DrawStock,
    LayOff,
    MeldCards,
    RummyError,
    TakeDiscard,
    action_from_dict,
    action_to_dict,
    describe_action,
)

from .helpers import card, cards

EXAMPLES: list[tuple[Action, dict[str, Any], str]] = [
    (DrawStock(), {"action": "draw", "source": "stock"}, "Draw from the stock"),
    (TakeDiscard(), {"action": "draw", "source": "discard"}, "Take the top discard"),
    (
        MeldCards(tuple(cards("AS 2S 3S"))),
        {"action": "meld", "cards": ["AS", "2S", "3S"]},
        "Meld A♠ 2♠ 3♠",
    ),
    (
        LayOff(tuple(cards("4S")), 0),
        {"action": "lay_off", "cards": ["4S"], "meld": 0},
        "Lay off 4♠ on meld 1",
    ),
    (Discard(card("9C")), {"action": "discard", "card": "9C"}, "Discard 9♣"),
]


@pytest.mark.parametrize(("action", "data", "label"), EXAMPLES)
def test_replay_form_round_trip(action: Action, data: dict[str, Any], label: str) -> None:
    assert action_to_dict(action) == data
    assert action_from_dict(data) == action
    assert action_from_dict({**data, "player": "ann"}) == action
    assert describe_action(action) == label


def test_lower_case_codes_are_read() -> None:
    assert action_from_dict({"action": "discard", "card": "qh"}) == Discard(card("QH"))


def test_actions_are_frozen_and_hashable() -> None:
    actions = {a for a, _, _ in EXAMPLES} | {DrawStock(), Discard(card("9C"))}
    assert len(actions) == len(EXAMPLES)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Discard(card("9C")).card = card("8C")  # type: ignore[misc]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"action": "knock"}, "unknown action 'knock'"),
        ({"source": "stock"}, "needs an 'action' field"),
        ({"action": "draw"}, "a draw action needs a 'source' field"),
        ({"action": "draw", "source": "deck"}, "unknown draw source 'deck'"),
        ({"action": "meld"}, "a meld action needs a 'cards' field"),
        ({"action": "meld", "cards": "AS 2S 3S"}, "'cards' must be a list"),
        ({"action": "meld", "cards": ["AS", "2S", "1?"]}, "'1?' is not a card"),
        ({"action": "lay_off", "cards": ["4S"]}, "a lay_off action needs a 'meld' field"),
        ({"action": "lay_off", "cards": ["4S"], "meld": "0"}, "'meld' must be a meld number"),
        ({"action": "lay_off", "cards": ["4S"], "meld": True}, "'meld' must be a meld number"),
        ({"action": "discard"}, "a discard action needs a 'card' field"),
        ({"action": "discard", "card": 9}, "9 is not a card"),
        (
            {"action": "discard", "card": "9C", "cards": []},
            "unknown key 'cards' in a discard action",
        ),
        (["discard"], "an action must be an object"),
    ],
)
def test_malformed_actions(data: Any, message: str) -> None:
    with pytest.raises(RummyError, match=re.escape(message)):
        action_from_dict(data)
