"""One hand: the deal, the turn, every refusal of RULES.md, going out, rummy, scoring,
both empty-stock rules, the turn limit, copies, and refused moves that change nothing."""

from __future__ import annotations

import json
import random

import pytest

from engine import (
    CARDS_DEALT,
    MAX_RESHUFFLES,
    MAX_TURNS,
    AceRule,
    Discard,
    DrawStock,
    EmptyStock,
    Event,
    GoOut,
    Hand,
    HandOverError,
    HouseRules,
    IllegalMoveError,
    LayOff,
    MeldCards,
    MeldsPerTurn,
    NotSeatedError,
    NotYourTurnError,
    Phase,
    RummyBonus,
    RummyError,
    TakeDiscard,
    Termination,
    full_deck,
)

from .helpers import (
    assert_refused,
    card,
    cards,
    choose,
    every_card,
    mid_turn_hand,
    play_out,
    position,
)


def meld(codes: str) -> MeldCards:
    return MeldCards(tuple(cards(codes)))


def lay_off(codes: str, index: int) -> LayOff:
    return LayOff(tuple(cards(codes)), index)


def discard(code: str) -> Discard:
    return Discard(card(code))


def codes(hand: Hand, player: str) -> str:
    return " ".join(str(c) for c in hand.hand_of(player))


# --- the deal ------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_sizes_and_pile(players: int) -> None:
    seats = [f"p{i}" for i in range(players)]
    hand = Hand.deal(seats, HouseRules(), dealer=players - 1, seed=11)
    size = CARDS_DEALT[players]
    assert size == {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}[players]
    assert all(len(hand.hand_of(p)) == size for p in seats)
    assert len(hand.discard_pile) == 1
    assert hand.stock_size == 52 - 1 - size * players
    assert sorted(map(str, every_card(hand))) == sorted(map(str, full_deck()))
    assert hand.turn == "p0"  # left of the dealer (the last seat)
    assert hand.phase is Phase.DRAW
    assert hand.dealer == players - 1


def test_deal_one_card_at_a_time_from_the_dealers_left() -> None:
    deck = full_deck()
    random.Random(5).shuffle(deck)
    hand = Hand.deal(["ann", "bob", "cat"], HouseRules(), dealer=1, seed=5)
    # cat sits left of the dealer (bob): first card, then ann, then bob, round again.
    assert set(hand.hand_of("cat")) == set(deck[0:21:3])
    assert set(hand.hand_of("ann")) == set(deck[1:21:3])
    assert set(hand.hand_of("bob")) == set(deck[2:21:3])
    assert hand.discard_top == deck[21]
    assert hand.turn == "cat"


def test_deal_is_reproducible_from_its_seed() -> None:
    one = Hand.deal(["a", "b"], HouseRules(), 0, 42)
    two = Hand.deal(["a", "b"], HouseRules(), 0, 42)
    assert one == two
    assert one != Hand.deal(["a", "b"], HouseRules(), 0, 43)


def test_same_seed_and_actions_give_the_same_state() -> None:
    for policy in ("uniform", "eager"):
        one = Hand.deal(["a", "b", "c"], HouseRules(), 2, 9)
        two = Hand.deal(["a", "b", "c"], HouseRules(), 2, 9)
        play_out(one, random.Random(3), policy)
        play_out(two, random.Random(3), policy)
        assert one.to_dict() == two.to_dict()


@pytest.mark.parametrize(
    ("players", "dealer"),
    [
        (["a"], 0),
        (["a", "b", "c", "d", "e", "f", "g"], 0),
        (["a", "a"], 0),
        (["a", "b"], 2),
        (["a", ""], 0),
        (["a", "b"], -1),
    ],
)
def test_deal_refuses_bad_tables(players: list[str], dealer: int) -> None:
    with pytest.raises(RummyError):
        Hand.deal(players, HouseRules(), dealer, 1)


