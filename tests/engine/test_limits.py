"""The fixed bounds of the game."""

from __future__ import annotations

from engine import CARDS_DEALT, MAX_RESHUFFLES, MAX_TURNS
from engine.limits import MAX_PLAYERS, MAX_TURN_OVERS, MIN_PLAYERS


def test_every_table_size_is_dealt_and_the_deal_fits_the_deck() -> None:
    assert list(CARDS_DEALT) == list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    for players, each in CARDS_DEALT.items():
        assert players * each + 1 < 52, "a discard and a stock are left"


def test_the_bounds_of_every_hand() -> None:
    assert (MAX_RESHUFFLES, MAX_TURN_OVERS, MAX_TURNS) == (3, 1, 500)
