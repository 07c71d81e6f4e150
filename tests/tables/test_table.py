import json

import pytest

from engine import DrawStock
from tables import Stage, Table, TableRegistry
from tables.records import live_table
from tables.tapes import add_move, current_tape, public_record

from .helpers import playing_table


def test_table_round_trips_through_json() -> None:
    table = playing_table()
    turn = table.match.hand.turn if table.match else None
    assert turn is not None
    table.match.apply(turn, DrawStock())  # type: ignore[union-attr]
    table.note("{who} drew from the stock", "1", who="Ann")
    table.selections["1"] = ["AS"]
    saved = json.loads(json.dumps(table.to_dict()))
    again = Table.from_dict(saved)
    assert again.to_dict() == table.to_dict()
    assert again.match is not None and again.match.hand.turn == turn


def test_a_game_where_the_bot_is_no_member_stays_so_and_older_saves_are_not() -> None:
    table = playing_table()
    table.activity_only = True
    again = Table.from_dict(json.loads(json.dumps(table.to_dict())))
    assert again.activity_only and again.place.activity_only
    older = table.to_dict()
    del older["activity_only"]  # saved before games could be played where the bot is not
    assert not Table.from_dict(older).activity_only


def test_restore_puts_back_an_earlier_state_in_place() -> None:
    table = playing_table()
    lock = table.lock
    saved = table.to_dict()
    snapshot = table.snapshot()
    turn = table.match.hand.turn  # type: ignore[union-attr]
    table.match.apply(turn, DrawStock())  # type: ignore[union-attr, arg-type]
    table.stage = Stage.HAND_OVER
    table.seats[0].missed_turns = 2
    table.note("a move")
    table.selections["1"] = ["AS"]
    table.restore(snapshot)
    assert table.to_dict() == saved
    assert table.lock is lock


def test_a_snapshot_can_be_restored_again_after_more_changes() -> None:
    table = playing_table()
    saved = table.to_dict()
    snapshot = table.snapshot()
    for _ in range(2):
        turn = table.match.hand.turn  # type: ignore[union-attr]
        table.match.apply(turn, DrawStock())  # type: ignore[union-attr, arg-type]
        table.seats[1].autopilot = True
        table.restore(snapshot)
        assert table.to_dict() == saved


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(format=99),
        lambda d: d.pop("seats"),
        lambda d: d.update(stage="dancing"),
        lambda d: d["match"].update(version=-1),
    ],
)
def test_unreadable_state_raises(damage) -> None:  # type: ignore[no-untyped-def]
    data = playing_table().to_dict()
    damage(data)
    with pytest.raises((ValueError, KeyError, TypeError)):
        Table.from_dict(data)


def test_registry_holds_one_table_per_channel() -> None:
    registry = TableRegistry()
    registry.add(playing_table())
    with pytest.raises(ValueError):
        registry.add(playing_table())
    registry.remove(10)
    assert registry.get(10) is None and len(registry) == 0


def test_a_game_keeps_its_id_across_a_save_and_old_saves_get_one() -> None:
    table = playing_table()
    again = Table.from_dict(table.to_dict())
    assert again.game_id == table.game_id
    saved_before_ids = table.to_dict()
    del saved_before_ids["game_id"]
    assert Table.from_dict(saved_before_ids).game_id not in ("", table.game_id)


def test_a_damaged_game_id_is_refused() -> None:
    saved = playing_table().to_dict()
    saved["game_id"] = "not:hex"
    with pytest.raises(ValueError, match="game id"):
        Table.from_dict(saved)


def test_a_seats_view_is_worked_out_once_per_saved_change() -> None:
    table = playing_table()
    first = table.view_of("1")
    assert table.view_of("1") is first
    table.changes += 1
    assert table.view_of("1") is not first


async def test_no_view_is_kept_while_a_change_may_still_be_undone() -> None:
    table = playing_table()
    async with table.lock:
        during = table.view_of("1")
        assert table.view_of("1") is not during


def test_the_hand_record_comes_from_the_tape_and_follows_a_roll_back() -> None:
    table = playing_table()
    assert table.match is not None
    table.new_hand_log("Hand 1: Ann dealt")
    upcard = table.match.hand.discard_top
    assert upcard is not None
    turn = table.match.hand.turn
    assert turn is not None
    snapshot = table.snapshot()
    tape = current_tape(table)
    table.match.apply(turn, DrawStock())
    add_move(table, tape, turn, DrawStock())
    events = public_record(table).events
    assert [event.kind for event in events] == ["deal", "draw_stock"]
    assert events[0].cards == (upcard,)
    assert events[1].cards == ()  # the drawn card stays secret
    again = Table.from_dict(json.loads(json.dumps(table.to_dict())))
    assert public_record(again).events == events
    table.restore(snapshot)
    assert [event.kind for event in public_record(table).events] == ["deal"]


def test_a_hand_under_way_before_taping_has_an_empty_record() -> None:
    table = playing_table()
    assert table.match is not None
    turn = table.match.hand.turn
    assert turn is not None
    table.match.apply(turn, DrawStock())  # no tape: a table saved by an older release
    assert public_record(table).events == ()
    assert current_tape(table) is None


DOOR_KEYS = ("message_id", "dm_closed", "dm_closed_told", "hand_messages", "host_panel")


def test_the_game_saves_nothing_of_a_door_and_reads_a_row_that_holds_one() -> None:
    table = playing_table()
    door = {"message_id": 5, "dm_closed": [2], "dm_closed_told": [], "hand_messages": {}}
    row = live_table(table, door)
    again = Table.from_dict(json.loads(json.dumps(row.state)))
    assert not set(DOOR_KEYS) & set(table.to_dict())
    assert row.state == {**table.to_dict(), **door} and row.message_id == 5
    assert again.to_dict() == table.to_dict()


def test_tables_are_told_apart_by_identity() -> None:
    table, twin = playing_table(), playing_table()
    twin.game_id = table.game_id
    assert table != twin and len({table, twin}) == 2