def test_from_position_checks_its_input() -> None:
    rules = HouseRules()
    ok = {"a": cards("AS"), "b": cards("2S")}
    with pytest.raises(RummyError, match="AS is in two places"):
        Hand.from_position(["a", "b"], rules, ok, cards("AS"), [], "a", 0)
    with pytest.raises(RummyError, match="unknown player 'zed'"):
        Hand.from_position(["a", "b"], rules, {**ok, "zed": []}, [], [], "a", 0)
    with pytest.raises(RummyError, match="no hand given for player 'b'"):
        Hand.from_position(["a", "b"], rules, {"a": cards("AS")}, [], [], "a", 0)
    with pytest.raises(RummyError, match="unknown player 'zed' to move first"):
        Hand.from_position(["a", "b"], rules, ok, [], [], "zed", 0)
    hand = Hand.from_position(["a", "b"], rules, ok, cards("3S"), cards("4S"), "b", 0)
    assert hand.turn == "b"
    assert hand.dealer == 0


# --- a turn --------------------------------------------------------------------------
def example() -> Hand:
    """The issue's replay example."""
    return position(
        {"ann": "AS 2S 3S 4S QH", "bob": "KD", "cat": "7H"}, stock="9C 4D", discard="2H 7C"
    )


def test_a_whole_turn_and_its_events() -> None:
    hand = example()
    assert hand.apply("ann", DrawStock()) == [Event("draw_stock", "ann")]  # the card is secret
    assert hand.phase is Phase.PLAY
    assert hand.apply("ann", meld("3S AS 2S")) == [
        Event("meld", "ann", tuple(cards("AS 2S 3S")), 0)
    ]
    assert hand.apply("ann", lay_off("4S", 0)) == [Event("lay_off", "ann", tuple(cards("4S")), 0)]
    assert hand.apply("ann", discard("9C")) == [Event("discard", "ann", (card("9C"),))]
    assert codes(hand, "ann") == "QH"
    assert [str(c) for c in hand.melds[0].cards] == ["AS", "2S", "3S", "4S"]
    assert hand.melds[0].owners == ("ann",) * 4
    assert (hand.stock_size, hand.discard_top, hand.turn) == (1, card("9C"), "bob")
    assert hand.phase is Phase.DRAW
    assert hand.card_counts() == {"ann": 1, "bob": 1, "cat": 1}
    assert hand.turns_played == 1


def test_taking_the_discard_is_public() -> None:
    hand = example()
    assert hand.apply("ann", TakeDiscard()) == [Event("take_discard", "ann", (card("7C"),))]
    assert hand.taken_discard == card("7C")
    assert hand.discard_top == card("2H")


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once() -> None:
    hand = example()
    hand.apply("ann", DrawStock())
    hand.apply("ann", discard("9C"))
    assert hand.discard_top == card("9C")


def test_the_taken_card_may_be_discarded_on_a_later_turn() -> None:
    hand = position({"ann": "2C 5D", "bob": "3H 9S"}, stock="KC QC JC", discard="7C")
    hand.apply("ann", TakeDiscard())
    hand.apply("ann", discard("2C"))
    hand.apply("bob", DrawStock())
    hand.apply("bob", discard("KC"))
    hand.apply("ann", DrawStock())
    hand.apply("ann", discard("7C"))
    assert hand.discard_top == card("7C")


def test_lay_offs_are_credited_to_who_laid_them_off() -> None:
    hand = position(
        {"ann": "5H 6H 7H 2C 9D", "bob": "4H 8H KS QS"}, stock="3C 10C JC", discard="AD"
    )
    hand.apply("ann", DrawStock())
    hand.apply("ann", meld("5H 6H 7H"))
    hand.apply("ann", discard("2C"))
    hand.apply("bob", DrawStock())
    hand.apply("bob", lay_off("4H 8H", 0))
    assert [str(c) for c in hand.melds[0].cards] == ["4H", "5H", "6H", "7H", "8H"]
    assert hand.melds[0].owners == ("bob", "ann", "ann", "ann", "bob")
    assert hand.melds[0].cards_of("bob") == tuple(cards("4H 8H"))


