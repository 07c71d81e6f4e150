"""Computer players: always legal, deterministic, blind to what their seat may not see,
and each level plays the way it promises in fixed positions."""

from __future__ import annotations

import itertools
import random

import pytest

import engine.ai
from engine import (
    AceRule,
    Action,
    Discard,
    DrawStock,
    EmptyStock,
    GoOut,
    Hand,
    HandView,
    HouseRules,
    LayOff,
    MeldCards,
    MeldsPerTurn,
    Phase,
    RummyBonus,
    RummyError,
    TakeDiscard,
)
from engine.ai import Level, choose_action, timeout_action
from engine.melds import meld_options

from .helpers import card, cards, position

TIMEOUT = "timeout"
SEAT_KINDS: tuple[str, ...] = (Level.RANDOM, Level.EASY, Level.HARD, TIMEOUT)
RULE_COMBINATIONS = list(itertools.product(AceRule, MeldsPerTurn, GoOut, RummyBonus, EmptyStock))


def rules_id(combo: tuple[object, ...]) -> str:
    return "-".join(str(getattr(value, "value", value)) for value in combo)


def pick(view: HandView, kind: str, rng: random.Random) -> Action:
    return timeout_action(view) if kind == TIMEOUT else choose_action(view, kind, rng)


def play_hand(
    hand: Hand, kinds: dict[str, str], rngs: dict[str, random.Random]
) -> list[tuple[str, Action]]:
    """Play the hand to its end with the given seats, checking every move; returns them."""
    moves: list[tuple[str, Action]] = []
    while not hand.is_over:
        player = hand.turn
        assert player is not None
        view = hand.view_for(player)
        action = pick(view, kinds[player], rngs[player])
        assert action in view.legal, (kinds[player], action, view)
        if kinds[player] == TIMEOUT:
            assert not isinstance(action, MeldCards | LayOff)
        hand.apply(player, action)
        moves.append((player, action))
        assert len(moves) < 2000
    return moves


# --- always legal ---------------------------------------------------------------------------
@pytest.mark.parametrize("combo", RULE_COMBINATIONS, ids=rules_id)
def test_every_level_plays_only_legal_moves_under_every_house_rule(
    combo: tuple[AceRule, MeldsPerTurn, GoOut, RummyBonus, EmptyStock],
) -> None:
    ace, melds_per_turn, go_out, rummy_bonus, empty_stock = combo
    rules = HouseRules(
        ace=ace,
        melds_per_turn=melds_per_turn,
        go_out=go_out,
        rummy_bonus=rummy_bonus,
        empty_stock=empty_stock,
    )
    rng = random.Random(rules_id(combo))
    total = 0
    seen_kinds: set[str] = set()
    for players in range(2, 7):
        seats = [f"p{i}" for i in range(players)]
        positions = 0
        number = 0
        # Every level sits at every table size, in every seat over the hands played.
        while positions < 800 or number < 4:
            kinds = {p: SEAT_KINDS[(i + number) % len(SEAT_KINDS)] for i, p in enumerate(seats)}
            seen_kinds.update(kinds.values())
            hand = Hand.deal(seats, rules, rng.randrange(players), rng.randrange(2**32))
            rngs = {p: random.Random(rng.random()) for p in seats}
            positions += len(play_hand(hand, kinds, rngs))
            number += 1
        total += positions
    assert seen_kinds == set(SEAT_KINDS)
    assert total >= 4000


def test_hard_against_itself_finishes_hands_under_awkward_rules() -> None:
    rules = HouseRules(
        melds_per_turn=MeldsPerTurn.ONE,
        go_out=GoOut.DISCARD_ONLY,
        empty_stock=EmptyStock.TURN_OVER,
        ace=AceRule.HIGH_OR_LOW,
    )
    for seed in range(20):
        seats = ["a", "b", "c"][: 2 + seed % 2]
        hand = Hand.deal(seats, rules, 0, seed)
        play_hand(hand, dict.fromkeys(seats, Level.HARD), {p: random.Random(0) for p in seats})
        assert hand.outcome is not None


# --- deterministic --------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4, 6])
def test_same_seed_same_moves(players: int) -> None:
    seats = [f"p{i}" for i in range(players)]
    kinds = {p: SEAT_KINDS[i % 3] for i, p in enumerate(seats)}

    def run() -> list[tuple[str, Action]]:
        hand = Hand.deal(seats, HouseRules(), 0, 1234 + players)
        return play_hand(hand, kinds, {p: random.Random(f"seed:{p}") for p in seats})

    assert run() == run()


