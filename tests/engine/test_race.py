"""The expert's look-ahead: the targets a hand can reach and how soon sampled draws
would bring one whole."""

from __future__ import annotations

import pytest

from engine import AceRule
from engine.cards import full_deck
from engine.expert.race import Futures, RaceSearch, templates
from engine.handscore import cid
from engine.melds import make_meld
from engine.rules import HouseRules

from .helpers import card, cards


def mask(text: str) -> int:
    found = 0
    for c in cards(text):
        found |= 1 << cid(c)
    return found


def live_except(text: str) -> int:
    """Every card can still be drawn but these."""
    return ((1 << 52) - 1) & ~mask(text)


def search(
    hand: str,
    keep: int,
    dead: str = "",
    melds: str = "",
    melding_all: bool = True,
    ace: AceRule = AceRule.LOW,
) -> RaceSearch:
    table = [make_meld(cards(m), HouseRules(ace=ace)) for m in melds.split("|") if m]
    return RaceSearch(
        cards(hand),
        live_except(hand + " " + dead),
        table,
        ace,
        keep,
        go_out_melding_all=melding_all,
        slack=1,
        most=3,
    )


def test_every_meld_is_a_template_once() -> None:
    low = templates(False)
    assert len(low) == len(set(low))
    # 13 ranks x (four sets of three + one of four); runs of 3..10 in 4 suits.
    assert len(low) == 13 * 5 + 4 * sum(14 - n for n in range(3, 11))
    assert mask("QS KS AS") in templates(True)
    assert mask("QS KS AS") not in low
    assert mask("KS AS 2S") not in templates(True)


ONE_SHORT = "9S 9C 9H 2C 3C 4C 6D 7D 8D 5H KD"
"""Three melds, a five and a king: less the king, one more card makes a meld of four."""


def test_a_hand_one_card_short_aims_at_the_cards_that_lengthen_a_meld() -> None:
    race = search(ONE_SHORT, keep=10)
    singles = {t for t in race.targets_without(card("KD")) if t.bit_count() == 1}
    assert singles == {mask(c) for c in ("9D", "AC", "5C", "5D")}
    assert 0 not in race.targets_without(card("KD"))
    # Breaking a meld instead leaves no target within one draw.
    assert all(t.bit_count() >= 2 for t in race.targets_without(card("3C")))


def test_a_hand_of_ten_melded_cards_needs_nothing_more() -> None:
    race = search("2C 3C 4C 7D 7H 7S 9H 10H JH QH KD", keep=10)
    assert 0 in race.targets_without(card("KD"))
    assert 0 not in race.targets_without(card("7S"))


def test_a_card_nobody_can_draw_is_no_target() -> None:
    dead = search(ONE_SHORT, keep=10, dead="9D 5D")
    singles = {t for t in dead.targets_without(card("KD")) if t.bit_count() == 1}
    assert singles == {mask("AC"), mask("5C")}
    assert all(t & mask("9D 5D") == 0 for t in dead.targets_without(card("KD")))


def test_a_card_that_fits_a_table_meld_needs_nothing() -> None:
    # 8H goes on the table's 5H 6H 7H: with two melds in hand, the hand is out.
    race = search("8H 2C 2D 2S 9C 10C JC", keep=6, melds="5H 6H 7H")
    assert 0 in race.targets_without(card("8H")) or 0 in race.targets_without(card("JC"))
    assert 0 not in search("8H 2C 2D 2S 9C 10C JC", keep=6).targets_without(card("JC"))


def test_the_search_finds_nothing_beyond_its_reach() -> None:
    spread = "2C 5D 8H JS KC 3H 6S 9D QC AH"
    race = RaceSearch(
        cards(spread),
        live_except(spread),
        [],
        AceRule.LOW,
        10,
        go_out_melding_all=True,
        slack=1,
        most=2,
    )
    assert not race.found
    assert race.targets_whole() == []


def order(text: str) -> list[int]:
    return [cid(c) for c in cards(text)]


def test_futures_score_a_target_by_the_draw_that_completes_it() -> None:
    futures = Futures([order("KD 7C 2H 9S")], horizon=4)
    assert futures.value([mask("7C")], 0, 0.5) == pytest.approx(0.5**2)
    # Both cards are needed: the later one decides.
    assert futures.value([mask("7C 9S")], 0, 0.5) == pytest.approx(0.5**4)
    # Of two targets the first whole one counts.
    assert futures.value([mask("7C 9S"), mask("2H")], 0, 0.5) == pytest.approx(0.5**3)
    # Draws already made count too; a whole hand needs none.
    assert futures.value([mask("7C")], 1, 0.5) == pytest.approx(0.5**3)
    assert futures.value([0, mask("7C")], 1, 0.5) == pytest.approx(0.5)
    # A card that does not come within the horizon never completes anything.
    assert futures.value([mask("AS")], 0, 0.5) == 0.0
    assert futures.value([], 0, 0.5) == 0.0


def test_futures_average_over_their_samples() -> None:
    futures = Futures([order("7C KD"), order("KD 7C"), order("KD QD")], horizon=2)
    expected = (0.5 + 0.25 + 0.0) / 3
    assert futures.value([mask("7C")], 0, 0.5) == pytest.approx(expected)


def test_every_card_can_be_a_future_draw() -> None:
    deck = [cid(c) for c in full_deck()]
    futures = Futures([deck], horizon=52)
    last = deck[-1]
    assert futures.value([1 << last], 0, 0.9) == pytest.approx(0.9**52)