# --- every refusal ---------------------------------------------------------------------
def test_not_your_turn() -> None:
    assert_refused(example(), "bob", DrawStock(), NotYourTurnError, "It is not your turn.")


def test_not_seated() -> None:
    assert_refused(
        example(), "zed", DrawStock(), NotSeatedError, "You are not playing in this hand"
    )


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (discard("QH"), "You must draw before you discard"),
        (meld("AS 2S 3S"), "You must draw before you meld"),
        (lay_off("4S", 0), "You must draw before you lay off"),
    ],
)
def test_draw_before_anything_else(action: Discard | MeldCards | LayOff, message: str) -> None:
    assert_refused(example(), "ann", action, IllegalMoveError, message)


@pytest.mark.parametrize("second", [DrawStock(), TakeDiscard()])
def test_drawn_already(second: DrawStock | TakeDiscard) -> None:
    for first in (DrawStock(), TakeDiscard()):
        hand = example()
        hand.apply("ann", first)
        assert_refused(hand, "ann", second, IllegalMoveError, "You have already drawn this turn")


def test_card_not_held() -> None:
    hand = example()
    hand.apply("ann", DrawStock())
    assert_refused(hand, "ann", discard("KD"), IllegalMoveError, "You don't hold K♦")
    assert_refused(hand, "ann", meld("AS 2S 5S"), IllegalMoveError, "You don't hold 5♠")
    assert_refused(hand, "ann", meld("JS QS KS"), IllegalMoveError, "You don't hold J♠ Q♠ K♠")
    assert_refused(hand, "ann", meld("AS AS 2S"), IllegalMoveError, "You named A♠ twice")


def test_no_such_meld() -> None:
    hand = example()
    hand.apply("ann", DrawStock())
    assert_refused(
        hand, "ann", lay_off("4S", 0), IllegalMoveError, "There is no meld 0 on the table"
    )
    hand.apply("ann", meld("AS 2S 3S"))
    assert_refused(
        hand, "ann", lay_off("4S", 5), IllegalMoveError, "There is no meld 5 on the table"
    )
    assert_refused(
        hand, "ann", lay_off("4S", -1), IllegalMoveError, "There is no meld -1 on the table"
    )
    assert_refused(
        hand, "ann", lay_off("", 0), IllegalMoveError, "Choose at least one card to lay off"
    )


def test_invalid_melds_and_lay_offs_are_refused_with_the_reason() -> None:
    hand = position({"ann": "QS KS AS 2S 9H", "bob": "3D"}, stock="4C", discard="5C")
    hand.apply("ann", DrawStock())
    assert_refused(
        hand,
        "ann",
        meld("QS KS AS"),
        IllegalMoveError,
        "Q♠ K♠ A♠ is not a run: aces are low at this table",
    )
    assert_refused(
        hand,
        "ann",
        meld("KS AS 2S"),
        IllegalMoveError,
        "K♠ A♠ 2♠ is not a run: an ace cannot turn the corner",
    )
    assert_refused(hand, "ann", meld("KS AS"), IllegalMoveError, "A meld needs at least 3 cards")


def test_taking_then_discarding_the_same_card() -> None:
    hand = example()
    hand.apply("ann", TakeDiscard())
    assert_refused(
        hand,
        "ann",
        discard("7C"),
        IllegalMoveError,
        "You took 7♣ from the discard pile this turn: discard another card",
    )


FORBIDDEN_ONLY = (
    "That would leave you holding only 7♣, which you took from the discard pile this turn"
    " and may not discard"
)


def test_a_meld_that_leaves_only_the_forbidden_card() -> None:
    hand = position({"ann": "AS 2S 3S 4S", "bob": "KD"}, stock="9C", discard="2H 7C")
    hand.apply("ann", TakeDiscard())
    assert_refused(hand, "ann", meld("AS 2S 3S 4S"), IllegalMoveError, FORBIDDEN_ONLY)
    hand.apply("ann", meld("AS 2S 3S"))  # keeps 4S besides 7C: fine
    assert_refused(hand, "ann", lay_off("4S", 0), IllegalMoveError, FORBIDDEN_ONLY)
    assert hand.legal_actions("ann") == [discard("4S")]


