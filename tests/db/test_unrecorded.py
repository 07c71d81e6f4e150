"""Results kept aside when the database refused them, recorded later by the host."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from db import Database
from db.models import MatchRecord
from db.unrecorded import folder_for, keep, kept_files, load

from .factories import computer, hand, human, match

ROOT = Path(__file__).resolve().parents[2]


def run_tool(database: Path) -> subprocess.CompletedProcess[str]:
    tool = [sys.executable, "-m", "db.unrecorded", str(database)]
    return subprocess.run(tool, cwd=ROOT, capture_output=True, text=True, check=False)


def finished() -> MatchRecord:
    return match(
        [human("a", 11, "Ann"), computer("b", "Bot")],
        [hand(1, {"a": 25, "b": 0}, went_out="a", rummy=True)],
        winners=("a",),
    )


def test_a_kept_result_reads_back_the_same(tmp_path: Path) -> None:
    record = finished()
    path = keep(tmp_path / "kept", record)
    assert load(path) == record
    assert kept_files(tmp_path / "kept") == [path]
    assert not list((tmp_path / "kept").glob("*.tmp"))


async def test_the_host_records_kept_results_once_with_the_tool(tmp_path: Path) -> None:
    database = tmp_path / "rummy.sqlite3"
    db = await Database.open(database)
    await db.close()
    record = finished()
    keep(folder_for(database), record)
    first = await asyncio.to_thread(run_tool, database)
    assert first.returncode == 0, first.stderr
    assert "recorded 1 kept result" in first.stdout
    assert kept_files(folder_for(database)) == []
    again = await asyncio.to_thread(run_tool, database)
    assert again.returncode == 0 and "recorded 0 kept result" in again.stdout
    db = await Database.open(database)
    try:
        board = await db.leaderboard(record.guild_id)
        assert sum(row.matches_played for row in board.rows) == sum(
            1 for seat in record.seats if not seat.computer
        )
    finally:
        await db.close()


async def test_the_tool_waits_for_the_bot_to_stop(tmp_path: Path) -> None:
    database = tmp_path / "rummy.sqlite3"
    keep(folder_for(database), finished())
    db = await Database.open(database)  # the bot, running
    try:
        busy = await asyncio.to_thread(run_tool, database)
    finally:
        await db.close()
    assert busy.returncode == 1 and busy.stderr.startswith("error: ")
    assert "Traceback" not in busy.stderr
    assert len(kept_files(folder_for(database))) == 1
