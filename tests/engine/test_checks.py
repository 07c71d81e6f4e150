"""The checks of what reaches the engine from outside: players, seeds, laid-out
positions (one check for every way a hand is set up) and fields of saved JSON."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest

from engine import (
    Card,
    HouseRules,
    InvalidStateError,
    MeldKind,
    Phase,
    RummyError,
    SetupError,
    SetupFault,
    TableMeld,
    check_position,
    make_meld,
)
from engine.checks import (
    as_bool,
    as_card,
    as_cards,
    as_enum,
    as_int,
    as_object,
    as_player,
    check_keys,
    check_players,
    check_seed,
)

from .helpers import card, cards


@pytest.mark.parametrize(
    ("players", "fault", "message"),
    [
        ("ab", SetupFault.PLAYER_LIST, "players must be a list of player ids"),
        (["a"], SetupFault.PLAYER_COUNT, "Rummy is played by 2 to 6 players"),
        (list("abcdefg"), SetupFault.PLAYER_COUNT, "Rummy is played by 2 to 6 players"),
        (["a", ""], SetupFault.PLAYER_ID, "every player id must be a non-empty string"),
        (["a", 7], SetupFault.PLAYER_ID, "every player id must be a non-empty string"),
        (["a", "b", "a"], SetupFault.PLAYER_TWICE, "a player cannot take two seats"),
    ],
)
def test_check_players(players: Any, fault: SetupFault, message: str) -> None:
    with pytest.raises(SetupError) as caught:
        check_players(players)
    assert (caught.value.fault, str(caught.value)) == (fault, message)
    assert isinstance(caught.value, RummyError)


def test_check_players_gives_the_seats_in_order() -> None:
    assert check_players(["b", "a"]) == ("b", "a")
    assert check_players(iter(["a", "b", "c", "d", "e", "f"])) == tuple("abcdef")  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["7", 7.0, True, None])
def test_check_seed(seed: object) -> None:
    with pytest.raises(SetupError) as caught:
        check_seed(seed)
    assert caught.value.fault is SetupFault.SEED and caught.value.subject == seed
    assert str(caught.value) == "the seed must be a whole number"
    assert check_seed(-3) == -3


def position_of(
    players: Sequence[str] = ("ann", "bob"),
    hands: dict[str, list[Card]] | None = None,
    stock: str = "9C",
    discard: str = "2H",
    first: str = "ann",
    seed: object = 1,
    melds: Sequence[TableMeld] = (),
) -> tuple[str, ...]:
    if hands is None:
        hands = {"ann": cards("AS"), "bob": cards("KD")}
    return check_position(players, hands, cards(stock), cards(discard), first, seed, melds)  # type: ignore[arg-type]


def test_a_position_gives_its_seats() -> None:
    assert position_of() == ("ann", "bob")
    assert position_of(hands={"ann": [], "bob": []}, stock="", discard="") == ("ann", "bob")


@pytest.mark.parametrize(
    ("change", "fault", "subject", "message"),
    [
        ({"players": ["ann"]}, SetupFault.PLAYER_COUNT, None, "Rummy is played by 2 to 6 players"),
        ({"seed": "1"}, SetupFault.SEED, "1", "the seed must be a whole number"),
        (
            {"hands": {"ann": [], "bob": [], "zed": []}},
            SetupFault.UNKNOWN_HAND,
            "zed",
            "unknown player 'zed' in hands",
        ),
        ({"hands": {"ann": []}}, SetupFault.MISSING_HAND, "bob", "no hand given for player 'bob'"),
        ({"first": "zed"}, SetupFault.UNSEATED_FIRST, "zed", "unknown player 'zed' to move first"),
        ({"first": None}, SetupFault.UNSEATED_FIRST, None, "unknown player None to move first"),
        (
            {"hands": {"ann": ["AS"], "bob": []}},
            SetupFault.NOT_A_CARD,
            "AS",
            "'AS' in ann's hand is not a card",
        ),
        ({"stock": "AS"}, SetupFault.CARD_TWICE, Card.parse("AS"), "AS is in two places"),
        ({"discard": "9C"}, SetupFault.CARD_TWICE, Card.parse("9C"), "9C is in two places"),
    ],
)
def test_every_fault_of_a_position(
    change: dict[str, Any], fault: SetupFault, subject: object, message: str
) -> None:
    with pytest.raises(SetupError) as caught:
        position_of(**change)
    assert (caught.value.fault, caught.value.subject, str(caught.value)) == (
        fault,
        subject,
        message,
    )


def test_a_card_on_the_table_is_in_its_place_too() -> None:
    meld = TableMeld(make_meld(cards("AS 2S 3S"), HouseRules()), ("ann",) * 3)
    with pytest.raises(SetupError, match="AS is in two places"):
        position_of(melds=[meld])
    assert position_of(hands={"ann": cards("4S"), "bob": []}, melds=[meld]) == ("ann", "bob")


def test_the_players_are_checked_before_anything_else() -> None:
    with pytest.raises(SetupError) as caught:
        position_of(players=["ann", "ann"], stock="AS", first="zed")
    assert caught.value.fault is SetupFault.PLAYER_TWICE


# --- fields of saved JSON --------------------------------------------------------------------
def refused(message: str) -> Any:
    """Expect an ``InvalidStateError`` saying exactly ``message``."""
    return pytest.raises(InvalidStateError, match=f"^{re.escape(message)}$")


def test_as_object_and_check_keys() -> None:
    assert as_object({"a": 1}, "x") == {"a": 1}
    with refused("x must be an object"):
        as_object([], "x")
    keys = frozenset({"a", "b"})
    assert check_keys({"a": 1, "b": 2}, keys, "x") == {"a": 1, "b": 2}
    with refused("unknown key 'c' in x"):
        check_keys({"a": 1, "c": 2, "d": 3}, keys, "x")
    with refused("x is missing 'a'"):
        check_keys({}, keys, "x")


def test_as_int_and_as_bool() -> None:
    assert as_int(3, "n", 0, 3) == 3
    for value in ("3", 3.0, True):
        with refused("n must be a whole number"):
            as_int(value, "n")
    with refused("n is out of range"):
        as_int(-1, "n", 0)
    with refused("n is out of range"):
        as_int(4, "n", high=3)
    assert as_bool(False, "b") is False
    with refused("b must be true or false"):
        as_bool(0, "b")


def test_as_player_card_cards_and_enum() -> None:
    assert as_player("bob", ("ann", "bob"), "turn") == "bob"
    with refused("turn: 'zed' is not a player of this hand"):
        as_player("zed", ("ann", "bob"), "turn")
    assert as_card("10h", "taken") == card("10H")
    with pytest.raises(InvalidStateError) as caught:
        as_card("1?", "taken")
    assert str(caught.value).startswith("taken: '1?' is not a card")
    assert as_cards(["AS", "KD"], "stock") == cards("AS KD")
    with refused("stock must be a list of card codes"):
        as_cards("AS KD", "stock")
    assert as_enum(Phase, "play", "phase") is Phase.PLAY
    with refused("melds[0].kind: 'pair' is not a valid value"):
        as_enum(MeldKind, "pair", "melds[0].kind")