def test_same_view_and_generator_state_give_the_same_move() -> None:
    hand = Hand.deal(["a", "b"], HouseRules(), 0, 77)
    rng = random.Random(5)
    while not hand.is_over:
        player = hand.turn
        assert player is not None
        view = hand.view_for(player)
        for level in Level:
            state = rng.getstate()
            first = choose_action(view, level, rng)
            rng.setstate(state)
            assert choose_action(view, level, rng) == first
        hand.apply(player, choose_action(view, Level.HARD, rng))


# --- only the seat's own view -------------------------------------------------------------------
def own_view(
    hand_codes: str,
    legal: list[Action],
    *,
    phase: Phase = Phase.PLAY,
    discard: str = "5C KD",
    counts: dict[str, int] | None = None,
    rules: HouseRules | None = None,
    taken: str | None = None,
) -> HandView:
    """A view written out field by field: the seat's cards and public facts only."""
    pile = tuple(cards(discard))
    return HandView(
        player="me",
        hand=tuple(cards(hand_codes)),
        players=("me", "them"),
        card_counts=counts or {"me": len(hand_codes.split()), "them": 9},
        melds=(),
        discard_top=pile[-1] if pile else None,
        discard_pile=pile,
        stock_size=20,
        turn="me",
        phase=phase,
        dealer="them",
        rules=rules or HouseRules(),
        may_not_discard=None if taken is None else card(taken),
        melded_this_turn=0,
        has_melded_this_hand=False,
        stock_exhaustions=0,
        outcome=None,
        legal=tuple(legal),
    )


def test_a_view_written_by_hand_is_all_it_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    # No Hand exists here, and any attempt to reach one would fail loudly.
    assert not hasattr(engine.ai, "Hand")
    for name in ("legal_actions", "hand_of", "view_for", "to_dict", "copy"):
        monkeypatch.setattr(Hand, name, lambda *a, **k: pytest.fail("the AI used a Hand"))
    draw_view = own_view(
        "7S 8S 2D 5H 9C JD QH 3C 4D KS",
        [DrawStock(), TakeDiscard()],
        phase=Phase.DRAW,
        discard="5C 9S",
    )
    held = "7S 8S 9S 2D 5H 9C JD QH 3C 4D KS"
    play_legal: list[Action] = [MeldCards(m) for m in meld_options(cards(held), HouseRules())]
    play_legal += [Discard(c) for c in cards(held)]
    play_view = own_view(held, play_legal, counts={"me": 11, "them": 10})
    rng = random.Random(1)
    for view in (draw_view, play_view):
        for level in (*Level, "easy", "hard", "random"):
            assert choose_action(view, level, rng) in view.legal
        assert timeout_action(view) in view.legal
    assert choose_action(draw_view, Level.HARD, rng) == TakeDiscard()
    assert timeout_action(draw_view) == DrawStock()
    assert timeout_action(play_view) == Discard(card("KS"))


def test_hidden_cards_do_not_change_the_choice() -> None:
    """Two deals that differ only in what the seat cannot see give it the same view."""
    mine = "7S 8S 2D 5H 9C JD QH 3C 4D KS"
    first = position(
        {"me": mine, "them": "AH 2H 3H 4H 5D 6D 7D 8D 9D 10D"}, stock="AC 2C 10S", discard="5C 9S"
    )
    second = position(
        {"me": mine, "them": "10S 2C AC 4H 5D 6D 7D 8D 9D 10D"}, stock="AH 2H 3H", discard="5C 9S"
    )
    assert first.view_for("me") == second.view_for("me")
    for level in Level:
        a = choose_action(first.view_for("me"), level, random.Random(3))
        b = choose_action(second.view_for("me"), level, random.Random(3))
        assert a == b


def test_unknown_level_and_wrong_turn_are_refused() -> None:
    hand = Hand.deal(["a", "b"], HouseRules(), 0, 1)
    with pytest.raises(RummyError, match="unknown computer level"):
        choose_action(hand.view_for("b"), "grandmaster", random.Random(0))
    with pytest.raises(RummyError, match="its turn"):
        choose_action(hand.view_for("a"), Level.EASY, random.Random(0))
    with pytest.raises(RummyError, match="its turn"):
        timeout_action(hand.view_for("a"))
    assert Level("hard") is Level.HARD
    assert str(Level.HARD) == "hard"


# --- the timeout move ----------------------------------------------------------------------------
def test_timeout_draws_from_the_stock_even_when_the_discard_would_meld() -> None:
    hand = position({"me": "9C 9D 2S 3H", "you": "KD"}, stock="4C", discard="9H")
    assert timeout_action(hand.view_for("me")) == DrawStock()


