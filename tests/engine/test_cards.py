from __future__ import annotations

import dataclasses

import pytest

from engine import (
    AceRule,
    Card,
    HouseRules,
    RummyError,
    Suit,
    format_cards,
    full_deck,
    parse_cards,
    sort_by_rank,
    sort_by_suit,
)

from .helpers import cards


@pytest.mark.parametrize(
    ("text", "rank", "suit", "code", "display"),
    [
        ("10H", 10, Suit.HEARTS, "10H", "10♥"),
        ("as", 1, Suit.SPADES, "AS", "A♠"),
        ("Qd", 12, Suit.DIAMONDS, "QD", "Q♦"),
        (" 7c ", 7, Suit.CLUBS, "7C", "7♣"),
        ("kS", 13, Suit.SPADES, "KS", "K♠"),
        ("J♥", 11, Suit.HEARTS, "JH", "J♥"),
        ("2♣", 2, Suit.CLUBS, "2C", "2♣"),
    ],
)
def test_parse_str_and_display(text: str, rank: int, suit: Suit, code: str, display: str) -> None:
    parsed = Card.parse(text)
    assert parsed == Card(rank, suit)
    assert str(parsed) == code
    assert parsed.display == display
    assert Card.parse(str(parsed)) == parsed


@pytest.mark.parametrize(
    "text", ["1?", "", "11H", "AX", "10", "H", "1H", "0S", "14C", "A S", "10HH"]
)
def test_parse_refuses_what_is_not_a_card(text: str) -> None:
    with pytest.raises(RummyError, match=r"is not a card"):
        Card.parse(text)


def test_parse_message_quotes_the_text() -> None:
    with pytest.raises(RummyError) as caught:
        Card.parse("1?")
    assert str(caught.value).startswith("'1?' is not a card")


def test_parse_refuses_non_strings() -> None:
    with pytest.raises(RummyError):
        Card.parse(10)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rank", "suit"), [(0, Suit.CLUBS), (14, Suit.CLUBS), (5, "C")])
def test_constructor_checks_rank_and_suit(rank: int, suit: Suit) -> None:
    with pytest.raises(RummyError):
        Card(rank, suit)


def test_cards_are_frozen_hashable_values() -> None:
    ace = Card.parse("AS")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ace.rank = 2  # type: ignore[misc]
    assert {ace, Card(1, Suit.SPADES)} == {ace}
    assert repr(ace) == "Card.parse('AS')"


def test_suit_symbols_and_codes() -> None:
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert [s.value for s in Suit] == ["C", "D", "H", "S"]


@pytest.mark.parametrize(
    ("code", "low", "high"),
    [
        ("AS", 1, 15),
        ("2H", 2, 2),
        ("9D", 9, 9),
        ("10C", 10, 10),
        ("JS", 10, 10),
        ("QH", 10, 10),
        ("KD", 10, 10),
    ],
)
def test_points_depend_on_the_ace_rule(code: str, low: int, high: int) -> None:
    assert Card.parse(code).points(HouseRules()) == low
    assert Card.parse(code).points(HouseRules(ace=AceRule.HIGH_OR_LOW)) == high


def test_full_deck_has_52_distinct_cards() -> None:
    deck = full_deck()
    assert len(deck) == 52 == len(set(deck))
    assert {c.suit for c in deck} == set(Suit)
    assert full_deck() == deck  # a fixed order: seeded shuffles start from it


def test_sorting() -> None:
    hand = cards("KS 2H AS 10C 2C QD AH")
    assert [str(c) for c in sort_by_rank(hand)] == ["AH", "AS", "2C", "2H", "10C", "QD", "KS"]
    assert [str(c) for c in sort_by_suit(hand)] == ["2C", "10C", "QD", "AH", "2H", "AS", "KS"]


def test_parse_and_format_lists() -> None:
    assert parse_cards(["7s", "8S", "9s"]) == cards("7S 8S 9S")
    assert format_cards(cards("7S 8S 9S")) == "7♠ 8♠ 9♠"
    assert format_cards([]) == ""
    with pytest.raises(RummyError, match="'ZZ' is not a card"):
        parse_cards(["7S", "ZZ"])
