import json

import pytest

from engine import DrawStock
from tables import HandMessage, HostPanel, Stage, Table, TableRegistry
from tables.records import live_table
from tables.tapes import add_move, current_tape, public_record
from transport.handles import InteractionHandle
from transport.tokens import TOKEN_LIFETIME

from .helpers import playing_table


def test_table_round_trips_through_json() -> None:
    table = playing_table()
    turn = table.match.hand.turn if table.match else None
    assert turn is not None
    table.match.apply(turn, DrawStock())  # type: ignore[union-attr]
    table.note("{who} drew from the stock", "1", who="Ann")
    table.selections["1"] = ["AS"]
    table.dm_closed.add(2)
    saved = json.loads(json.dumps(table.to_dict()))
    again = Table.from_dict(saved)
    assert again.to_dict() == table.to_dict()
    assert again.match is not None and again.match.hand.turn == turn


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
    table.dm_closed.add(1)
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




class FakeHandle:
    """Stands in for the session an interaction handle sends on: nothing is sent here."""

    def __init__(self, application_id: int, token: str) -> None:
        self.application_id, self.token = application_id, token


def test_open_hand_messages_are_saved_beside_the_game_while_their_tokens_live() -> None:
    table = playing_table()
    now = 1_000_000.0
    fresh = InteractionHandle.__new__(InteractionHandle)
    fresh.application_id, fresh.token = 7, "fresh-token"
    stale = InteractionHandle.__new__(InteractionHandle)
    stale.application_id, stale.token = 7, "stale-token"
    table.hand_messages["1"] = HandMessage(fresh, now - 60, 501)
    table.hand_messages["2"] = HandMessage(stale, now - TOKEN_LIFETIME - 1, 502)
    # One posted below a new hand's table: a follow-up, edited by its id.
    table.hand_messages["3"] = HandMessage(fresh, now - 30, 503, followup=True)
    state = json.loads(json.dumps(live_table(table).state))
    assert "hand_messages" not in table.to_dict()  # the game alone
    assert state["hand_messages"]["1"] == {
        "application_id": 7, "token": "fresh-token", "message_id": 501, "opened_at": now - 60,
        "followup": False,
    }
    again = Table.from_dict(state)
    assert again.to_dict() == table.to_dict()
    again.restore_hand_messages(FakeHandle, now)
    # The one whose token died stays forgotten; the others follow the game again.
    assert set(again.hand_messages) == {"1", "3"}
    back = again.hand_messages["1"]
    assert (back.handle.token, back.message_id, back.opened_at) == ("fresh-token", 501, now - 60)
    assert back.shows == again.changes and again.saved_hand_messages == {}
    assert not back.followup and again.hand_messages["3"].followup


def test_the_hosts_lobby_controls_are_saved_beside_the_game_while_their_token_lives() -> None:
    table = playing_table()
    table.stage, table.match = Stage.LOBBY, None
    now = 1_000_000.0
    handle = InteractionHandle.__new__(InteractionHandle)
    handle.application_id, handle.token = 7, "host-token"
    table.host_panel = HostPanel(handle, now - 60, 601, followup=True, with_rules=True)
    state = json.loads(json.dumps(live_table(table).state))
    assert "host_panel" not in table.to_dict()  # the game alone
    again = Table.from_dict(state)
    again.restore_host_panel(FakeHandle, now)
    back = again.host_panel
    assert back is not None and back.handle.token == "host-token"
    assert (back.message_id, back.followup, back.with_rules) == (601, True, True)
    assert back.shows == again.changes and again.saved_host_panel is None
    # Past its token's life, or once the game has started, there is nothing to follow.
    late = Table.from_dict(state)
    late.restore_host_panel(FakeHandle, now + TOKEN_LIFETIME)
    started = Table.from_dict({**state, "stage": "playing", "match": table.to_dict()["match"]})
    started.restore_host_panel(FakeHandle, now)
    assert late.host_panel is None and started.host_panel is None
