"""The expert computer player: it remembers only what the table saw, decides the same
whatever the hidden cards are, and uses its memory where the hard player cannot."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import (
    AceRule,
    Action,
    Discard,
    DrawStock,
    EmptyStock,
    Event,
    GoOut,
    Hand,
    HouseRules,
    MeldCards,
    MeldsPerTurn,
    RummyBonus,
    TakeDiscard,
)
from engine.ai import Level, choose_action
from engine.expert import PublicRecord, events_from_data, events_to_data, record_of_moves
from engine.expert.memory import recall

from .helpers import card, cards, position


def deal_event(hand: Hand) -> Event:
    return Event("deal", hand.players[hand.dealer], hand.discard_pile)


class Table:
    """A hand and its public record, kept as the bot keeps them."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.events = [deal_event(hand)]

    def play(self, player: str, action: Action) -> None:
        self.events += self.hand.apply(player, action)

    def record(self) -> PublicRecord:
        return PublicRecord.of(self.events)

    def expert(self, player: str, seed: int = 0, record: PublicRecord | None = None) -> Action:
        view = self.hand.view_for(player)
        chosen = choose_action(view, Level.EXPERT, random.Random(seed), record or self.record())
        assert chosen in view.legal
        return chosen


# --- the record holds public facts only ------------------------------------------------------
def test_the_record_never_keeps_a_card_drawn_from_the_stock() -> None:
    secret = Event("draw_stock", "ann", (card("QS"),))
    record = PublicRecord.of([Event("take_discard", "bob", (card("7H"),)), secret])
    assert record.events == (
        Event("take_discard", "bob", (card("7H"),)),
        Event("draw_stock", "ann"),
    )
    assert "QS" not in str(events_to_data([secret]))


def test_events_round_trip_through_plain_data() -> None:
    table = Table(position({"ann": "AS 2S 3S 9H", "bob": "KD 5C 6C"}, "9C 8C", "2H 7C"))
    table.play("ann", TakeDiscard())
    table.play("ann", MeldCards(tuple(cards("AS 2S 3S"))))
    table.play("ann", Discard(card("9H")))
    table.play("bob", DrawStock())
    data = events_to_data(table.events)
    assert events_from_data(data) == table.events
    with pytest.raises(ValueError, match="unknown event kind"):
        events_from_data([{"kind": "peek", "player": "ann"}])


def test_memory_follows_what_an_opponent_took_played_and_passed_over() -> None:
    table = Table(
        position(
            {"me": "2C 3C 4D 5S 9H", "you": "QS QH 8D 8S KC"}, stock="AD 2D 3D 4S", discard="QC"
        )
    )
    table.play("me", DrawStock())
    table.play("me", Discard(card("9H")))
    table.play("you", DrawStock())  # passes over 9H
    table.play("you", Discard(card("KC")))
    table.play("me", DrawStock())
    table.play("me", Discard(card("5S")))
    table.play("you", TakeDiscard())  # takes 5S
    table.play("you", Discard(card("8D")))
    memory = recall(table.record(), table.hand.view_for("me"))
    assert memory.took["you"] == (card("5S"),)
    assert memory.held["you"] == frozenset({card("5S")})
    assert memory.shunned["you"] == frozenset(cards("9H KC 8D"))
    assert memory.stock is None  # a stock dealt from a shuffle: nobody knows its order


def test_a_record_rebuilt_from_the_moves_is_the_one_kept_during_play() -> None:
    hand = Hand.deal(["ann", "bob"], HouseRules(empty_stock=EmptyStock.TURN_OVER), 0, 99)
    dealt = hand.copy()
    table = Table(hand)
    moves: list[tuple[str, Action]] = []
    rng = random.Random(1)
    while not hand.is_over:
        player = hand.turn
        assert player is not None
        action = choose_action(hand.view_for(player), Level.HARD, rng)
        moves.append((player, action))
        table.play(player, action)
    assert record_of_moves(dealt, moves) == table.record()
    assert dealt.to_dict() == Hand.deal(["ann", "bob"], hand.rules, 0, 99).to_dict()