def test_a_meld_that_uses_the_taken_card_may_empty_the_hand() -> None:
    hand = position({"ann": "5C 6C", "bob": "KD"}, stock="9C", discard="2H 7C")
    hand.apply("ann", TakeDiscard())
    events = hand.apply("ann", meld("5C 6C 7C"))
    assert events[-2:] == [Event("went_out", "ann"), Event("hand_over", None)]


def test_taking_the_discard_with_an_empty_hand() -> None:
    hand = position({"ann": "", "bob": "KD"}, stock="9C", discard="7C")
    assert hand.legal_actions("ann") == [DrawStock()]
    assert_refused(
        hand,
        "ann",
        TakeDiscard(),
        IllegalMoveError,
        "You cannot take 7♣: you would have no other card to discard",
    )


def test_an_empty_discard_pile_cannot_be_taken() -> None:
    hand = position({"ann": "5C", "bob": "KD"}, stock="9C", discard="")
    assert hand.legal_actions("ann") == [DrawStock()]
    assert_refused(
        hand,
        "ann",
        TakeDiscard(),
        IllegalMoveError,
        "The discard pile is empty: draw from the stock",
    )


def test_one_meld_per_turn() -> None:
    rules = HouseRules(melds_per_turn=MeldsPerTurn.ONE)
    hand = position(
        {"ann": "AS 2S 3S 7D 7H 7S QH 4S", "bob": "KD"}, stock="9C", discard="2H", rules=rules
    )
    hand.apply("ann", DrawStock())
    hand.apply("ann", meld("AS 2S 3S"))
    assert_refused(
        hand, "ann", meld("7D 7H 7S"), IllegalMoveError, "Only one meld per turn at this table"
    )
    assert not any(isinstance(a, MeldCards) for a in hand.legal_actions("ann"))
    hand.apply("ann", lay_off("4S", 0))  # lay-offs stay unlimited
    assert hand.melded_this_turn == 1


def test_unlimited_melds_per_turn() -> None:
    hand = position({"ann": "AS 2S 3S 7D 7H 7S QH", "bob": "KD"}, stock="9C", discard="2H")
    hand.apply("ann", DrawStock())
    hand.apply("ann", meld("AS 2S 3S"))
    hand.apply("ann", meld("7D 7H 7S"))
    assert hand.melded_this_turn == 2


def test_discard_only_forbids_melding_or_laying_off_the_last_card() -> None:
    rules = HouseRules(go_out=GoOut.DISCARD_ONLY)
    message = "At this table you must go out by discarding: keep a card"
    hand = position({"ann": "AS 2S 3S", "bob": "KD 5C"}, stock="4S 9C", discard="2H", rules=rules)
    hand.apply("ann", DrawStock())
    assert_refused(hand, "ann", meld("AS 2S 3S 4S"), IllegalMoveError, message)
    assert MeldCards(tuple(cards("AS 2S 3S 4S"))) not in hand.legal_actions("ann")
    hand.apply("ann", meld("AS 2S 3S"))
    assert_refused(hand, "ann", lay_off("4S", 0), IllegalMoveError, message)
    events = hand.apply("ann", discard("4S"))  # going out by discarding is fine
    assert events[-2:] == [Event("went_out", "ann"), Event("hand_over", None)]


def test_moves_after_the_hand_is_over() -> None:
    hand = position({"ann": "AS 2S 3S", "bob": "KD"}, stock="9C", discard="2H")
    hand.apply("ann", DrawStock())
    hand.apply("ann", meld("AS 2S 3S"))
    hand.apply("ann", discard("9C"))
    assert hand.is_over and hand.turn is None and hand.phase is Phase.OVER
    assert_refused(hand, "bob", DrawStock(), HandOverError, "This hand is over")
    assert_refused(hand, "ann", DrawStock(), HandOverError, "This hand is over")
    assert hand.legal_actions("bob") == []


