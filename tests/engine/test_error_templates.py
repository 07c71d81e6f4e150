"""Player-facing engine errors carry a template and its parameters, for the
bot to word in each player's language; ``str(error)`` stays the English it was."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import (
    Discard,
    DrawStock,
    Hand,
    HandOverError,
    HouseRules,
    IllegalMoveError,
    LayOff,
    Match,
    MeldCards,
    NotSeatedError,
    NotYourTurnError,
    RummyError,
    TakeDiscard,
    extend_meld,
    make_meld,
)
from engine.errors import InvalidStateError, SetupError, english

from .helpers import card, cards, position


def _raised(move: Callable[[], object]) -> RummyError:
    with pytest.raises(RummyError) as caught:
        move()
    return caught.value


def _drawn() -> Hand:
    hand = position({"ann": "7S 8S 9S 2D KD", "bob": "QH QD 6C"}, stock="4H 5C", discard="JC")
    hand.apply("ann", TakeDiscard())
    return hand


def _over() -> Match:
    match = Match.start(["ann", "bob"], HouseRules(hands=1, target=None), 0)
    while not match.hand.is_over:
        turn = match.hand.turn
        assert turn is not None
        match.apply(turn, match.legal_actions(turn)[0])
    return match


DEFAULT_RULES = HouseRules()
RUN = make_meld(cards("5H 6H 7H"), DEFAULT_RULES)
SET = make_meld(cards("9C 9D 9H"), DEFAULT_RULES)

# (what raises, its English as before, its template, its parameters)
CASES: list[tuple[str, Callable[[], object], str, str, dict[str, object]]] = [
    (
        "not a run: suits",
        lambda: make_meld(cards("7S 8H 9S"), DEFAULT_RULES),
        "7♠ 8♥ 9♠ is not a run: a run is one suit",
        "{cards} is not a run: a run is one suit",
        {"cards": cards("7S 8H 9S")},
    ),
    (
        "neither a set nor a run",
        lambda: make_meld(cards("QC QD 3D"), DEFAULT_RULES),
        "3♦ Q♣ Q♦ is neither a set (cards of one rank) nor a run (cards in sequence, of one suit)",
        "{cards} is neither a set (cards of one rank) nor a run (cards in sequence, of one suit)",
        {"cards": cards("3D QC QD")},
    ),
    (
        "aces low",
        lambda: make_meld(cards("QS KS AS"), DEFAULT_RULES),
        "Q♠ K♠ A♠ is not a run: aces are low at this table",
        "{cards} is not a run: aces are low at this table",
        {"cards": cards("QS KS AS")},
    ),
    (
        "gap",
        lambda: make_meld(cards("3S 4S 6S"), DEFAULT_RULES),
        "3♠ 4♠ 6♠ is not a run: the ranks must follow one another with no gap",
        "{cards} is not a run: the ranks must follow one another with no gap",
        {"cards": cards("3S 4S 6S")},
    ),
    (
        "corner",
        lambda: make_meld(cards("KS AS 2S"), DEFAULT_RULES),
        "K♠ A♠ 2♠ is not a run: an ace cannot turn the corner",
        "{cards} is not a run: an ace cannot turn the corner",
        {"cards": cards("KS AS 2S")},
    ),
    (
        "short meld",
        lambda: make_meld(cards("7S 8S"), DEFAULT_RULES),
        "A meld needs at least 3 cards",
        "A meld needs at least 3 cards",
        {},
    ),
    (
        "named twice",
        lambda: make_meld(cards("7S 7S 7H"), DEFAULT_RULES),
        "7♠ is named twice",
        "{card} is named twice",
        {"card": card("7S")},
    ),
    (
        "lay-off gap",
        lambda: extend_meld(RUN, cards("10H"), DEFAULT_RULES),
        "10♥ cannot go on 5♥ 6♥ 7♥: the ranks must follow one another with no gap",
        "{cards} cannot go on {meld}: the ranks must follow one another with no gap",
        {"cards": cards("10H"), "meld": tuple(cards("5H 6H 7H"))},
    ),
    (
        "lay-off on a set",
        lambda: extend_meld(SET, cards("QS"), DEFAULT_RULES),
        "Q♠ cannot go on 9♣ 9♦ 9♥: a set is cards of one rank",
        "{cards} cannot go on {meld}: a set is cards of one rank",
        {"cards": cards("QS"), "meld": tuple(cards("9C 9D 9H"))},
    ),
    (
        "already in the meld",
        lambda: extend_meld(RUN, cards("6H"), DEFAULT_RULES),
        "6♥ is already in that meld",
        "{card} is already in that meld",
        {"card": card("6H")},
    ),
    (
        "not your turn",
        lambda: _drawn().apply("bob", DrawStock()),
        "It is not your turn.",
        "It is not your turn.",
        {},
    ),
    (
        "drawn already",
        lambda: _drawn().apply("ann", DrawStock()),
        "You have already drawn this turn",
        "You have already drawn this turn",
        {},
    ),
    (
        "not held",
        lambda: _drawn().apply("ann", MeldCards(tuple(cards("QH QD QS")))),
        "You don't hold Q♥ Q♦ Q♠",
        "You don't hold {cards}",
        {"cards": cards("QH QD QS")},
    ),
    (
        "taken card back",
        lambda: _drawn().apply("ann", Discard(card("JC"))),
        "You took J♣ from the discard pile this turn: discard another card",
        "You took {card} from the discard pile this turn: discard another card",
        {"card": card("JC")},
    ),
    (
        "no such meld",
        lambda: _drawn().apply("ann", LayOff(tuple(cards("2D")), 4)),
        "There is no meld 4 on the table",
        "There is no meld {meld} on the table",
        {"meld": 4},
    ),
    (
        "draw before melding",
        lambda: position({"ann": "7S 8S 9S", "bob": "2C"}, stock="3C", discard="4C").apply(
            "ann", MeldCards(tuple(cards("7S 8S 9S")))
        ),
        "You must draw before you meld",
        "You must draw before you meld",
        {},
    ),
    (
        "match over",
        lambda: _over().apply("ann", DrawStock()),
        "This match is over",
        "This match is over",
        {},
    ),
    (
        "rules clash",
        lambda: HouseRules(target=None, hands=None),
        "Choose either a target score or a number of hands for the match, not both",
        "Choose either a target score or a number of hands for the match, not both",
        {},
    ),
    (
        "rule out of range",
        lambda: HouseRules(target=0),
        "target must be a whole number from 1 to 10000",
        "{name} must be a whole number from {low} to {high}",
        {"name": "target", "low": 1, "high": 10000},
    ),
    (
        "too few players",
        lambda: Match.start(["ann"], DEFAULT_RULES, 0),
        "Rummy is played by 2 to 6 players",
        "Rummy is played by {low} to {high} players",
        {"low": 2, "high": 6},
    ),
]


@pytest.mark.parametrize(
    ("move", "shown", "template", "params"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_a_player_facing_error_keeps_its_template_and_its_english(
    move: Callable[[], object], shown: str, template: str, params: dict[str, object]
) -> None:
    error = _raised(move)
    assert str(error) == shown
    assert error.template == template
    assert {k: list(v) if isinstance(v, tuple) else v for k, v in error.params.items()} == {
        k: list(v) if isinstance(v, tuple) else v for k, v in params.items()
    }
    assert english(error.template, error.params) == shown


def test_the_kinds_of_error_are_kept() -> None:
    assert isinstance(_raised(lambda: _drawn().apply("bob", DrawStock())), NotYourTurnError)
    assert isinstance(_raised(lambda: _drawn().apply("cat", DrawStock())), NotSeatedError)
    assert isinstance(_raised(lambda: _over().apply("ann", DrawStock())), HandOverError)
    assert isinstance(_raised(lambda: make_meld(cards("7S 8S"), DEFAULT_RULES)), IllegalMoveError)
    assert isinstance(_raised(lambda: Match.start(["ann"], DEFAULT_RULES, 0)), SetupError)


def test_a_plain_message_is_its_own_template() -> None:
    """Developer-facing errors are plain English: no parameters, nothing formatted,
    so braces in them are left alone."""
    error = InvalidStateError("hands: {not a placeholder}")
    assert str(error) == "hands: {not a placeholder}"
    assert error.template == "hands: {not a placeholder}" and error.params == {}


def test_english_writes_cards_as_displayed_and_anything_else_as_str() -> None:
    assert english(
        "{a} {b} {n} {w}", {"a": card("10H"), "b": cards("AS KD"), "n": 3, "w": "x"}
    ) == ("10♥ A♠ K♦ 3 x")
