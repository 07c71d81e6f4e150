"""Live-table saves reach the database file itself, without a save waiting for it."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from db import Database
from db.checkpoint import Checkpointer
from db.sqlite_store import _connect_thread, _connect_writer
from tests.waiting import until

from .test_group_commit import table


def rows_in_main_file(db_path: Path, copy: Path) -> list[int]:
    """Channel ids of the live tables in the database file alone, not its log."""
    shutil.copyfile(db_path, copy)
    with closing(sqlite3.connect(copy)) as conn:
        return [row[0] for row in conn.execute("SELECT channel_id FROM live_tables ORDER BY 1")]


async def test_saves_reach_the_database_file_soon_after_they_are_made(
    db_path: Path, tmp_path: Path
) -> None:
    db = await Database.open(db_path)
    try:
        await asyncio.gather(*(db.save_live_table(table(channel, 1)) for channel in range(5)))
        # A few pages: SQLite's own checkpoint would wait for a thousand.
        checkpointer = db._checkpointer
        assert checkpointer is not None
        await until(lambda: checkpointer.checkpoints >= 1, "a checkpoint after the saves")
        assert rows_in_main_file(db_path, tmp_path / "copy.db") == list(range(5))
    finally:
        await db.close()


def test_the_live_table_writer_never_checkpoints_itself(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with closing(sqlite3.connect(db_path)) as setup:
        setup.execute("PRAGMA journal_mode = WAL")
        setup.execute("CREATE TABLE t (x BLOB)")
    with closing(_connect_writer(db_path)) as writer:
        for _ in range(50):
            writer.execute("INSERT INTO t VALUES (randomblob(100000))")  # ~25 pages each
        # Well past SQLite's 1,000 pages, and still all in the log.
        _, pages, _ = writer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert pages > 1000


@pytest.fixture
def wal_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "log.db"
    with closing(sqlite3.connect(path)) as setup:
        setup.execute("PRAGMA journal_mode = WAL")
        setup.execute("CREATE TABLE t (x BLOB)")
    yield path


async def test_a_long_log_is_started_over(wal_file: Path) -> None:
    checkpointer = Checkpointer(lambda: _connect_thread(wal_file), interval=0.01, restart_pages=20)
    await checkpointer.start()
    try:
        with closing(_connect_writer(wal_file)) as writer:
            for _ in range(4):
                writer.execute("INSERT INTO t VALUES (randomblob(40000))")  # ~10 pages each
            checkpointer.request()
            await until(lambda: checkpointer.restarts == 1, "a RESTART checkpoint")
            writer.execute("INSERT INTO t VALUES (x'00')")
            _, pages, _ = writer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert pages <= 3  # the small write went at the start of the log
    finally:
        await checkpointer.stop()


async def test_a_short_log_is_left_to_grow(wal_file: Path) -> None:
    checkpointer = Checkpointer(lambda: _connect_thread(wal_file), interval=0.01, restart_pages=20)
    await checkpointer.start()
    try:
        with closing(_connect_writer(wal_file)) as writer:
            writer.execute("INSERT INTO t VALUES (randomblob(20000))")
            checkpointer.request()
            await until(lambda: checkpointer.checkpoints == 1, "a checkpoint")
    finally:
        await checkpointer.stop()
    assert checkpointer.restarts == 0


async def test_closing_the_database_ends_the_checkpoint_thread(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.save_live_table(table(1, 1))
    assert "db-checkpointer" in {thread.name for thread in threading.enumerate()}
    await db.close()
    assert "db-checkpointer" not in {thread.name for thread in threading.enumerate()}


async def test_a_failed_checkpoint_is_logged_and_the_thread_goes_on(
    wal_file: Path, caplog: pytest.LogCaptureFixture
) -> None:
    def closed_connection() -> sqlite3.Connection:
        conn = _connect_thread(wal_file)
        conn.close()  # every checkpoint on it fails
        return conn

    checkpointer = Checkpointer(closed_connection, interval=0.01)
    await checkpointer.start()
    try:
        for attempt in (1, 2):
            checkpointer.request()
            await until(
                lambda n=attempt: caplog.text.count("checkpointing the database log failed") == n,
                f"failure {attempt} logged",
            )
    finally:
        await checkpointer.stop()
    assert checkpointer.checkpoints == 0
