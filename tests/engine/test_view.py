"""A view holds only what its viewer may know; a spectator's view holds no hand."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from engine import (
    Card,
    DrawStock,
    Hand,
    HandView,
    HouseRules,
    MeldCards,
    NotSeatedError,
    Phase,
    TakeDiscard,
)

from .helpers import card, cards, choose, position


def cards_in(value: object) -> Iterator[Card]:
    """Every card reachable from a value (dataclasses, tuples, lists, dicts)."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from cards_in(getattr(value, field.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from cards_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item)


def hidden_from(hand: Hand, viewer: str | None) -> set[Card]:
    return {c for p in hand.players if p != viewer for c in hand.hand_of(p)}


def test_spectator_view_has_no_hand() -> None:
    hand = Hand.deal(["a", "b", "c"], HouseRules(), 0, 3)
    view = hand.view_for(None)
    assert view.player is None and view.is_spectator
    assert view.hand == ()
    assert view.legal == ()
    assert view.may_not_discard is None
    assert view.card_counts == {"a": 7, "b": 7, "c": 7}
    assert view.dealer == "a" and view.turn == "b"
    assert not set(cards_in(view)) & hidden_from(hand, None)


def test_player_view_shows_only_their_own_hand() -> None:
    hand = Hand.deal(["a", "b", "c"], HouseRules(), 0, 3)
    for player in hand.players:
        view = hand.view_for(player)
        assert view.hand == hand.hand_of(player)
        assert not set(cards_in(view)) & hidden_from(hand, player)
        assert view.my_turn == (player == "b")
        assert view.legal == (tuple(hand.legal_actions(player)) if player == "b" else ())


def test_views_never_leak_during_random_play() -> None:
    rng = random.Random(8)
    for seed in range(3):
        hand = Hand.deal(["a", "b", "c", "d"], HouseRules(), seed, seed)
        while not hand.is_over:
            for viewer in (None, *hand.players):
                assert not set(cards_in(hand.view_for(viewer))) & hidden_from(hand, viewer)
            hand.apply(*choose(hand, rng, "eager"))


def test_may_not_discard_is_only_in_the_takers_view() -> None:
    hand = position({"ann": "AS 2S 3S 4S", "bob": "KD"}, stock="9C", discard="2H 7C")
    hand.apply("ann", TakeDiscard())
    assert hand.view_for("ann").may_not_discard == card("7C")
    assert hand.view_for("bob").may_not_discard is None
    assert hand.view_for(None).may_not_discard is None
    assert hand.view_for(None).discard_pile == (card("2H"),)


def test_the_ban_ends_when_the_taken_card_is_melded() -> None:
    hand = position({"ann": "5C 6C 9D QH", "bob": "KD"}, stock="9C", discard="2H 7C")
    hand.apply("ann", TakeDiscard())
    hand.apply("ann", MeldCards(tuple(cards("5C 6C 7C"))))
    assert hand.view_for("ann").may_not_discard is None
    assert hand.view_for("ann").melded_this_turn == 1


def test_has_melded_this_hand_counts_earlier_turns_only() -> None:
    hand = position({"ann": "AS 2S 3S 9D QH", "bob": "KD 4C"}, stock="9C 8C", discard="2H")
    hand.apply("ann", DrawStock())
    hand.apply("ann", MeldCards(tuple(cards("AS 2S 3S"))))
    assert not hand.view_for("ann").has_melded_this_hand  # rummy still possible this turn
    hand.apply("ann", hand.legal_actions("ann")[-1])
    assert hand.view_for("ann").has_melded_this_hand
    assert not hand.view_for("bob").has_melded_this_hand


def test_after_the_hand_everything_left_is_public() -> None:
    hand = position({"ann": "AS 2S 3S", "bob": "KD 5C"}, stock="9C", discard="2H")
    hand.apply("ann", DrawStock())
    hand.apply("ann", MeldCards(tuple(cards("AS 2S 3S"))))
    hand.apply("ann", hand.legal_actions("ann")[0])
    view = hand.view_for(None)
    assert view.phase is Phase.OVER and view.turn is None
    assert view.outcome is not None
    assert view.outcome.remaining["bob"] == tuple(cards("5C KD"))
    assert view.hand == ()


def test_unknown_viewer() -> None:
    hand = Hand.deal(["a", "b"], HouseRules(), 0, 1)
    with pytest.raises(NotSeatedError):
        hand.view_for("zed")


def test_views_are_frozen() -> None:
    view = Hand.deal(["a", "b"], HouseRules(), 0, 1).view_for("a")
    assert isinstance(view, HandView)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]
