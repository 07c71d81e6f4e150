"""Saving games in progress, loading them at start-up, setting aside the unreadable."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from db import BrokenTable, Database, LiveTable, StorageError

from .conftest import Outside


def table(channel_id: int, turn: int = 0, **extra: Any) -> LiveTable:
    state: dict[str, Any] = {
        "version": 1,
        "turn": turn,
        "hands": {"p0": ["AS", "10H", "QC"], "p1": ["2D"]},
        "names": {"p0": "Zoë ♥", "p1": "Computer"},
        "discard": [],
        "scores": {"p0": 12.5, "p1": None},
    }
    fields: dict[str, Any] = {
        "channel_id": channel_id,
        "guild_id": 77,
        "message_id": 900_000_000_000_000_000 + channel_id,
        "rules": {"hand_size": 7},
        "state": state,
        "updated_at": 1_700_000_000.25 + turn,
    }
    fields.update(extra)
    return LiveTable(**fields)


async def test_save_load_round_trip_survives_reopen(db_target: str | Path) -> None:
    saved = [table(1), table(2, message_id=None), table(3, turn=4)]
    async with await Database.open(db_target) as db:
        for t in saved:
            await db.save_live_table(t)
    async with await Database.open(db_target) as db:
        loaded = await db.load_live_tables()
    assert loaded.tables == saved
    assert loaded.broken == []


async def test_save_replaces_and_delete_removes(db: Database) -> None:
    await db.save_live_table(table(1, turn=1))
    await db.save_live_table(table(2, turn=1))
    await db.save_live_table(table(1, turn=2, message_id=42))
    assert (await db.load_live_tables()).tables == [table(1, turn=2, message_id=42), table(2, 1)]
    await db.delete_live_table(1)
    await db.delete_live_table(12345)  # nothing there: not an error
    assert (await db.load_live_tables()).tables == [table(2, turn=1)]


async def test_unserialisable_state_is_a_storage_error_and_keeps_the_old_state(
    db: Database,
) -> None:
    await db.save_live_table(table(1, turn=1))
    for bad in ({"x": {1, 2}}, {"x": {1: "a number as a key would load back as a string"}}):
        with pytest.raises(StorageError, match="channel 1"):
            await db.save_live_table(table(1, turn=2, state=bad))
    assert (await db.load_live_tables()).tables == [table(1, turn=1)]


CORRUPTIONS: dict[str, tuple[str, tuple[Any, ...], str]] = {
    "truncated json": (
        "UPDATE live_tables SET state = ? WHERE channel_id = ?",
        ('{"turn": 3, "hands": [',),
        "state is not valid JSON",
    ),
    "not utf-8": (
        "UPDATE live_tables SET state = CAST(? AS TEXT) WHERE channel_id = ?",
        (b'{"name": "\xff\xfe"}',),
        "state is not UTF-8",
    ),
    "json array": (
        "UPDATE live_tables SET state = ? WHERE channel_id = ?",
        ("[1, 2, 3]",),
        "state is JSON list, not an object",
    ),
    "rules damaged": (
        "UPDATE live_tables SET rules = ? WHERE channel_id = ?",
        ("{nope",),
        "rules is not valid JSON",
    ),
    "guild id text": (
        "UPDATE live_tables SET guild_id = ? WHERE channel_id = ?",
        ("seventy-seven",),
        "guild id",
    ),
}


@pytest.mark.parametrize("kind", list(CORRUPTIONS))
async def test_corrupt_row_is_set_aside_kept_and_the_rest_load(db_path: Path, kind: str) -> None:
    async with await Database.open(db_path) as db:
        for channel in (1, 2, 3):
            await db.save_live_table(table(channel))
    sql, params, error = CORRUPTIONS[kind]
    columns = "channel_id, guild_id, message_id, rules, state, updated_at"
    raw = sqlite3.connect(db_path)
    raw.text_factory = bytes  # compare what is stored, even where it is not UTF-8
    with raw:
        raw.execute(sql, (*params, 2))
    before = raw.execute(f"SELECT {columns} FROM live_tables WHERE channel_id = 2").fetchone()
    raw.close()

    async with await Database.open(db_path) as db:
        result = await db.load_live_tables()
        assert result.tables == [table(1), table(3)]
        assert len(result.broken) == 1
        broken = result.broken[0]
        assert broken.channel_id == 2
        assert broken.guild_id == (None if kind == "guild id text" else 77)
        assert error in broken.error
        assert await db.set_aside_tables() == [broken]
        # Moved out of the live set: the next start-up does not trip on it again.
        again = await db.load_live_tables()
        assert (again.tables, again.broken) == ([table(1), table(3)], [])

    raw = sqlite3.connect(db_path)
    raw.text_factory = bytes
    kept = raw.execute(f"SELECT {columns} FROM set_aside_tables").fetchall()
    raw.close()
    assert kept == [before], "the set-aside row must be byte-for-byte what was saved"


async def test_set_aside_live_table_keeps_the_row(db: Database, outside: Outside) -> None:
    await db.save_live_table(table(1))
    await db.save_live_table(table(2))
    await db.set_aside_live_table(1, "engine: unknown state version 99")
    await db.set_aside_live_table(555, "no such table: nothing happens")
    assert (await db.load_live_tables()).tables == [table(2)]
    assert await db.set_aside_tables() == [
        BrokenTable(channel_id=1, guild_id=77, error="engine: unknown state version 99")
    ]
    [(state,)] = await outside("SELECT state FROM set_aside_tables")
    assert '"turn":0' in state


async def test_a_channel_can_be_set_aside_twice(db: Database) -> None:
    for turn in (1, 2):
        await db.save_live_table(table(1, turn=turn))
        await db.set_aside_live_table(1, f"attempt {turn}")
    assert [b.error for b in await db.set_aside_tables()] == ["attempt 1", "attempt 2"]


async def test_many_concurrent_saves_are_serialised(db: Database) -> None:
    """Units never interleave on the shared connection (no 'transaction within a transaction')."""
    await asyncio.gather(
        *(db.save_live_table(table(c % 7, turn=c)) for c in range(70)),
        *(db.set_aside_live_table(100 + c, "x") for c in range(10)),
        *(db.load_live_tables() for _ in range(5)),
    )
    tables = (await db.load_live_tables()).tables
    assert sorted(t.channel_id for t in tables) == list(range(7))
