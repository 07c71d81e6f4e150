"""Fixtures for the storage tests: always a real SQLite file in tmp_path."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from db import Database


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "rummy.db"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_path)
    try:
        yield database
    finally:
        await database.close()
