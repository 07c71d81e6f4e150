"""Small builders shared by the engine tests: positions written as card codes."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pytest

from engine import (
    Action,
    Card,
    Discard,
    DrawStock,
    Hand,
    HouseRules,
    LayOff,
    MeldCards,
    RummyError,
    TakeDiscard,
    parse_cards,
)


def cards(text: str) -> list[Card]:
    """``"AS 2S 10H"`` -> the three cards."""
    return parse_cards(text.split())


def card(code: str) -> Card:
    return Card.parse(code)


def position(
    hands: Mapping[str, str],
    stock: str = "",
    discard: str = "",
    first: str | None = None,
    rules: HouseRules | None = None,
    seed: int = 0,
) -> Hand:
    """A laid-out hand; players are seated in the order of ``hands``."""
    players = list(hands)
    return Hand.from_position(
        players,
        rules or HouseRules(),
        {p: cards(text) for p, text in hands.items()},
        cards(stock),
        cards(discard),
        first or players[0],
        seed,
    )


def finished_hand() -> Hand:
    """Two players; ann has gone out with a rummy (A♠ 2♠ 3♠, then 9♣ discarded)."""
    hand = position({"ann": "AS 2S 3S", "bob": "KD 5C"}, stock="9C", discard="2H")
    hand.apply("ann", DrawStock())
    hand.apply("ann", MeldCards(tuple(cards("AS 2S 3S"))))
    hand.apply("ann", Discard(card("9C")))
    return hand


def mid_turn_hand() -> Hand:
    """Two players; ann took 7♣ from the pile and melded A♠ 2♠ 3♠, and must discard."""
    hand = position({"ann": "AS 2S 3S 4S QH", "bob": "KD 5C"}, stock="9C 8C", discard="2H 7C")
    hand.apply("ann", TakeDiscard())
    hand.apply("ann", MeldCards(tuple(cards("AS 2S 3S"))))
    return hand


def every_card(hand: Hand) -> list[Card]:
    """Every card of the hand, wherever it is: hands, stock, discard pile, melds."""
    data = hand.to_dict()
    codes = [c for p in data["hands"] for c in data["hands"][p]]
    codes += data["stock"] + data["discard"]
    codes += [c for meld in data["melds"] for c in meld["cards"]]
    return parse_cards(codes)


def json_round_trip(hand: Hand) -> Hand:
    return Hand.from_dict(json.loads(json.dumps(hand.to_dict())))


def assert_refused(
    hand: Hand, player: str, action: Action, error: type[RummyError], message: str
) -> None:
    """The move raises ``error`` with exactly ``message`` and the hand is unchanged."""
    before = hand.to_dict()
    with pytest.raises(error) as caught:
        hand.apply(player, action)
    assert type(caught.value) is error
    assert str(caught.value) == message
    assert hand.to_dict() == before


def state(hand: Hand) -> dict[str, Any]:
    return hand.to_dict()


POLICIES = ("uniform", "eager", "hoarder", "taker")


def choose(hand: Hand, rng: random.Random, policy: str) -> tuple[str, Action]:
    """A random legal move for the player to move, in one of several playing styles.

    uniform: any legal move. eager: melds and lays off whenever it can (hands end by
    going out). hoarder: never melds, always draws from the stock (the stock runs
    out). taker: never melds and always takes the discard (the turn limit ends it).
    """
    player = hand.turn
    assert player is not None
    legal = hand.legal_actions(player)
    assert legal, "the player to move always has a legal move"
    if policy == "uniform":
        return player, rng.choice(legal)
    plays = [a for a in legal if isinstance(a, MeldCards | LayOff)]
    draws = [a for a in legal if isinstance(a, DrawStock | TakeDiscard)]
    discards = [a for a in legal if isinstance(a, Discard)]
    if policy == "eager":
        if plays and rng.random() < 0.9:
            return player, rng.choice(plays)
        if draws:
            return player, draws[0] if rng.random() < 0.7 else rng.choice(draws)
        return player, rng.choice(discards or legal)
    if draws:
        wanted = TakeDiscard() if policy == "taker" else DrawStock()
        return player, wanted if wanted in draws else draws[0]
    return player, rng.choice(discards)


def play_out(hand: Hand, rng: random.Random, policy: str = "uniform", limit: int = 5000) -> int:
    """Play random legal moves until the hand ends; returns the number of moves."""
    moves = 0
    while not hand.is_over:
        assert moves < limit
        hand.apply(*choose(hand, rng, policy))
        moves += 1
    return moves