def test_not_an_action() -> None:
    hand = example()
    assert_refused(hand, "ann", "draw", IllegalMoveError, "That is not a move in Rummy")  # type: ignore[arg-type]


# --- going out, rummy, scoring -----------------------------------------------------------
def test_going_out_by_discard_with_rummy_doubles() -> None:
    hand = position(
        {"ann": "AS 2S 3S", "bob": "KD 5C", "cat": "7H 8H 9H"}, stock="9C", discard="2H"
    )
    hand.apply("ann", DrawStock())
    hand.apply("ann", meld("AS 2S 3S"))
    events = hand.apply("ann", discard("9C"))
    assert events == [
        Event("discard", "ann", (card("9C"),)),
        Event("went_out", "ann"),
        Event("hand_over", None),
    ]
    out = hand.outcome
    assert out is not None
    assert (out.went_out, out.winners, out.rummy, out.reason) == (
        "ann",
        ("ann",),
        True,
        Termination.WENT_OUT,
    )
    assert out.counts == {"ann": 0, "bob": 15, "cat": 24}
    assert out.scores == {"ann": 78, "bob": 0, "cat": 0}  # (15 + 24) doubled
    assert out.remaining == {
        "ann": (),
        "bob": tuple(cards("5C KD")),
        "cat": tuple(cards("7H 8H 9H")),
    }


def test_rummy_without_bonus_is_still_rummy_but_not_doubled() -> None:
    rules = HouseRules(rummy_bonus=RummyBonus.NONE)
    hand = position({"ann": "AS 2S 3S", "bob": "KD 5C"}, stock="9C", discard="2H", rules=rules)
    hand.apply("ann", DrawStock())
    hand.apply("ann", meld("AS 2S 3S"))
    hand.apply("ann", discard("9C"))
    assert hand.outcome is not None
    assert hand.outcome.rummy
    assert hand.outcome.scores == {"ann": 15, "bob": 0}


def test_going_out_by_meld() -> None:
    hand = position({"ann": "AS 2S 3S 7D 7H", "bob": "KD 5C"}, stock="7S", discard="2H")
    hand.apply("ann", DrawStock())
    hand.apply("ann", meld("AS 2S 3S"))
    events = hand.apply("ann", meld("7D 7H 7S"))
    assert events[-2:] == [Event("went_out", "ann"), Event("hand_over", None)]
    assert hand.outcome is not None and hand.outcome.scores["ann"] == 30


def test_not_rummy_after_an_earlier_meld_going_out_by_lay_off() -> None:
    hand = position(
        {"ann": "AS 2S 3S 9H", "bob": "6H 7H 8H KD QC"}, stock="JC 4C 10H", discard="2D"
    )
    hand.apply("ann", DrawStock())  # JC
    hand.apply("ann", meld("AS 2S 3S"))
    hand.apply("ann", discard("JC"))
    assert hand.has_melded("ann")
    hand.apply("bob", DrawStock())  # 4C
    hand.apply("bob", meld("6H 7H 8H"))
    hand.apply("bob", discard("KD"))
    hand.apply("ann", DrawStock())  # 10H
    events = hand.apply("ann", lay_off("10H 9H", 1))  # onto bob's run: her last cards
    assert events == [
        Event("lay_off", "ann", tuple(cards("9H 10H")), 1),
        Event("went_out", "ann"),
        Event("hand_over", None),
    ]
    assert hand.melds[1].owners == ("bob", "bob", "bob", "ann", "ann")
    out = hand.outcome
    assert out is not None
    assert (out.went_out, out.rummy) == ("ann", False)
    assert out.scores == {"ann": 14, "bob": 0}  # QC + 4C, not doubled


