"""The chat's part of a table: kept beside the game, saved in the table's row
exactly as the game's state held it before, and read back from that row."""

from __future__ import annotations

import json
import time
from typing import Any

from chat.restore import restore_tables
from chat.table_side import (
    HandMessage,
    HostPanel,
    chat_side,
    restore_side,
    saved_beside,
    undo_point,
)
from db import Database
from tables import FollowUp, Stage, Table, TableRegistry, TableWork
from tables.records import live_table
from tests.tables.helpers import playing_table
from transport.handles import InteractionHandle
from transport.tokens import TOKEN_LIFETIME

NOW = 1_000_000.0

# Every key of a table's saved state as the release before the chat's side
# wrote it: the game's and, beside them, the chat's.
SAVED_KEYS = {
    "format", "channel_id", "guild_id", "host_id", "rules", "seed", "seats", "stage",
    "message_id", "match", "log", "hand_log", "created_at", "last_human_action",
    "turn_deadline", "selections", "sort_modes", "dm_closed", "dm_closed_told",
    "next_cpu_number", "game_id", "invited", "tapes", "language", "activity_only", "hand_messages",
    "host_panel",
}


class FakeHandle:
    """Stands in for the session an interaction handle sends on: nothing is sent here."""

    def __init__(self, application_id: int, token: str) -> None:
        self.application_id, self.token = application_id, token


def resumable(token: str) -> InteractionHandle:
    handle = InteractionHandle.__new__(InteractionHandle)
    handle.application_id, handle.token = 7, token
    return handle


def lobby_with_everything(now: float = NOW) -> Table:
    """A lobby whose chat side holds one of each thing it saves, as of ``now``."""
    table = playing_table()
    table.stage, table.match = Stage.LOBBY, None
    side = chat_side(table)
    side.message_id = 99
    side.dm_closed |= {3, 2}
    side.dm_closed_told.add(2)
    side.hand_messages["1"] = HandMessage(resumable("fresh"), now - 60, 501)
    side.hand_messages["2"] = HandMessage(resumable("stale"), now - TOKEN_LIFETIME - 1, 502)
    # One posted below a new hand's table: a follow-up, edited by its id.
    side.hand_messages["3"] = HandMessage(resumable("fresh"), now - 30, 503, followup=True)
    side.host_panel = HostPanel(resumable("host"), now - 60, 601, followup=True,
                                with_rules=True)
    return table


def test_the_saved_row_holds_the_chats_part_as_the_game_state_did() -> None:
    table = lobby_with_everything()
    row = live_table(table, saved_beside(table))
    state = json.loads(json.dumps(row.state))
    assert set(state) == SAVED_KEYS and row.message_id == 99
    assert {key: state[key] for key in table.to_dict()} == json.loads(
        json.dumps(table.to_dict())
    )
    assert (state["message_id"], state["dm_closed"], state["dm_closed_told"]) == (99, [2, 3], [2])
    assert state["hand_messages"] == {
        "1": {"application_id": 7, "token": "fresh", "message_id": 501,
              "opened_at": NOW - 60, "followup": False},
        # Saved while its message is known, dead token or not: the restore drops it.
        "2": {"application_id": 7, "token": "stale", "message_id": 502,
              "opened_at": NOW - TOKEN_LIFETIME - 1, "followup": False},
        "3": {"application_id": 7, "token": "fresh", "message_id": 503,
              "opened_at": NOW - 30, "followup": True},
    }
    assert state["host_panel"] == {
        "application_id": 7, "token": "host", "message_id": 601, "followup": True,
        "opened_at": NOW - 60, "with_rules": True,
    }


def test_a_table_without_host_controls_saves_no_host_panel_key() -> None:
    table = playing_table()
    state = live_table(table, saved_beside(table)).state
    assert "host_panel" not in state and state["hand_messages"] == {}
    assert (state["message_id"], state["dm_closed"], state["dm_closed_told"]) == (None, [], [])


def test_a_saved_row_restores_the_chats_part_and_handles_for_live_tokens() -> None:
    table = lobby_with_everything()
    row = live_table(table, saved_beside(table))
    state = json.loads(json.dumps(row.state))
    again = Table.from_dict(state)
    side = restore_side(again, state, row.message_id)
    assert side is chat_side(again) and side is not chat_side(table)
    assert (side.message_id, side.dm_closed, side.dm_closed_told) == (99, {2, 3}, {2})
    side.restore_hand_messages(again, FakeHandle, NOW)
    side.restore_host_panel(again, FakeHandle, NOW)
    # The one whose token died stays forgotten; the others follow the game again.
    assert set(side.hand_messages) == {"1", "3"} and side.saved_hand_messages == {}
    back = side.hand_messages["1"]
    assert (back.handle.token, back.message_id, back.opened_at) == ("fresh", 501, NOW - 60)
    assert back.shows == again.changes and not back.followup
    assert side.hand_messages["3"].followup
    panel = side.host_panel
    assert panel is not None and panel.handle.token == "host"
    assert (panel.message_id, panel.followup, panel.with_rules) == (601, True, True)
    assert panel.shows == again.changes and side.saved_host_panel is None


