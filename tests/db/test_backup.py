"""The online backup: a checked copy of the database while the bot has it open."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from db import Database

from .factories import random_matches

ROOT = Path(__file__).resolve().parents[2]


def run_backup(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "db.backup", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )


async def test_a_backup_taken_while_the_bot_writes_holds_everything_recorded(
    db: Database, db_path: Path, tmp_path: Path
) -> None:
    matches = random_matches(random.Random(7), 60, users=list(range(1, 9)), guilds=[5])
    for record in matches:
        await db.record_match(record)
    before = await db.leaderboard(5, "points")
    target = tmp_path / "copy.sqlite3"
    done = run_backup(str(db_path), str(target))  # the database is open and locked
    assert done.returncode == 0, done.stderr
    assert "checked" in done.stdout
    await db.record_match(matches[0])  # the bot goes on writing to its own file
    copy = await Database.open(target)
    try:
        copied = await copy.leaderboard(5, "points")
        assert copied.total_players == 8
        assert [(r.user_id, r.points, r.matches_played) for r in copied.rows] == [
            (r.user_id, r.points, r.matches_played) for r in before.rows
        ]
    finally:
        await copy.close()
    assert not (tmp_path / "copy.sqlite3.partial").exists()


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
