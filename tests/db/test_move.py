"""Moving a bot's SQLite file into PostgreSQL: everything arrives, the new
database goes on from there, and a move that cannot be made changes nothing."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import asyncpg

from db import Database, LiveTable
from db.lock import ProcessLock
from tests.postgres_server import PostgresServer

from .factories import random_matches

ROOT = Path(__file__).resolve().parents[2]


def run_move(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "db.move", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


async def a_file_with_a_game(folder: Path) -> Path:
    path = folder / "rummy.sqlite3"
    async with await Database.open(path) as db:
        await db.save_live_table(LiveTable(77, 5, 700, {}, {"turn": 3}, 1.5))
    return path


async def snapshot(db: Database) -> tuple[object, ...]:
    return (
        await db.leaderboard(5, "points", per_page=100),
        await db.rating_board(5, per_page=100),
        await db.history(5, per_page=100),
        await db.load_live_tables(),
        await db.load_guild_rules(),
        await db.load_player_prefs(),
        await db.card_emoji(),
        await db.seasons(5),
    )


async def test_everything_moves_and_the_new_database_goes_on(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    path = tmp_path / "rummy.sqlite3"
    matches = random_matches(random.Random(3), 30, users=list(range(1, 7)), guilds=[5])
    async with await Database.open(path) as db:
        for record in matches[:20]:
            await db.record_match(record)
        await db.end_season(5, "Spring", 1_700_000_000.0)
        for record in matches[20:]:
            await db.record_match(record)
        await db.save_live_table(LiveTable(77, 5, 700, {"target": 100}, {"turn": 3}, 1.5))
        await db.set_guild_rules(5, {"target": 250})
        await db.change_player_prefs(1, {"language": "de"})
        await db.set_card_emoji({"ace_of_spades": (11, "aa")})
        before = await snapshot(db)
    url = postgres_server.new_database()
    moved = run_move(str(path), url)
    assert moved.returncode == 0, moved.stderr
    assert "matches 30" in moved.stdout and "live_tables 1" in moved.stdout
    async with await Database.open(url) as db:
        assert await snapshot(db) == before
        assert await db.record_match(matches[0]) == 31  # ids go on after the moved ones


async def test_a_move_into_a_database_in_use_changes_nothing(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    path = await a_file_with_a_game(tmp_path)
    url = postgres_server.new_database()
    async with await Database.open(url) as db:
        await db.set_guild_rules(9, {"target": 100})
    refused = run_move(str(path), url)
    assert refused.returncode == 1
    assert "already holds rows in guild_settings" in refused.stderr
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT count(*) FROM live_tables") == 0
    finally:
        await conn.close()
    missing = run_move(str(tmp_path / "nope.sqlite3"), url)
    assert missing.returncode == 1 and "is not a database file" in missing.stderr
    not_pg = run_move(str(path), str(tmp_path / "other.sqlite3"))
    assert not_pg.returncode == 1 and "must be a postgresql:// URL" in not_pg.stderr


async def test_a_move_while_the_bot_runs_on_the_file_is_refused(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    path = await a_file_with_a_game(tmp_path)
    url = postgres_server.new_database()
    running = ProcessLock.acquire(path)  # as the bot holds it while it runs
    try:
        refused = run_move(str(path), url)
    finally:
        running.release()
    assert refused.returncode == 1
    assert "is already using" in refused.stderr and "stopped bot's database" in refused.stderr
    conn = await asyncpg.connect(url)
    try:
        # Nothing was made there, not even the tables.
        assert not await conn.fetchval(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        )
    finally:
        await conn.close()
    moved = run_move(str(path), url)  # stopped, it moves
    assert moved.returncode == 0, moved.stderr