def test_host_controls_past_their_token_or_their_lobby_are_not_restored() -> None:
    table = lobby_with_everything()
    state = json.loads(json.dumps(live_table(table, saved_beside(table)).state))
    late = Table.from_dict(state)
    restore_side(late, state).restore_host_panel(late, FakeHandle, NOW + TOKEN_LIFETIME)
    started_state = {**state, "stage": "playing", "match": playing_table().to_dict()["match"]}
    started = Table.from_dict(started_state)
    restore_side(started, started_state).restore_host_panel(started, FakeHandle, NOW)
    assert chat_side(late).host_panel is None and chat_side(started).host_panel is None


def test_without_handles_the_saved_messages_wait_and_are_saved_again_unchanged() -> None:
    table = lobby_with_everything()
    state = json.loads(json.dumps(live_table(table, saved_beside(table)).state))
    again = Table.from_dict(state)
    side = restore_side(again, state)
    assert side.hand_messages == {} and side.host_panel is None
    assert json.loads(json.dumps(live_table(again, saved_beside(again)).state)) == state


def test_a_row_saved_before_hand_messages_were_kept_restores_an_empty_side() -> None:
    table = playing_table()
    old = dict(table.to_dict())
    old.update(message_id=42, dm_closed=[5], dm_closed_told=[])
    again = Table.from_dict(old)
    side = restore_side(again, old, 42)
    assert (side.message_id, side.dm_closed, side.saved_hand_messages) == (42, {5}, {})
    assert side.saved_host_panel is None and again.to_dict() == table.to_dict()


def test_a_new_table_in_the_same_channel_has_a_fresh_side() -> None:
    old = lobby_with_everything()
    new = playing_table()
    assert new.channel_id == old.channel_id
    side = chat_side(new)
    assert side is not chat_side(old) and side is chat_side(new)
    assert (side.message_id, side.dm_closed, side.hand_messages, side.host_panel) == (
        None, set(), {}, None
    )


# --- through the database -------------------------------------------------------------




def ignore(_table: Table, _follow_up: FollowUp) -> None:
    return None


class Scheduled:
    """Stands in for the game's timers, the DMs, the refresher and the tasks:
    the restore only has them start, which the test does not need."""

    def schedule(self, table: Table) -> None:
        return None

    def request(self, table: Table) -> None:
        return None

    async def restore_failed(self, channel_id: int) -> None:
        return None

    def spawn(self, coroutine: Any, name: str) -> None:
        coroutine.close()


async def restored_from(db: Database, handle: Any) -> Table:
    tables = TableRegistry()
    fakes: Any = Scheduled()
    restored = await restore_tables(db, tables, fakes, fakes, fakes, fakes, handle=handle)
    assert restored == (1, 0)
    [table] = list(tables)
    return table


async def test_the_restore_fills_the_side_from_the_row_with_handles(db: Database) -> None:
    work = TableWork(db, TableRegistry(), ignore, door_state=saved_beside)
    await work.open(lobby_with_everything(time.time()))
    again = await restored_from(db, FakeHandle)
    side = chat_side(again)
    assert (side.message_id, side.dm_closed, side.dm_closed_told) == (99, {2, 3}, {2})
    # Handles again for the tokens still alive; the dead one is dropped.
    assert set(side.hand_messages) == {"1", "3"} and side.saved_hand_messages == {}
    assert side.hand_messages["1"].handle.token == "fresh"
    assert side.host_panel is not None and side.host_panel.handle.token == "host"


async def test_the_restore_keeps_the_saved_messages_for_later_without_a_handle(
    db: Database,
) -> None:
    work = TableWork(db, TableRegistry(), ignore, door_state=saved_beside)
    await work.open(lobby_with_everything(time.time()))
    again = await restored_from(db, None)
    side = chat_side(again)
    assert side.message_id == 99 and side.hand_messages == {}
    assert set(side.saved_hand_messages) == {"1", "2", "3"}
    assert side.saved_host_panel is not None and side.saved_host_panel["token"] == "host"


# --- a change undone ------------------------------------------------------------------


async def test_an_undone_change_puts_the_message_id_back_and_keeps_closed_dms(
    db: Database,
) -> None:
    work = TableWork(db, TableRegistry(), ignore, door_state=saved_beside,
                     door_undo=undo_point)
    table = playing_table()
    await work.open(table)
    side = chat_side(table)
    async with table.lock, work.change(table):
        side.message_id = 123  # a Join adopting the lobby clicked, say
        side.dm_closed.add(4)  # a DM found closed meanwhile
        # Ends unsaved: undone.
    assert side.message_id is None and side.dm_closed == {4}
