from __future__ import annotations

import dataclasses

import pytest

from engine import (
    AceRule,
    HouseRules,
    IllegalMoveError,
    MeldKind,
    extend_meld,
    fits_meld,
    lay_off_options,
    make_meld,
    meld_options,
)

from .helpers import cards

LOW = HouseRules()
HIGH = HouseRules(ace=AceRule.HIGH_OR_LOW)


def codes(meld_cards: object) -> str:
    return " ".join(str(c) for c in meld_cards)  # type: ignore[attr-defined]


# (cards as played, kind, table order) valid under BOTH ace rules
VALID_BOTH = [
    ("7S 7H 7D", MeldKind.SET, "7D 7H 7S"),
    ("KC KS KH KD", MeldKind.SET, "KC KD KH KS"),
    ("AS AH AC", MeldKind.SET, "AC AH AS"),
    ("7S 8S 9S", MeldKind.RUN, "7S 8S 9S"),
    ("9S 7S 8S", MeldKind.RUN, "7S 8S 9S"),
    ("3S AS 2S", MeldKind.RUN, "AS 2S 3S"),
    ("AH 2H 3H 4H 5H", MeldKind.RUN, "AH 2H 3H 4H 5H"),
    ("JD QD KD", MeldKind.RUN, "JD QD KD"),
    (
        "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
        MeldKind.RUN,
        "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
    ),
]


@pytest.mark.parametrize("rules", [LOW, HIGH], ids=["low", "high_or_low"])
@pytest.mark.parametrize(("played", "kind", "order"), VALID_BOTH)
def test_valid_under_both_ace_rules(
    rules: HouseRules, played: str, kind: MeldKind, order: str
) -> None:
    meld = make_meld(cards(played), rules)
    assert meld.kind is kind
    assert codes(meld.cards) == order


@pytest.mark.parametrize(
    ("played", "order"),
    [("QS KS AS", "QS KS AS"), ("AS KS QS", "QS KS AS"), ("AH JH KH QH 10H", "10H JH QH KH AH")],
)
def test_ace_high_runs_only_with_high_or_low(played: str, order: str) -> None:
    meld = make_meld(cards(played), HIGH)
    assert meld.kind is MeldKind.RUN
    assert codes(meld.cards) == order  # the ace last when played high
    assert meld.ace_high
    with pytest.raises(IllegalMoveError) as caught:
        make_meld(cards(played), LOW)
    assert str(caught.value).endswith("is not a run: aces are low at this table")


def test_ace_high_message_shows_the_run_in_order() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        make_meld(cards("AS QS KS"), LOW)
    assert str(caught.value) == "Q♠ K♠ A♠ is not a run: aces are low at this table"


@pytest.mark.parametrize("rules", [LOW, HIGH], ids=["low", "high_or_low"])
@pytest.mark.parametrize(
    ("played", "message"),
    [
        ("KS AS 2S", "K♠ A♠ 2♠ is not a run: an ace cannot turn the corner"),
        ("2S KS AS", "K♠ A♠ 2♠ is not a run: an ace cannot turn the corner"),
        ("QH KH AH 2H 3H", "Q♥ K♥ A♥ 2♥ 3♥ is not a run: an ace cannot turn the corner"),
        ("KD AD 2D 3D", "K♦ A♦ 2♦ 3♦ is not a run: an ace cannot turn the corner"),
        ("7S 8H 9S", "7♠ 8♥ 9♠ is not a run: a run is one suit"),
        (
            "7S 7H 8S",
            "7♥ 7♠ 8♠ is neither a set (cards of one rank) nor a run (cards in sequence, "
            "of one suit)",
        ),
        ("7S 8S 10S", "7♠ 8♠ 10♠ is not a run: the ranks must follow one another with no gap"),
        ("AS 3S 4S", "A♠ 3♠ 4♠ is not a run: the ranks must follow one another with no gap"),
        ("AS JS KS", "A♠ J♠ K♠ is not a run: the ranks must follow one another with no gap"),
        ("7S 8S", "A meld needs at least 3 cards"),
        ("7S 7H", "A meld needs at least 3 cards"),
        ("", "A meld needs at least 3 cards"),
        ("7S 7S 7H", "7♠ is named twice"),
    ],
)
def test_invalid_under_both_ace_rules(rules: HouseRules, played: str, message: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        make_meld(cards(played), rules)
    assert str(caught.value) == message


def test_melds_are_frozen() -> None:
    meld = make_meld(cards("7S 8S 9S"), LOW)
    with pytest.raises(dataclasses.FrozenInstanceError):
        meld.cards = ()  # type: ignore[misc]
    assert hash(meld) == hash(make_meld(cards("9S 8S 7S"), LOW))


# (meld, cards laid off, rules, resulting table order)
LAY_OFFS_OK = [
    ("5H 6H 7H", "3H 4H", LOW, "3H 4H 5H 6H 7H"),  # judged together
    ("5H 6H 7H", "4H 3H", LOW, "3H 4H 5H 6H 7H"),
    ("5H 6H 7H", "8H", LOW, "5H 6H 7H 8H"),
    ("5H 6H 7H", "4H 8H", LOW, "4H 5H 6H 7H 8H"),  # both ends at once
    ("5H 6H 7H", "2H 3H 4H 8H 9H", LOW, "2H 3H 4H 5H 6H 7H 8H 9H"),
    ("2C 3C 4C", "AC", LOW, "AC 2C 3C 4C"),
    ("2C 3C 4C", "AC", HIGH, "AC 2C 3C 4C"),
    ("JD QD KD", "AD", HIGH, "JD QD KD AD"),
    ("QD KD AD", "JD 10D", HIGH, "10D JD QD KD AD"),
    ("7S 7H 7D", "7C", LOW, "7C 7D 7H 7S"),
    ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "AS", LOW, "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"),
    ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "AS", HIGH, "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"),
]


