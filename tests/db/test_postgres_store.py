"""What only the PostgreSQL store has: its schema kept in step with SQLite's,
its migrations shared by processes starting together, and its refusals."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from db import Database, DatabaseTooNewError, LiveTable, StorageError
from db.migrations import MIGRATIONS
from db.postgres_schema import POSTGRES_MIGRATIONS
from db.postgres_store import dollar_params, shown_url
from tests.postgres_server import PostgresServer


def sqlite_schema(path: Path) -> dict[str, list[str]]:
    with sqlite3.connect(path) as conn:
        tables = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            " ORDER BY name")]
        return {t: [row[1] for row in conn.execute(f"PRAGMA table_info({t})")] for t in tables}


async def postgres_schema(url: str) -> dict[str, list[str]]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public' AND table_name <> 'schema_version'"
            " ORDER BY table_name, ordinal_position")
    finally:
        await conn.close()
    schema: dict[str, list[str]] = {}
    for row in rows:
        schema.setdefault(row["table_name"], []).append(row["column_name"])
    return schema


async def indexes(url: str) -> set[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")
    finally:
        await conn.close()
    return {row["indexname"] for row in rows}


async def test_both_stores_have_the_same_tables_and_columns(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    assert [(m.version, m.name) for m in POSTGRES_MIGRATIONS] == [
        (m.version, m.name) for m in MIGRATIONS
    ]
    path = tmp_path / "r.db"
    url = postgres_server.new_database()
    for target in (path, url):
        await (await Database.open(target)).close()
    assert await postgres_schema(url) == sqlite_schema(path)
    with sqlite3.connect(path) as conn:
        named = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL")}
    assert named <= await indexes(url)


async def test_processes_starting_together_migrate_once(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    opened = await asyncio.gather(*(Database.open(url) for _ in range(4)))
    await opened[0].save_live_table(LiveTable(1, 2, None, {}, {"turn": 1}, 1.0))
    assert [len((await db.load_live_tables()).tables) for db in opened] == [1, 1, 1, 1]
    for db in opened:
        await db.close()
    conn = await asyncpg.connect(url)
    try:
        applied = [row["version"] for row in await conn.fetch("SELECT version FROM schema_version")]
    finally:
        await conn.close()
    assert sorted(applied) == [m.version for m in MIGRATIONS]


async def test_a_database_from_a_newer_release_is_left_alone(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.new_database()
    await (await Database.open(url)).close()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("INSERT INTO schema_version VALUES (99, 'future', 0)")
    finally:
        await conn.close()
    with pytest.raises(DatabaseTooNewError, match="schema version 99"):
        await Database.open(url)


async def test_a_database_of_something_else_is_refused(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE invoices (id int)")
    finally:
        await conn.close()
    with pytest.raises(StorageError, match="it is not a Rummy bot database"):
        await Database.open(url)


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql://rummy:secret@127.0.0.1:1/rummy", "check that the server is running"),
        ("postgresql://rummy@127.0.0.1:notaport/rummy", "not a valid postgresql:// URL"),
    ],
)
async def test_a_server_that_cannot_be_reached_is_named_without_its_password(
    url: str, says: str
) -> None:
    with pytest.raises(StorageError) as caught:
        await Database.open(url)
    assert says in str(caught.value)
    assert "secret" not in str(caught.value)


async def test_a_missing_database_says_to_create_it(postgres_server: PostgresServer) -> None:
    with pytest.raises(StorageError, match="the database does not exist: create it"):
        await Database.open(postgres_server.url("no_such_database"))


async def test_play_resumes_when_the_server_comes_back(postgres_server: PostgresServer) -> None:
    db = await Database.open(postgres_server.new_database())
    try:
        await db.save_live_table(LiveTable(1, 2, None, {}, {"turn": 1}, 1.0))
        postgres_server.stop()
        try:
            for turn in (2, 3):  # every try is refused while it is down, none hangs
                with pytest.raises(StorageError, match="cannot be reached"):
                    await db.save_live_table(LiveTable(1, 2, None, {}, {"turn": turn}, 1.0))
        finally:
            postgres_server.start()
        await db.save_live_table(LiveTable(1, 2, None, {}, {"turn": 4}, 1.0))
        assert [t.state for t in (await db.load_live_tables()).tables] == [{"turn": 4}]
    finally:
        await db.close()


def test_placeholders_become_numbered_ones() -> None:
    assert dollar_params("SELECT ? + ?, ?") == "SELECT $1 + $2, $3"
    assert dollar_params("WHERE a = ?1 AND b = ?2 OR c = ?1") == (
        "WHERE a = $1 AND b = $2 OR c = $1"
    )


def test_a_shown_url_has_no_password() -> None:
    assert shown_url("postgresql://bot:hunter2@db.example:5432/rummy?sslmode=require") == (
        "postgresql://bot@db.example:5432/rummy?sslmode=require"
    )
    assert shown_url("postgresql://db/rummy") == "postgresql://db/rummy"