# --- only public information ------------------------------------------------------------------
def swap_hidden(hand: Hand, me: str, known: set[str], rng: random.Random) -> Hand:
    """The same hand with every card ``me`` cannot place dealt out again: the other
    players' cards that are not publicly known, and the stock, reshuffled."""
    data = hand.to_dict()
    hidden: list[str] = list(data["stock"])
    keep: dict[str, list[str]] = {}
    for player, codes in data["hands"].items():
        if player == me:
            continue
        keep[player] = [c for c in codes if c in known]
        hidden += [c for c in codes if c not in known]
    rng.shuffle(hidden)
    for player, kept in keep.items():
        count = len(data["hands"][player]) - len(kept)
        data["hands"][player] = kept + hidden[:count]
        hidden = hidden[count:]
    data["stock"] = hidden
    return Hand.from_dict(data)


@pytest.mark.parametrize("players", [2, 3])
def test_hidden_cards_never_change_the_experts_decision(players: int) -> None:
    """At every expert decision of whole hands: the same view and record, with the
    opponents' unknown cards and the stock order dealt differently, give the same move
    for the same seed."""
    compared = 0
    for seed in range(3):
        seats = [f"p{i}" for i in range(players)]
        table = Table(Hand.deal(seats, HouseRules(), seed % players, 500 + seed))
        rng = random.Random(seed)
        while not table.hand.is_over:
            player = table.hand.turn
            assert player is not None
            record = table.record()
            view = table.hand.view_for(player)
            memory = recall(record, view)
            known = {str(c) for cards_held in memory.held.values() for c in cards_held}
            twin = swap_hidden(table.hand, player, known, rng)
            assert twin.to_dict() != table.hand.to_dict() or not twin.stock_size
            assert twin.view_for(player) == view
            mine = choose_action(view, Level.EXPERT, random.Random(seed), record)
            theirs = choose_action(twin.view_for(player), Level.EXPERT, random.Random(seed), record)
            assert mine == theirs
            compared += 1
            table.play(player, mine)
    assert compared > 60


# --- memory at work ----------------------------------------------------------------------------
def collected_queens_position() -> Table:
    """The opponent openly took Q♠, then Q♥; I hold A♦ A♥ A♠ 5♦ 6♦ 7♦ 7♥ 8♣ 10♣ 10♠ Q♦
    and must discard. Q♣, J♦, K♦ lie in the pile: for a player who forgets the two
    queens, Q♦ completes nothing any more."""
    table = Table(
        position(
            {
                "you": "2C 3C 4H 5S 9H JC KH 4S 6S 9S",
                "me": "AD AH AS 5D 6D 7D 7H 8C 10C QH",
            },
            stock="10S QD 2H 3H",
            discard="QC JD KD QS",
            first="you",
        )
    )
    table.play("you", TakeDiscard())
    table.play("you", Discard(card("2C")))
    table.play("me", DrawStock())  # 10S
    table.play("me", Discard(card("QH")))
    table.play("you", TakeDiscard())
    table.play("you", Discard(card("3C")))
    table.play("me", DrawStock())  # QD
    return table


def test_the_expert_does_not_hand_over_a_card_that_completes_a_collected_set() -> None:
    table = collected_queens_position()
    view = table.hand.view_for("me")
    # Q♦ is the highest loose card: a player who forgets throws it.
    assert choose_action(view, Level.HARD, random.Random(0)) == Discard(card("QD"))
    for seed in range(5):
        chosen = table.expert("me", seed)
        assert isinstance(chosen, Discard)
        assert chosen.card != card("QD")
        # A safe discard costs at most a few points more than the queen.
        assert chosen.card.points(HouseRules()) >= 7


def test_without_the_record_the_queen_looks_safe() -> None:
    """The same position with a record that starts after the pick-ups: the expert then
    knows no more than its view, and the memory test above is not passed by luck."""
    table = collected_queens_position()
    blind = PublicRecord.of(table.events[-1:])
    chosen = table.expert("me", 0, record=blind)
    assert chosen == Discard(card("QD"))