@pytest.mark.parametrize(("meld", "added", "rules", "order"), LAY_OFFS_OK)
def test_lay_offs_that_fit(meld: str, added: str, rules: HouseRules, order: str) -> None:
    base = make_meld(cards(meld), rules)
    grown = extend_meld(base, cards(added), rules)
    assert codes(grown.cards) == order
    assert grown.kind is base.kind
    assert fits_meld(base, cards(added), rules)


LAY_OFFS_REFUSED = [
    (
        "5H 6H 7H",
        "3H",
        LOW,
        "3♥ cannot go on 5♥ 6♥ 7♥: the ranks must follow one another with no gap",
    ),
    (
        "5H 6H 7H",
        "3H 9H",
        LOW,
        "3♥ 9♥ cannot go on 5♥ 6♥ 7♥: the ranks must follow one another with no gap",
    ),
    ("5H 6H 7H", "8S", LOW, "8♠ cannot go on 5♥ 6♥ 7♥: a run is one suit"),
    ("JD QD KD", "AD", LOW, "A♦ cannot go on J♦ Q♦ K♦: aces are low at this table"),
    ("AD 2D 3D", "KD", LOW, "K♦ cannot go on A♦ 2♦ 3♦: an ace cannot turn the corner"),
    ("AD 2D 3D", "KD", HIGH, "K♦ cannot go on A♦ 2♦ 3♦: an ace cannot turn the corner"),
    ("QD KD AD", "2D", HIGH, "2♦ cannot go on Q♦ K♦ A♦: an ace cannot turn the corner"),
    ("7S 7H 7D", "8S", LOW, "8♠ cannot go on 7♦ 7♥ 7♠: a set is cards of one rank"),
    ("7S 7H 7D", "7C 8C", LOW, "7♣ 8♣ cannot go on 7♦ 7♥ 7♠: a set is cards of one rank"),
    ("7S 8S 9S", "8S", LOW, "8♠ is already in that meld"),
    ("7S 8S 9S", "10S 10S", LOW, "10♠ is named twice"),
    ("7S 8S 9S", "", LOW, "Choose at least one card to lay off"),
]


@pytest.mark.parametrize(("meld", "added", "rules", "message"), LAY_OFFS_REFUSED)
def test_lay_offs_refused(meld: str, added: str, rules: HouseRules, message: str) -> None:
    base = make_meld(cards(meld), rules)
    with pytest.raises(IllegalMoveError) as caught:
        extend_meld(base, cards(added), rules)
    assert str(caught.value) == message
    assert not fits_meld(base, cards(added), rules)


# --- every meld and lay-off a hand could make ---------------------------------------------
def test_lay_off_options_on_a_long_run_use_the_ace_once() -> None:
    rules = HouseRules(ace=AceRule.HIGH_OR_LOW)
    run = make_meld(cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"), rules)
    options = lay_off_options(cards("AS"), [run], rules)
    assert options == [(tuple(cards("AS")), 0)]


def test_meld_options_count() -> None:
    assert len(meld_options(cards("7C 7D 7H 7S"), HouseRules())) == 5  # 4 threes + the four
    assert len(meld_options(cards("AS 2S 3S 4S 5S"), HouseRules())) == 6  # 3 + 2 + 1 runs
    assert len(meld_options(cards("JS QS KS AS"), HouseRules(ace=AceRule.HIGH_OR_LOW))) == 3


def test_a_whole_suit_is_listed_once() -> None:
    rules = HouseRules(ace=AceRule.HIGH_OR_LOW)
    suit = cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
    options = [frozenset(o) for o in meld_options(suit, rules)]
    assert len(options) == len(set(options))
    assert frozenset(suit) in options


NEITHER = "is neither a set (cards of one rank) nor a run (cards in sequence, of one suit)"


@pytest.mark.parametrize(
    ("played", "rules", "message"),
    [
        # Neither one rank nor one suit: both kinds are explained, in one sentence.
        ("9C AD 3H", LOW, f"A♦ 3♥ 9♣ {NEITHER}"),
        ("QC QD 3D", LOW, f"3♦ Q♣ Q♦ {NEITHER}"),
        ("QS KH AS", LOW, f"A♠ Q♠ K♥ {NEITHER}"),
        # Clearly meant as a run: its own reason, in run order.
        ("7S 9H 8S", LOW, "7♠ 8♠ 9♥ is not a run: a run is one suit"),
        ("QS AS KH", HIGH, "Q♠ K♥ A♠ is not a run: a run is one suit"),
        ("3S 7S 9S", LOW, "3♠ 7♠ 9♠ is not a run: the ranks must follow one another with no gap"),
    ],
)
def test_a_meld_of_no_kind_says_why_it_is_neither(
    played: str, rules: HouseRules, message: str
) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        make_meld(cards(played), rules)
    assert str(caught.value) == message
