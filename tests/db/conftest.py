"""Fixtures for the storage tests: a real SQLite file in tmp_path, and a real
PostgreSQL database on a server the run starts itself.

``db`` and ``db_target`` run a test once on each store; ``db_path`` is an
SQLite file, for what only a file has (its lock, its log, its pages).
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from db import Database
from tests.postgres_server import PostgresServer

from .faults import writes_fail

StoreFails = Callable[[], AbstractContextManager[None]]
Outside = Callable[[str], Awaitable[list[tuple[Any, ...]]]]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "rummy.db"


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_target(store: str, db_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """What ``Database.open`` is given: the SQLite file, or a fresh PostgreSQL database."""
    if store == "sqlite":
        return db_path
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()


@pytest.fixture
async def db(db_target: str | Path) -> AsyncIterator[Database]:
    database = await Database.open(db_target)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def store_fails(
    store: str, request: pytest.FixtureRequest
) -> StoreFails:
    """``with store_fails():`` every write fails, for real: on SQLite the disk
    refuses them (``faults.writes_fail``), on PostgreSQL the server is down."""
    if store == "sqlite":
        return writes_fail
    server: PostgresServer = request.getfixturevalue("postgres_server")

    @contextmanager
    def server_down() -> Iterator[None]:
        server.stop()
        try:
            yield
        finally:
            server.start()

    return server_down


@pytest.fixture
def outside(db_target: str | Path) -> Outside:
    """Run a statement on the store directly, as an operator's shell would, on a
    connection of its own: ``rows = await outside(sql)``."""

    async def run(sql: str) -> list[tuple[Any, ...]]:
        if isinstance(db_target, Path):
            conn = sqlite3.connect(db_target, isolation_level=None)
            try:
                return [tuple(row) for row in conn.execute(sql)]
            finally:
                conn.close()
        conn = await asyncpg.connect(db_target)
        try:
            return [tuple(row) for row in await conn.fetch(sql)]
        finally:
            await conn.close()

    return run