def test_not_rummy_after_an_earlier_lay_off() -> None:
    hand = position(
        {"ann": "9H 2C 3C 5D", "bob": "6H 7H 8H KD QC"},
        stock="JC 4C 10S 9D",
        discard="AD",
        first="bob",
    )
    hand.apply("bob", DrawStock())  # JC
    hand.apply("bob", meld("6H 7H 8H"))
    hand.apply("bob", discard("JC"))
    hand.apply("ann", DrawStock())  # 4C
    hand.apply("ann", lay_off("9H", 0))  # a lay-off, no meld of her own
    hand.apply("ann", discard("5D"))
    assert hand.has_melded("ann")
    hand.apply("bob", DrawStock())  # 10S
    hand.apply("bob", discard("10S"))
    hand.apply("ann", DrawStock())  # 9D
    hand.apply("ann", meld("2C 3C 4C"))
    hand.apply("ann", discard("9D"))
    out = hand.outcome
    assert out is not None
    assert (out.went_out, out.rummy) == ("ann", False)
    assert out.scores == {"ann": 20, "bob": 0}


def test_rummy_by_laying_off_everything_in_one_turn() -> None:
    hand = position(
        {"ann": "9H", "bob": "6H 7H 8H KD QC"}, stock="JC 10H", discard="AD", first="bob"
    )
    hand.apply("bob", DrawStock())  # JC
    hand.apply("bob", meld("6H 7H 8H"))
    hand.apply("bob", discard("JC"))
    hand.apply("ann", DrawStock())  # 10H
    hand.apply("ann", lay_off("9H 10H", 0))
    out = hand.outcome
    assert out is not None
    assert (out.went_out, out.rummy) == ("ann", True)
    assert out.scores == {"ann": 40, "bob": 0}  # KD + QC, doubled


@pytest.mark.parametrize(
    ("ace", "expected"), [(AceRule.LOW, 1 + 10 + 2), (AceRule.HIGH_OR_LOW, 15 + 10 + 2)]
)
def test_scores_count_aces_by_the_ace_rule(ace: AceRule, expected: int) -> None:
    rules = HouseRules(ace=ace, rummy_bonus=RummyBonus.NONE)
    hand = position({"ann": "7S 8S", "bob": "AD KC 2H"}, stock="9S", discard="3C", rules=rules)
    hand.apply("ann", DrawStock())
    hand.apply("ann", meld("7S 8S 9S"))
    assert hand.outcome is not None
    assert hand.outcome.counts["bob"] == expected
    assert hand.outcome.scores == {"ann": expected, "bob": 0}


def test_nobody_out_ending_scores_the_lowest_count() -> None:
    # 6 / 15 / 7 / 21: the stock is empty and the pile too small to rebuild.
    table = {"ann": "6C", "bob": "10D 5C", "cat": "7H", "dan": "KD JC AS"}
    hand = position(table, stock="", discard="2H")
    assert hand.apply("ann", DrawStock()) == [Event("hand_over", None)]
    out = hand.outcome
    assert out is not None
    assert out.reason is Termination.STOCK_EXHAUSTED
    assert (out.went_out, out.winners, out.rummy) == (None, ("ann",), False)
    assert out.counts == {"ann": 6, "bob": 15, "cat": 7, "dan": 21}
    assert out.scores == {"ann": 25, "bob": 0, "cat": 0, "dan": 0}


def test_nobody_out_ending_with_a_tie_splits_rounded_down() -> None:
    table = {"ann": "5C", "bob": "3D 2C", "cat": "6H"}
    hand = position(table, stock="", discard="", rules=HouseRules(empty_stock=EmptyStock.TURN_OVER))
    hand.apply("ann", DrawStock())
    out = hand.outcome
    assert out is not None
    assert out.winners == ("ann", "bob")
    assert out.scores == {"ann": 0, "bob": 0, "cat": 0}  # a pot of 1 split two ways


# --- empty stock: turn_over ---------------------------------------------------------------
TURN_OVER = HouseRules(empty_stock=EmptyStock.TURN_OVER)