def test_timeout_discards_the_highest_unmatched_card_and_never_melds() -> None:
    hand = position(
        {"me": "7S 8S 9S 4C 4D 4H KH 2D QC 5C", "you": "AD 3D"},
        stock="JD",
        discard="6D",
    )
    hand.apply("me", DrawStock())  # JD
    view = hand.view_for("me")
    assert any(isinstance(a, MeldCards) for a in view.legal)
    # K, Q and J are all worth 10: the king has the highest rank.
    assert timeout_action(view) == Discard(card("KH"))


def test_timeout_keeps_a_card_that_fits_a_table_meld_but_does_not_lay_it_off() -> None:
    hand = position(
        {"me": "JS 3C 2D", "you": "8S 9S 10S 5D 6H"}, stock="4H AC", discard="7C", first="you"
    )
    hand.apply("you", DrawStock())
    hand.apply("you", MeldCards(tuple(cards("8S 9S 10S"))))
    hand.apply("you", Discard(card("4H")))
    hand.apply("me", TakeDiscard())  # 4H may not go straight back
    view = hand.view_for("me")
    assert LayOff((card("JS"),), 0) in view.legal
    # JS fits the table run, 4H was just taken: 3C is the highest card left to throw.
    assert timeout_action(view) == Discard(card("3C"))


def test_timeout_counts_the_ace_high_when_aces_score_fifteen() -> None:
    rules = HouseRules(ace=AceRule.HIGH_OR_LOW)
    hand = position({"me": "AD KC 2H 6S", "you": "5D"}, stock="9H", discard="3C", rules=rules)
    hand.apply("me", DrawStock())
    assert timeout_action(hand.view_for("me")) == Discard(card("AD"))


# --- easy ----------------------------------------------------------------------------------------
def test_easy_takes_the_discard_only_when_it_makes_a_meld() -> None:
    melds = position({"me": "9C 9D 2S 3H KC", "you": "KD"}, stock="4C", discard="9H")
    assert choose_action(melds.view_for("me"), Level.EASY, random.Random(0)) == TakeDiscard()
    useless = position({"me": "9C 9D 2S 3H KC", "you": "KD"}, stock="4C", discard="6H")
    assert choose_action(useless.view_for("me"), Level.EASY, random.Random(0)) == DrawStock()


def test_easy_melds_everything_longest_first_then_discards_its_highest_unmatched_card() -> None:
    hand = position(
        {"me": "3H 4H 5H 6H 9C 9D 9S KC 2S 7D", "you": "AD 2D 3D 4D 5D 6D 7C 8C 9H 10H"},
        stock="QD JC",
        discard="8S",
    )
    rng = random.Random(0)
    played: list[Action] = []
    while hand.turn == "me":
        action = choose_action(hand.view_for("me"), Level.EASY, rng)
        played.append(action)
        hand.apply("me", action)
    assert played == [
        DrawStock(),  # QD: the 8S on the pile makes no meld
        MeldCards(tuple(cards("3H 4H 5H 6H"))),
        MeldCards(tuple(cards("9C 9D 9S"))),
        Discard(card("KC")),  # K, Q both 10: the king ranks higher
    ]


def test_easy_lays_off_what_it_can() -> None:
    hand = position(
        {"me": "JS 3C 2D", "you": "8S 9S 10S 5D 6H"}, stock="4H AC", discard="7C", first="you"
    )
    hand.apply("you", DrawStock())
    hand.apply("you", MeldCards(tuple(cards("8S 9S 10S"))))
    hand.apply("you", Discard(card("4H")))
    hand.apply("me", DrawStock())  # AC
    assert choose_action(hand.view_for("me"), Level.EASY, random.Random(0)) == LayOff(
        (card("JS"),), 0
    )


# --- hard ----------------------------------------------------------------------------------------
def test_hard_takes_the_discard_that_completes_a_meld() -> None:
    hand = position(
        {"me": "7S 8S 2D 5H 9C JD QH 3C 4D KS", "you": "AH 2H 3H 4H 5D 6D 7D 8D 9D 10D"},
        stock="AC 2C",
        discard="5C 9S",
    )
    assert choose_action(hand.view_for("me"), Level.HARD, random.Random(0)) == TakeDiscard()
    set_maker = position(
        {"me": "QS QD 2D 5H 9C JD 3C 4D KS 7H", "you": "AH 2H 3H 4H 5D 6D 7D 8D 9D 10D"},
        stock="AC 2C",
        discard="5C QC",
    )
    assert choose_action(set_maker.view_for("me"), Level.HARD, random.Random(0)) == TakeDiscard()