def turn_over_table() -> Table:
    """House rule turn_over. The stock has one card left; the pile holds, bottom first,
    5D 9H JC KD. I draw the last card and discard KH; you draw from the empty stock, so
    the pile is turned over (5D on top, you draw it), and discard KS."""
    rules = HouseRules(empty_stock=EmptyStock.TURN_OVER)
    table = Table(
        position(
            {"me": "9C 9D 2S 3H 6C QC KH", "you": "AD 2H 7S 8D KS 10D 3C"},
            stock="AC",
            discard="5D 9H JC KD",
            rules=rules,
        )
    )
    table.play("me", DrawStock())  # AC
    table.play("me", Discard(card("KH")))
    table.play("you", DrawStock())  # turn-over: 5D 9H JC KD KH become the stock; draws 5D
    table.play("you", Discard(card("KS")))
    return table


def test_under_turn_over_the_expert_knows_the_stock_order() -> None:
    table = turn_over_table()
    view = table.hand.view_for("me")
    memory = recall(table.record(), view)
    assert memory.stock == tuple(cards("9H JC KD KH"))
    assert memory.held["you"] == frozenset({card("5D")})
    # 9H is next in the stock and makes a set with 9C 9D: no need for the king.
    assert table.expert("me") == DrawStock()


def test_under_turn_over_the_expert_takes_the_discard_when_the_known_stock_card_is_useless() -> (
    None
):
    table = turn_over_table()
    table.play("me", DrawStock())  # 9H
    table.play("me", MeldCards(tuple(cards("9C 9D 9H"))))
    table.play("me", Discard(card("QC")))
    table.play("you", DrawStock())  # JC
    table.play("you", Discard(card("2H")))
    # Next in the stock is KD, known to be useless; 2H on the pile pairs with 2S and
    # runs with 3H.
    view = table.hand.view_for("me")
    assert recall(table.record(), view).stock == tuple(cards("KD KH"))
    assert table.expert("me") == TakeDiscard()


# --- house rules and the match -------------------------------------------------------------------
def test_the_expert_melds_when_an_opponent_could_win_the_match_on_its_held_points() -> None:
    # Held, the hand is worth 50 points after the queen goes, doubled by a rummy: enough
    # for an opponent on 60 of 100 to win the match by going out. Melded, 8 points are
    # left: not enough.
    hands = {"me": "4C 5C 6C 9H 9D 9S 2S 2H 3D AD", "you": "AH 3H 4H 5D 6D 8D 10D JD QD KD"}
    quiet = Table(position(hands, stock="QS AC", discard="2C"))
    quiet.play("me", DrawStock())
    assert isinstance(quiet.expert("me"), Discard)  # holds its melds for a rummy
    close = Table(position(hands, stock="QS AC", discard="2C"))
    close.play("me", DrawStock())
    at_stake = PublicRecord.of(close.events, {"me": 0, "you": 60}, hand_number=5)
    assert isinstance(close.expert("me", record=at_stake), MeldCards)


RULE_COMBINATIONS = list(itertools.product(AceRule, MeldsPerTurn, GoOut, RummyBonus, EmptyStock))


@pytest.mark.parametrize("combo", RULE_COMBINATIONS, ids=lambda c: "-".join(v.value for v in c))
def test_the_expert_plays_legal_moves_and_finishes_hands_under_every_house_rule(
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
    for players in (2, 4):
        seats = [f"p{i}" for i in range(players)]
        levels = {p: (Level.EXPERT, Level.HARD)[i % 2] for i, p in enumerate(seats)}
        table = Table(Hand.deal(seats, rules, 0, players * 7919 + len(combo)))
        rngs = {p: random.Random(p) for p in seats}
        while not table.hand.is_over:
            player = table.hand.turn
            assert player is not None
            view = table.hand.view_for(player)
            action = choose_action(view, levels[player], rngs[player], table.record())
            assert action in view.legal
            table.play(player, action)
        assert table.hand.outcome is not None
