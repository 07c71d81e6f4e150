"""The unit of work on a real SQLite file: a change is saved whole or undone
whole, and what follows a change runs only once it is saved."""

from __future__ import annotations

import sqlite3

import pytest

from db import Database
from db.unrecorded import kept_files, load
from engine import DrawStock, RummyError
from tables import NOT_SAVED, FollowUp, NotSaved, Stage, Table, TableRegistry, TableWork
from tables.work import RECORD_ATTEMPTS
from tests.db.faults import writes_fail

from .helpers import playing_table


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[int, FollowUp]] = []

    def __call__(self, table: Table, follow_up: FollowUp) -> None:
        self.calls.append((table.channel_id, follow_up))




@pytest.fixture
def followed() -> Recorder:
    return Recorder()


@pytest.fixture
async def work(db: Database, followed: Recorder) -> TableWork:
    return TableWork(db, TableRegistry(), followed)


async def opened(work: TableWork) -> Table:
    """A dealt table in play, what followed its opening forgotten: the tests
    look at what follows their own change."""
    table = playing_table()
    await work.open(table)
    assert isinstance(work.after_save, Recorder)
    work.after_save.calls.clear()
    return table


def draw(table: Table) -> None:
    assert table.match is not None
    turn = table.match.hand.turn
    assert turn is not None
    table.match.apply(turn, DrawStock())


async def saved_state(db: Database, table: Table) -> dict[str, object]:
    [saved] = [t for t in (await db.load_live_tables()).tables if t.channel_id == table.channel_id]
    # The game, without the open hand messages' handles saved beside it.
    return {key: value for key, value in saved.state.items() if key != "hand_messages"}


async def test_a_saved_change_is_on_disk_and_its_follow_ups_run(
    work: TableWork, db: Database, followed: Recorder
) -> None:
    table = await opened(work)
    async with table.lock, work.change(table) as change:
        draw(table)
        await change.save()
        assert followed.calls == []  # not before the block ends: the answer goes first
    assert await saved_state(db, table) == table.to_dict()
    assert followed.calls == [(table.channel_id, FollowUp(turn_changed=False, refresh=True))]
    assert table.changes == 1


async def test_a_failure_after_the_save_keeps_the_change_and_its_follow_ups(
    work: TableWork, db: Database, followed: Recorder
) -> None:
    table = await opened(work)
    with pytest.raises(ConnectionError):
        async with table.lock, work.change(table, refresh=False) as change:
            draw(table)
            await change.save()
            raise ConnectionError("the answer could not be sent")
    assert await saved_state(db, table) == table.to_dict()
    assert followed.calls == [(table.channel_id, FollowUp(turn_changed=False, refresh=False))]


async def test_a_refusal_before_the_save_undoes_the_change(
    work: TableWork, db: Database, followed: Recorder
) -> None:
    table = await opened(work)
    before = table.to_dict()
    with pytest.raises(RummyError):
        async with table.lock, work.change(table):
            draw(table)
            table.note("half a move")
            raise RummyError("refused after a first step")
    assert table.to_dict() == before == await saved_state(db, table)
    assert followed.calls == []


async def test_a_block_that_ends_unsaved_is_undone(work: TableWork, followed: Recorder) -> None:
    table = await opened(work)
    before = table.to_dict()
    async with table.lock, work.change(table):
        draw(table)
    assert table.to_dict() == before
    assert followed.calls == []


async def test_a_change_that_cannot_be_saved_is_refused_and_undone(
    work: TableWork, db: Database, followed: Recorder
) -> None:
    table = await opened(work)
    before = table.to_dict()
    with pytest.raises(NotSaved, match="could not be saved"):
        async with table.lock, work.change(table) as change:
            draw(table)
            with writes_fail():
                await change.save()
    assert str(NotSaved()) == NOT_SAVED
    assert table.to_dict() == before == await saved_state(db, table)
    assert followed.calls == [] and table.changes == 0
    assert not table.lock.locked()


async def test_a_rolled_back_step_can_be_replaced_before_the_save(
    work: TableWork, db: Database
) -> None:
    table = await opened(work)
    async with table.lock, work.change(table) as change:
        table.note("a strategy's bad first try")
        change.roll_back()
        draw(table)
        await change.save()
    assert "a strategy's bad first try" not in [line.message for line in table.log]
    assert await saved_state(db, table) == table.to_dict()


async def test_the_turn_passing_is_reported(work: TableWork, followed: Recorder) -> None:
    table = await opened(work)
    assert table.match is not None
    player = table.match.hand.turn
    assert player is not None
    async with table.lock, work.change(table) as change:
        draw(table)
        card = table.match.hand.hand_of(player)[0]
        from_hand = table.match.legal_actions(player)
        discard = next(a for a in from_hand if getattr(a, "card", None) == card)
        table.match.apply(player, discard)
        await change.save()
    assert followed.calls[-1][1].turn_changed


async def test_closing_records_an_abandoned_match_and_leaves_play(
    work: TableWork, db: Database, followed: Recorder
) -> None:
    table = await opened(work)
    await work.close(table)
    assert table.stage is Stage.FINISHED
    assert work.tables.get(table.channel_id) is None
    assert (await db.load_live_tables()).tables == []
    assert followed.calls == [(table.channel_id, FollowUp(turn_changed=True, refresh=False))]


async def test_a_table_that_cannot_be_opened_is_not_in_play(
    work: TableWork, followed: Recorder
) -> None:
    table = playing_table()
    with writes_fail(), pytest.raises(NotSaved):
        await work.open(table)
    assert work.tables.get(table.channel_id) is None
    assert followed.calls == []


async def test_a_table_opened_dealt_is_followed_as_a_deal_and_a_lobby_as_no_turn(
    work: TableWork, db: Database, followed: Recorder
) -> None:
    # Dealt (a rematch with nobody to wait for): its first turn begins, as a
    # Start's does; the door that opened it shows it itself.
    dealt = playing_table()
    await work.open(dealt)
    lobby = Table(channel_id=11, guild_id=20, host_id=1, rules=dealt.rules, seed=1)
    await work.open(lobby)
    assert followed.calls == [
        (dealt.channel_id, FollowUp(turn_changed=True, refresh=False)),
        (lobby.channel_id, FollowUp(turn_changed=False, refresh=False)),
    ]
    assert len((await db.load_live_tables()).tables) == 2


async def test_closing_a_match_the_database_keeps_refusing_keeps_it_aside(
    work: TableWork, db: Database, followed: Recorder
) -> None:
    table = await opened(work)
    other = sqlite3.connect(db.path, isolation_level=None)
    other.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON matches "
        "BEGIN SELECT RAISE(ABORT, 'damaged'); END"
    )
    other.close()
    for _ in range(RECORD_ATTEMPTS - 1):
        with pytest.raises(NotSaved):
            await work.close(table)
        assert work.tables.get(table.channel_id) is table and followed.calls == []
    await work.close(table)
    assert work.tables.get(table.channel_id) is None
    assert followed.calls == [
        (table.channel_id, FollowUp(turn_changed=True, refresh=False, result_kept=True))
    ]
    [kept] = kept_files(work.kept_results)
    assert load(kept).abandoned and load(kept).channel_id == table.channel_id
    assert (await db.load_live_tables()).tables == []
