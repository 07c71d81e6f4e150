"""The small values a hand's state is made of."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Event, HouseRules, MeldKind, Phase, TableMeld, make_meld

from .helpers import cards


def test_a_table_meld_credits_each_card_to_who_put_it_down() -> None:
    meld = make_meld(cards("3H 4H 5H 6H"), HouseRules())
    table = TableMeld(meld, ("ann", "bob", "ann", "ann"))
    assert table.cards == meld.cards and table.kind is MeldKind.RUN
    assert table.cards_of("ann") == tuple(cards("3H 5H 6H"))
    assert table.cards_of("bob") == tuple(cards("4H"))
    assert table.cards_of("cat") == ()


def test_state_values_are_frozen_and_plain() -> None:
    assert [p.value for p in Phase] == ["draw", "play", "over"]
    event = Event("discard", "ann", tuple(cards("QH")))
    assert event.meld is None and Event("hand_over", None).cards == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.kind = "meld"  # type: ignore[misc]
