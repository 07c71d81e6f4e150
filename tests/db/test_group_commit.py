"""Saves made at once are committed together, and each caller learns its own fate."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from db import Database, LiveTable, StorageError

from .conftest import StoreFails


def table(channel_id: int, turn: int) -> LiveTable:
    return LiveTable(channel_id, 1, None, {}, {"turn": turn}, float(turn))


async def test_saves_made_at_once_all_land_and_the_last_of_a_table_wins(db: Database) -> None:
    saves = [db.save_live_table(table(channel, turn)) for turn in (1, 2) for channel in range(20)]
    await asyncio.gather(*saves)
    loaded = (await db.load_live_tables()).tables
    assert [(t.channel_id, t.state["turn"]) for t in loaded] == [(c, 2) for c in range(20)]


async def test_a_failed_group_commit_fails_every_save_in_it(
    db: Database, store_fails: StoreFails
) -> None:
    await db.save_live_table(table(1, 1))
    with store_fails():
        results = await asyncio.gather(
            *(db.save_live_table(table(channel, 2)) for channel in (1, 2, 3)),
            return_exceptions=True,
        )
    for channel, result in zip((1, 2, 3), results, strict=True):
        assert isinstance(result, StorageError)
        assert f"saving the live table in channel {channel} failed" in str(result)
    assert [(t.channel_id, t.state["turn"]) for t in (await db.load_live_tables()).tables] == [
        (1, 1)
    ]


async def test_a_save_after_close_is_refused(db: Database) -> None:
    await db.close()
    with pytest.raises(StorageError, match=r"channel 5 failed: the database .* is closed"):
        await db.save_live_table(table(5, 1))


async def test_more_saves_than_one_statement_takes_all_land(db: Database) -> None:
    from db.sqlite_store import MAX_SAVES_PER_COMMIT

    channels = range(2 * MAX_SAVES_PER_COMMIT + 7)
    await asyncio.gather(*(db.save_live_table(table(channel, channel)) for channel in channels))
    loaded = (await db.load_live_tables()).tables
    assert sorted((t.channel_id, t.state["turn"]) for t in loaded) == [(c, c) for c in channels]


async def test_saves_made_just_before_close_are_on_disk_after_it(db_target: str | Path) -> None:
    db = await Database.open(db_target)
    saves = [asyncio.create_task(db.save_live_table(table(channel, 1))) for channel in range(30)]
    await asyncio.sleep(0)  # every save is handed to the writer...
    await db.close()  # ...and close waits for them
    assert all(save.done() and save.exception() is None for save in saves)
    async with await Database.open(db_target) as reopened:
        loaded = (await reopened.load_live_tables()).tables
    assert sorted(t.channel_id for t in loaded) == list(range(30))