def test_turn_over_first_time_turns_the_pile_over_unshuffled() -> None:
    hand = position({"ann": "2C 3D", "bob": "4H 5S"}, stock="", discard="KC QD JH", rules=TURN_OVER)
    assert TakeDiscard() in hand.legal_actions("ann")  # the discard may still be taken
    events = hand.apply("ann", DrawStock())
    assert events == [Event("turn_over", "ann"), Event("draw_stock", "ann")]
    assert card("KC") in hand.hand_of("ann")  # the bottom card became the top of the stock
    assert hand.discard_pile == ()
    assert hand.stock_size == 2
    assert hand.stock_exhaustions == 1
    hand.apply("ann", discard("2C"))
    hand.apply("bob", DrawStock())
    assert card("QD") in hand.hand_of("bob")
    hand.apply("bob", discard("4H"))
    hand.apply("ann", DrawStock())
    assert card("JH") in hand.hand_of("ann")
    hand.apply("ann", discard("3D"))
    assert hand.stock_size == 0
    # bob may still take the discard...
    assert hand.legal_actions("bob") == [DrawStock(), TakeDiscard()]
    # ...but drawing from the empty stock a second time ends the hand with nobody out.
    assert hand.apply("bob", DrawStock()) == [Event("hand_over", None)]
    out = hand.outcome
    assert out is not None
    assert out.reason is Termination.STOCK_EXHAUSTED and out.went_out is None


def test_turn_over_with_nothing_to_turn_over_ends_the_hand() -> None:
    hand = position({"ann": "2C", "bob": "4H"}, stock="", discard="", rules=TURN_OVER)
    hand.apply("ann", DrawStock())
    assert hand.is_over


def test_turn_over_taking_the_discard_leaves_the_stock_empty() -> None:
    hand = position({"ann": "2C 3D", "bob": "4H 5S"}, stock="", discard="KC QD", rules=TURN_OVER)
    hand.apply("ann", TakeDiscard())
    hand.apply("ann", discard("2C"))
    assert hand.stock_exhaustions == 0 and hand.stock_size == 0
    hand.apply("bob", DrawStock())
    assert hand.stock_exhaustions == 1
    assert card("KC") in hand.hand_of("bob")


# --- empty stock: reshuffle ------------------------------------------------------------------
def test_reshuffle_at_the_next_draw_keeps_the_top_card() -> None:
    hand = position({"ann": "2C 3D", "bob": "4H 5S"}, stock="", discard="KC QD JH 9S", seed=5)
    events = hand.apply("ann", DrawStock())
    assert events == [Event("reshuffle", "ann"), Event("draw_stock", "ann")]
    assert hand.discard_pile == (card("9S"),)
    assert hand.stock_size == 2
    assert hand.stock_exhaustions == 1
    rebuilt = set(hand.to_dict()["stock"]) | {str(c) for c in hand.hand_of("ann")} - {"2C", "3D"}
    assert rebuilt == {"KC", "QD", "JH"}


def test_reshuffle_waits_for_the_next_draw_from_the_stock() -> None:
    hand = position({"ann": "2C 3D", "bob": "4H 5S"}, stock="9C", discard="KC QD")
    hand.apply("ann", DrawStock())
    hand.apply("ann", discard("2C"))
    assert hand.stock_size == 0 and hand.stock_exhaustions == 0
    hand.apply("bob", TakeDiscard())  # the next player may still take the discard
    assert hand.stock_size == 0 and hand.stock_exhaustions == 0


def test_reshuffle_is_seeded() -> None:
    def rebuilt(seed: int) -> list[str]:
        hand = position(
            {"a": "2C", "b": "3C"},
            stock="",
            discard="AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
            seed=seed,
        )
        hand.apply("a", DrawStock())
        return [str(c) for c in hand.hand_of("a")] + hand.to_dict()["stock"]

    assert rebuilt(1) == rebuilt(1)
    assert len({tuple(rebuilt(seed)) for seed in range(5)}) > 1


def test_reshuffle_limit_then_the_hand_ends() -> None:
    hand = position({"ann": "2C 3D", "bob": "4H 5S"}, stock="", discard="KC QD JH")
    reshuffles = 0
    moves = 0
    while not hand.is_over:
        player = hand.turn
        assert player is not None
        events = hand.apply(player, DrawStock())
        reshuffles += sum(e.kind == "reshuffle" for e in events)
        if not hand.is_over:
            hand.apply(player, Discard(hand.hand_of(player)[0]))
        moves += 1
        assert moves < 100
    assert reshuffles == MAX_RESHUFFLES
    assert hand.stock_exhaustions == MAX_RESHUFFLES
    assert hand.outcome is not None and hand.outcome.reason is Termination.STOCK_EXHAUSTED