def test_hard_leaves_a_useless_discard_on_the_pile() -> None:
    hand = position(
        {"me": "7S 8S 2D 5H 9C JD QH 3C 4D KS", "you": "AH 2H 3H 4H 5D 6D 7D 8D 9D 10D"},
        stock="AC 2C",
        discard="5C 6C QC 10H",  # 10H: no ten, no heart near it
    )
    assert choose_action(hand.view_for("me"), Level.HARD, random.Random(0)) == DrawStock()


def test_hard_goes_out_when_it_can() -> None:
    hand = position(
        {"me": "4C 5C 6C 9H 9D KS", "you": "AH 2H 3H 4H 5D 6D 7D"},
        stock="9S 2C",
        discard="10C",
    )
    rng = random.Random(0)
    while not hand.is_over:
        assert hand.turn == "me"
        hand.apply("me", choose_action(hand.view_for("me"), Level.HARD, rng))
    assert hand.outcome is not None and hand.outcome.winners == ("me",)


def test_hard_keeps_a_pair_and_throws_a_lone_high_card() -> None:
    hand = position(
        {"me": "4C 5C 6C 8H 8D KS 2H 2S 10D JC", "you": "AH 2D 3H 4H 5D 6D 7D 9C 9D 9S"},
        stock="QH AC",
        discard="7S",
    )
    rng = random.Random(0)
    hand.apply("me", DrawStock())  # QH
    action = choose_action(hand.view_for("me"), Level.HARD, rng)
    assert isinstance(action, Discard)
    assert action.card in cards("KS QH JC 10D")


def test_hard_holds_melds_for_rummy_while_opponents_hold_many_cards() -> None:
    hands = {"me": "4C 5C 6C 9H 9D 9S KS 2H 7D JC", "you": "AH 3H 4H 5D 6D 8D 10D JD QD KD"}
    hand = position(hands, stock="QS AC", discard="2C")
    rng = random.Random(0)
    hand.apply("me", DrawStock())
    assert isinstance(choose_action(hand.view_for("me"), Level.HARD, rng), Discard)
    # The same cards, with the opponent two cards from going out: meld now.
    close = position({"me": hands["me"], "you": "AH 3H"}, stock="QS AC", discard="2C")
    close.apply("me", DrawStock())
    assert isinstance(choose_action(close.view_for("me"), Level.HARD, rng), MeldCards)
    # No rummy bonus, nothing to wait for but the same reasons to hold back lay-off spots.
    no_bonus = HouseRules(rummy_bonus=RummyBonus.NONE)
    plain = position(hands, stock="QS AC", discard="2C", rules=no_bonus)
    plain.apply("me", DrawStock())
    assert isinstance(choose_action(plain.view_for("me"), Level.HARD, rng), Discard)


def test_hard_melds_one_at_a_time_when_only_one_meld_per_turn() -> None:
    rules = HouseRules(melds_per_turn=MeldsPerTurn.ONE)
    hand = position(
        {"me": "4C 5C 6C 9H 9D 9S KS 2H 7D JC", "you": "AH 3H 4H 5D 6D 8D 10D JD QD KD"},
        stock="QS AC",
        discard="2C",
        rules=rules,
    )
    rng = random.Random(0)
    hand.apply("me", DrawStock())
    first = choose_action(hand.view_for("me"), Level.HARD, rng)
    assert isinstance(first, MeldCards)
    hand.apply("me", first)
    assert isinstance(choose_action(hand.view_for("me"), Level.HARD, rng), Discard)


def test_hard_does_not_feed_a_table_meld() -> None:
    hand = position(
        {"me": "JS 3C 2D 9H 9C", "you": "8S 9S 10S 5D 6H QH 4D"},
        stock="4H AC KC",
        discard="7C",
        first="you",
    )
    hand.apply("you", DrawStock())
    hand.apply("you", MeldCards(tuple(cards("8S 9S 10S"))))
    hand.apply("you", Discard(card("4H")))
    hand.apply("me", DrawStock())  # AC
    rng = random.Random(0)
    while hand.turn == "me":
        action = choose_action(hand.view_for("me"), Level.HARD, rng)
        assert action != Discard(card("JS"))
        hand.apply("me", action)


def test_hard_stays_quick_and_legal_with_a_puzzle_sized_hand() -> None:
    big = "AC 2C 3C 4C 5C 6C 7C 8C 9C AD 2D 3D 4D 5D 6D 7D 8D"
    hand = position({"me": big, "you": "KS"}, stock="9D 10D", discard="QH")
    rng = random.Random(0)
    while hand.turn == "me":
        view = hand.view_for("me")
        action = choose_action(view, Level.HARD, rng)
        assert action in view.legal
        hand.apply("me", action)
