"""A participant's picture of the table: a player's own cards and legal moves,
a watcher's none, melds numbered from 1 as the lay-offs name them."""

from __future__ import annotations

import json

from engine import Card, DrawStock, MeldCards, full_deck
from tables import Seat, Stage, Table
from tests.tables.helpers import laid_out_match, playing_table
from web.page_protocol import VERSION
from web.table_state import table_state


def test_a_player_sees_their_own_cards_and_nobody_elses() -> None:
    table = playing_table()
    assert table.match is not None
    mine = table.seat("1")
    state = table_state(table, mine)
    assert state["format"] == VERSION and state["you"] == "1"
    assert set(state["hand"]) == {card.code for card in table.match.hand.hand_of("1")}
    text = json.dumps(state)
    for other in ("2", "cpu1"):
        for card in table.match.hand.hand_of(other):
            assert f'"{card.code}"' not in text or card.code in state["hand"]
    counts = {seat["key"]: seat["cards"] for seat in state["seats"]}
    assert counts["2"] == len(table.match.hand.hand_of("2"))


def test_a_watcher_sees_no_hand_and_no_moves() -> None:
    table = playing_table()
    state = table_state(table, None)
    assert state["you"] is None and state["hand"] == [] and state["legal"] is None


def test_lay_offs_name_melds_by_their_number_from_one() -> None:
    run = [Card.parse(code) for code in ("7H", "8H", "9H")]
    fits = Card.parse("10H")
    rest = [card for card in full_deck() if card not in (*run, fits)]
    match, order = laid_out_match(["1", "2"], 4, [[*run, fits, *rest[:6]], rest[6:16]],
                                  rest[16:20], rest[20:21])
    table = Table(channel_id=10, guild_id=20, host_id=1, rules=match.rules, seed=4,
                  seats=[Seat("1", "Ann", 1), Seat("2", "Bob", 2)])
    table.match, table.stage = match, Stage.PLAYING
    first = order[0]
    match.apply(first, DrawStock())
    match.apply(first, MeldCards(tuple(run)))
    table.changes += 1
    state = table_state(table, table.seat(first))
    assert [meld["number"] for meld in state["melds"]] == [1]
    assert {"cards": ["10H"], "meld": 1} in state["legal"]["lay_offs"]


def test_no_game_says_how_to_start_one() -> None:
    state = table_state(None, None)
    assert state["stage"] == "none" and "/rummy start" in state["text"]