@pytest.mark.parametrize("pile", ["", "KC"])
def test_reshuffle_with_a_tiny_pile_ends_the_hand(pile: str) -> None:
    hand = position({"ann": "2C 3D", "bob": "4H 5S"}, stock="", discard=pile)
    assert hand.apply("ann", DrawStock()) == [Event("hand_over", None)]
    assert hand.outcome is not None and hand.outcome.reason is Termination.STOCK_EXHAUSTED


# --- the turn limit --------------------------------------------------------------------------
@pytest.mark.parametrize("empty_stock", list(EmptyStock))
def test_players_who_only_take_the_discard_hit_the_turn_limit(empty_stock: EmptyStock) -> None:
    rules = HouseRules(empty_stock=empty_stock)
    hand = position({"ann": "2C 3D", "bob": "4H 5S"}, stock="9C", discard="KD", rules=rules)
    while not hand.is_over:
        player = hand.turn
        assert player is not None
        assert hand.turns_played < MAX_TURNS
        hand.apply(player, TakeDiscard())
        hand.apply(
            player, Discard(next(c for c in hand.hand_of(player) if c != hand.taken_discard))
        )
    assert hand.turns_played == MAX_TURNS
    assert hand.outcome is not None
    assert hand.outcome.reason is Termination.TURN_LIMIT
    assert hand.outcome.went_out is None


# --- copies, and refused moves change nothing -------------------------------------------
def test_copies_are_independent() -> None:
    hand = mid_turn_hand()
    twin = hand.copy()
    twin.apply("ann", Discard(card("QH")))
    assert twin != hand
    assert hand.turn == "ann"


def test_refused_moves_change_nothing_in_random_states() -> None:
    rng = random.Random(99)
    hand = Hand.deal(["a", "b", "c", "d"], HouseRules(), 0, 99)
    deck = full_deck()
    refused = 0
    while not hand.is_over:
        player = hand.turn
        assert player is not None
        legal = hand.legal_actions(player)
        for _ in range(5):
            attempt = rng.choice(
                [
                    DrawStock(),
                    TakeDiscard(),
                    Discard(rng.choice(deck)),
                    MeldCards(tuple(rng.sample(deck, 3))),
                    LayOff(tuple(rng.sample(deck, 1)), rng.randrange(-1, 3)),
                ]
            )
            who = rng.choice([player, "a", "b", "zz"])
            before = json.dumps(hand.to_dict(), sort_keys=True)
            trial = hand.copy()
            try:
                trial.apply(who, attempt)
            except RummyError:
                refused += 1
                # the refused move left the original, and the copy, untouched
                assert json.dumps(trial.to_dict(), sort_keys=True) == before
            else:
                assert who == player and attempt in legal
        hand.apply(*choose(hand, rng, "uniform"))
    assert refused > 100


def test_why_not_gives_the_refusal_apply_would_raise_and_changes_nothing() -> None:
    hand = mid_turn_hand()  # ann took 7♣ from the pile, melded, holds 4♠ Q♥ 7♣
    before = hand.to_dict()
    assert hand.why_not("ann", discard("QH")) is None
    taken = hand.why_not("ann", discard("7C"))
    assert isinstance(taken, IllegalMoveError)
    assert str(taken) == "You took 7♣ from the discard pile this turn: discard another card"
    junk = meld("4S QH 7C")
    refused = hand.why_not("ann", junk)
    assert isinstance(refused, IllegalMoveError)
    with pytest.raises(IllegalMoveError) as caught:
        hand.copy().apply("ann", junk)
    assert str(caught.value) == str(refused)
    assert isinstance(hand.why_not("bob", discard("KD")), NotYourTurnError)
    assert hand.to_dict() == before
