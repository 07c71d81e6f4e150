"""The online backup: a checked copy of the database while the bot has it open."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from db import Database
from tests.postgres_server import PostgresServer

from .factories import random_matches

ROOT = Path(__file__).resolve().parents[2]


def run_backup(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "db.backup", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )


def restore_dump(server: PostgresServer, dump: Path, url: str) -> None:
    pg_restore = server.pg_dump_path().with_name("pg_restore")
    subprocess.run([str(pg_restore), f"--dbname={url}", str(dump)], check=True, timeout=60)


async def test_a_backup_taken_while_the_bot_writes_holds_everything_recorded(
    db: Database, db_target: str | Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    matches = random_matches(random.Random(7), 60, users=list(range(1, 9)), guilds=[5])
    for record in matches:
        await db.record_match(record)
    before = await db.leaderboard(5, "points")
    target = tmp_path / "copy.backup"
    if isinstance(db_target, Path):
        done = run_backup(str(db_target), str(target))  # the database is open and locked
    else:
        server: PostgresServer = request.getfixturevalue("postgres_server")
        done = run_backup(db_target, str(target), "--pg-dump", str(server.pg_dump_path()))
    assert done.returncode == 0, done.stderr
    assert "checked" in done.stdout
    await db.record_match(matches[0])  # the bot goes on writing to its own database
    restored: str | Path = target
    if not isinstance(db_target, Path):
        restored = server.new_database()
        restore_dump(server, target, restored)
    copy = await Database.open(restored)
    try:
        copied = await copy.leaderboard(5, "points")
        assert copied.total_players == 8
        assert [(r.user_id, r.points, r.matches_played) for r in copied.rows] == [
            (r.user_id, r.points, r.matches_played) for r in before.rows
        ]
    finally:
        await copy.close()
    assert not (tmp_path / "copy.backup.partial").exists()


def test_bad_paths_are_refused_on_stderr_and_write_nothing(tmp_path: Path) -> None:
    missing = run_backup(str(tmp_path / "nope.sqlite3"), str(tmp_path / "out.sqlite3"))
    assert missing.returncode == 1 and "is not a database file" in missing.stderr
    existing = tmp_path / "taken.sqlite3"
    existing.write_bytes(b"keep me")
    source = tmp_path / "source.sqlite3"
    source.write_bytes(b"")
    refused = run_backup(str(source), str(existing))
    assert refused.returncode == 1 and "exists already" in refused.stderr
    assert existing.read_bytes() == b"keep me"
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database at all" * 100)
    broken = run_backup(str(garbage), str(tmp_path / "out.sqlite3"))
    assert broken.returncode == 1 and "could not copy" in broken.stderr
    assert not (tmp_path / "out.sqlite3").exists()
    assert not list(tmp_path.glob("*.partial"))


def test_a_dump_without_pg_dump_says_what_to_install(tmp_path: Path) -> None:
    done = run_backup(
        "postgresql://rummy@127.0.0.1:1/rummy", str(tmp_path / "x.dump"), "--pg-dump", "no-such"
    )
    assert done.returncode == 1
    assert "no-such was not found: install PostgreSQL's client programs" in done.stderr
    assert not list(tmp_path.iterdir())
