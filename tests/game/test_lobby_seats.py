"""Seats in a lobby, checked once for both doors: joining and its refusals,
the rematch that deals itself once all its players are back, and who may
call a rematch of which match."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from engine import HouseRules, Match
from engine.ai import choose_action
from game.config import GameConfig
from game.engine_moves import Moves
from game.events import TableEvents
from game.lobby_seats import LobbySeats
from game.seat_moves import Ask
from tables import MAX_SEATS, Refusal, Seat, Stage, Table, TableRegistry


def lobby_seats(tables: TableRegistry) -> LobbySeats:
    # Only the registry is read by what is checked here; nothing is saved.
    work = SimpleNamespace(tables=tables)
    return LobbySeats(GameConfig(table_seed=7), work, Moves(),  # type: ignore[arg-type]
                      TableEvents())


def lobby(host: int = 1) -> Table:
    table = Table(channel_id=10, guild_id=20, host_id=host, rules=HouseRules(), seed=7)
    table.seats.append(Seat(str(host), "Ann", host))
    return table


def test_a_member_takes_a_seat_once_and_not_past_the_last() -> None:
    seats = lobby_seats(TableRegistry())
    table = lobby()
    seats.take_seat(table, Ask(2, "chat", name="Bob"))
    assert [seat.name for seat in table.seats] == ["Ann", "Bob"]
    with pytest.raises(Refusal, match="already have a seat"):
        seats.take_seat(table, Ask(2, "chat", name="Bob"))
    for user in range(3, MAX_SEATS + 1):
        seats.take_seat(table, Ask(user, "activity", name=f"P{user}"))
    with pytest.raises(Refusal, match="full"):
        seats.take_seat(table, Ask(99, "chat", name="Late"))
    table.stage = Stage.PLAYING
    with pytest.raises(Refusal, match="already started"):
        seats.take_seat(table, Ask(98, "chat", name="Later"))


def test_a_rematch_deals_itself_once_everyone_invited_is_back() -> None:
    seats = lobby_seats(TableRegistry())
    table = lobby()
    table.invited = [2, 3]
    seats.take_seat(table, Ask(2, "activity", name="Bob"))
    assert not seats.deal_if_all_back(table) and table.match is None
    seats.take_seat(table, Ask(3, "chat", name="Cat"))
    assert seats.deal_if_all_back(table)
    assert table.stage is Stage.PLAYING and table.match is not None and not table.invited


def ended_match(tables: TableRegistry) -> Table:
    """A one-hand match of Ann, Bob and a computer, played out to its end."""
    rules = HouseRules(hands=1, target=None)
    table = Table(channel_id=10, guild_id=20, host_id=1, rules=rules, seed=7)
    table.seats = [Seat("1", "Ann", 1), Seat("2", "Bob", 2), Seat("cpu1", "Ada", level="hard")]
    match = table.match = Match.start([seat.key for seat in table.seats], table.rules, 7)
    while not match.is_over:
        turn = match.hand.turn
        assert turn is not None
        match.apply(turn, choose_action(match.hand.view_for(turn), "easy", random.Random(0)))
    table.stage = Stage.FINISHED
    tables.add(table)
    tables.remove(table.channel_id)
    return table


def test_only_a_player_of_the_match_on_hand_calls_its_rematch() -> None:
    tables = TableRegistry()
    seats = lobby_seats(tables)
    ended = ended_match(tables)
    with pytest.raises(Refusal, match="Only the players"):
        seats.rematch(ended, Ask(5, "chat", name="Eve"))
    with pytest.raises(Refusal, match="later game"):
        seats.rematch(ended, Ask(2, "chat", name="Bob"), game="0000")
    with pytest.raises(Refusal, match="no longer at hand"):
        seats.rematch(ended, Ask(2, "activity", position="an older picture"))
    fresh = seats.rematch(ended, Ask(2, "chat", name="Robert"), game=ended.game_id)
    assert fresh.host_id == 2 and fresh.invited == [1] and fresh.stage is Stage.LOBBY
    assert [(seat.name, seat.level) for seat in fresh.seats] == [("Robert", None),
                                                                ("Ada", "hard")]
    # The Activity knows the nickname too (its sign-in asks the server): the
    # seat takes it as it is now; a door that knows none keeps the old name.
    renamed = seats.rematch(ended, Ask(2, "activity", name="Bobby",
                                       position=ended.position))
    assert renamed.seats[0].name == "Bobby"
    kept = seats.rematch(ended, Ask(2, "activity", position=ended.position))
    assert kept.seats[0].name == "Bob"
    tables.add(fresh)
    with pytest.raises(Refusal, match="already open"):
        seats.rematch(ended, Ask(1, "chat", name="Ann"))


def test_a_rematch_against_computers_alone_deals_at_once() -> None:
    tables = TableRegistry()
    seats = lobby_seats(tables)
    ended = ended_match(tables)
    ended.seats = [seat for seat in ended.seats if seat.user_id != 2]
    fresh = seats.rematch(ended, Ask(1, "activity", position=ended.position))
    assert fresh.stage is Stage.PLAYING and fresh.match is not None and not fresh.invited
