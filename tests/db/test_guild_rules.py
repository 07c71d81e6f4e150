"""Per-server default house rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from db import Database, StorageError

from .conftest import Outside


async def test_rules_are_per_server_and_survive_reopen(db_target: str | Path) -> None:
    async with await Database.open(db_target) as db:
        assert await db.get_guild_rules(1) is None
        await db.set_guild_rules(1, {"hand_size": 10, "target": 250, "name": "Règles ♣"})
        await db.set_guild_rules(2, {"hand_size": 7})
        await db.set_guild_rules(1, {"hand_size": 7, "target": 500})
    async with await Database.open(db_target) as db:
        assert await db.get_guild_rules(1) == {"hand_size": 7, "target": 500}
        assert await db.get_guild_rules(2) == {"hand_size": 7}
        assert await db.get_guild_rules(3) is None


async def test_unserialisable_rules_are_refused(db: Database) -> None:
    await db.set_guild_rules(1, {"target": 100})
    with pytest.raises(StorageError, match="house rules"):
        await db.set_guild_rules(1, {"target": object()})
    assert await db.get_guild_rules(1) == {"target": 100}


async def test_every_servers_rules_load_at_once_without_a_damaged_row(
    db: Database, outside: Outside, caplog: pytest.LogCaptureFixture
) -> None:
    await db.set_guild_rules(1, {"target": 100})
    await db.set_guild_rules(2, {"hands": 3})
    await db.set_guild_rules(3, {"target": 200})
    await outside("UPDATE guild_settings SET rules = '[1]' WHERE guild_id = 3")
    assert await db.load_guild_rules() == {1: {"target": 100}, 2: {"hands": 3}}
    assert "unreadable house rules of guild 3" in caplog.text
